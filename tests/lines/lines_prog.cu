// A CUDA program for `warpsim exec --lines` (tests/lines): transposes a
// 64x64 matrix twice through a conflicting tile and once through a padded
// one, multiplies two 64x64 matrices with the conflicting A tile, and
// checks every result against the CPU.  Prints OK or MISMATCH.
#include <cstdio>
#include <cstdlib>
#include "transpose.cu"
#include "matmul.cu"

static bool check(const char *what, const float *got, const float *want, int count)
{
    for (int i = 0; i < count; i++)
        if (got[i] != want[i]) {
            printf("MISMATCH %s at %d: %g, expected %g\n", what, i, got[i], want[i]);
            return false;
        }
    return true;
}

int main()
{
    const int n = 64, count = n * n;
    size_t bytes = count * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *t = (float *)malloc(bytes), *m = (float *)malloc(bytes);
    for (int i = 0; i < count; i++) {
        a[i] = (float)(i % 7);      // small integers: the sums are exact in any order
        b[i] = (float)(i % 5) - 2.0f;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            t[j * n + i] = a[i * n + j];
            float s = 0.0f;
            for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
            m[i * n + j] = s;
        }
    float *da, *db, *dc;
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
    dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
    bool ok = true;
    for (int rep = 0; rep < 2; rep++) {
        transposeConflict<<<grid, block>>>(da, dc, n);
        cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
        ok = check("transposeConflict", c, t, count) && ok;
    }
    transposePadded<<<grid, block>>>(da, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    ok = check("transposePadded", c, t, count) && ok;
    matmulConflict<<<grid, block>>>(da, db, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    ok = check("matmulConflict", c, m, count) && ok;
    printf("%s\n", ok ? "OK" : "MISMATCH");
    cudaFree(da); cudaFree(db); cudaFree(dc);
    free(a); free(b); free(c); free(t); free(m);
    return ok ? 0 : 1;
}
