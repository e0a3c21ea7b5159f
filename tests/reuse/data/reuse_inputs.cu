// Launches that repeated-launch reuse (docs/REUSE.md) must and must not
// take from an earlier launch; tests/reuse/reuse_inputs.sh reads the
// summaries.  Launch numbers as the runtime counts them:
//   1 scale(x -> y)          simulated
//   2 scale(x -> y)          same bytes read: reused from 1
//   3 scale(x -> y)          one byte of x changed on the host: its timing
//                            reused from 1, other inputs (no value scale
//                            reads steers a branch, guard or address, and
//                            its threads share no bytes), the outputs its
//                            own from a functional run
//   4 bump(y in place)       simulated
//   5 bump(y in place)       reads what 4 wrote, not what 4 read: simulated
//   6 hello()                simulated, prints
//   7 hello()                reused from 6, prints again
//   8 scale(x -> y)          x as in 3: timing reused from 1, other inputs
//                            (3, not simulated, was not recorded)
//   9 gaps(y)                simulated: every other word of y written
//  10 gaps(y)                reused from 9: the words between, changed on
//                            the host since, keep the host's values
//  11 count(c)               simulated: atomics on 4 counters from zero
//  12 count(c)               counters zero again: reused from 11
//  13 count(c)               counters as 12 left them (the atomics read
//                            them): simulated, the counts doubled
//  14 countEven(c)           simulated: atomics on counters 0 and 2 of 4
//  15 countEven(c)           counters 1 and 3 changed on the host, 0 and 2
//                            zero again: reused from 14 (1 and 3 are not
//                            read, and keep the host's values)
//  16 countEven(c)           counter 2 not zero: simulated
//  17 writeThenRead(w)       simulated: writes w[0], reads w[0] and w[1]
//                            thousands of cycles later
//  18 writeThenRead(w)       w as 17 left it: reused from 17 (w[0] was read
//                            only after the launch wrote it)
//  19 writeThenRead(w)       w[1] changed on the host: simulated (17 read
//                            a byte it wrote: its timing is not lent to
//                            other inputs)
//  20 writeThenRead(w)       w[0] zeroed on the host (cudaMemset), w[1] as
//                            in 19: reused from 19 (w[0] is not compared)
//  21 writeThenRead(w)       w[0] zeroed, w[1] as in 17: reused from 17
// Every result is checked on the CPU; PASS last.
#include <cstdio>
#include <cuda_runtime.h>

#define N 1000

__global__ void scale(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

__global__ void bump(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += 1.0f;
}

__global__ void gaps(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i < n) y[2 * i] = (float)i;
}

/* y after gaps over a y of between everywhere. */
static bool check_gaps(const char *what, const float *dy, float between)
{
    static float y[N];
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) {
        float want = i % 2 ? between : (float)(i / 2);
        if (y[i] != want) {
            printf("%s: FAIL at %d: %g, expected %g\n", what, i, y[i], want);
            return false;
        }
    }
    printf("%s: ok\n", what);
    return true;
}

__global__ void count(int *c)
{
    atomicAdd(&c[threadIdx.x % 4], 1);
}

__global__ void countEven(int *c)
{
    atomicAdd(&c[threadIdx.x % 2 * 2], 1);
}

static bool check_count(const char *what, const int *dc, int want)
{
    int c[4];
    cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++)
        if (c[i] != want) {
            printf("%s: FAIL at %d: %d, expected %d\n", what, i, c[i], want);
            return false;
        }
    printf("%s: ok\n", what);
    return true;
}

/* Writes w[0], then, after a loop of dependent multiplies (thousands of
 * cycles: later windows), reads w[0] back and w[1]. */
__global__ void writeThenRead(volatile int *w, int *out, int spins)
{
    w[0] = 5;
    int acc = 1;
    for (int k = 0; k < spins; k++) acc = acc * 3 + 1;
    out[0] = w[0] + w[1];
    out[1] = acc;
}

__global__ void hello()
{
    if (threadIdx.x == 0 && blockIdx.x == 0) printf("hello from the device\n");
}

static bool check(const char *what, const float *dy, const float *x, float add)
{
    static float y[N];
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++)
        if (y[i] != 2.0f * x[i] + 1.0f + add) {
            printf("%s: FAIL at %d: %g, expected %g\n", what, i, y[i], 2.0f * x[i] + 1.0f + add);
            return false;
        }
    printf("%s: ok\n", what);
    return true;
}

int main()
{
    static float x[N];
    for (int i = 0; i < N; i++) x[i] = (float)i;
    float *dx, *dy;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof x);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    bool ok = true;
    for (int r = 0; r < 2; r++) {
        cudaMemset(dy, 0, sizeof x);
        scale<<<(N + 127) / 128, 128>>>(dx, dy, N);
        ok &= check("scale", dy, x, 0.0f);
    }
    x[777] = -5.0f;
    cudaMemcpy(dx + 777, x + 777, sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(N + 127) / 128, 128>>>(dx, dy, N);
    ok &= check("scale, x changed", dy, x, 0.0f);
    bump<<<(N + 127) / 128, 128>>>(dy, N);
    ok &= check("bump", dy, x, 1.0f);
    bump<<<(N + 127) / 128, 128>>>(dy, N);
    ok &= check("bump again", dy, x, 2.0f);
    hello<<<2, 32>>>();
    cudaDeviceSynchronize();
    hello<<<2, 32>>>();
    cudaDeviceSynchronize();
    cudaMemset(dy, 0, sizeof x);
    scale<<<(N + 127) / 128, 128>>>(dx, dy, N);
    ok &= check("scale, x as before", dy, x, 0.0f);
    static float y[N];
    for (float between : {7.0f, 9.0f}) {
        for (int i = 0; i < N; i++) y[i] = between;
        cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
        gaps<<<(N / 2 + 127) / 128, 128>>>(dy, N);
        ok &= check_gaps("gaps", dy, between);
    }
    int *dc;
    cudaMalloc(&dc, 4 * sizeof(int));
    for (int r = 0; r < 2; r++) {
        cudaMemset(dc, 0, 4 * sizeof(int));
        count<<<8, 128>>>(dc);
        ok &= check_count("count", dc, 8 * 128 / 4);
    }
    count<<<8, 128>>>(dc);
    ok &= check_count("count again", dc, 2 * 8 * 128 / 4);
    const int starts[3][4] = {{0, 0, 0, 0}, {0, 7, 0, 9}, {0, 0, 5, 0}};
    for (int r = 0; r < 3; r++) {
        cudaMemcpy(dc, starts[r], sizeof starts[r], cudaMemcpyHostToDevice);
        countEven<<<2, 64>>>(dc);
        int c[4], half = 2 * 64 / 2;
        cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
        bool same = c[0] == half && c[1] == starts[r][1] && c[2] == starts[r][2] + half && c[3] == starts[r][3];
        printf("countEven %d: %s\n", r, same ? "ok" : "FAIL");
        ok &= same;
    }
    int *dw, *dout;
    cudaMalloc(&dw, 2 * sizeof(int));
    cudaMalloc(&dout, 2 * sizeof(int));
    const int w0[2] = {0, 10};
    cudaMemcpy(dw, w0, sizeof w0, cudaMemcpyHostToDevice);
    int acc = 1;
    for (int k = 0; k < 200; k++) acc = acc * 3 + 1;
    for (int r = 0; r < 5; r++) {
        const int w1 = r == 2 || r == 3 ? 20 : 10;
        if (r == 2 || r == 4) cudaMemcpy(dw + 1, &w1, sizeof w1, cudaMemcpyHostToDevice);
        if (r >= 3) cudaMemset(dw, 0, sizeof(int));
        writeThenRead<<<1, 1>>>(dw, dout, 200);
        int got[2], w[2];
        cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
        cudaMemcpy(w, dw, sizeof w, cudaMemcpyDeviceToHost);
        bool same = w[0] == 5 && got[0] == 5 + w1 && got[1] == acc;
        printf("writeThenRead %d: %s\n", r, same ? "ok" : "FAIL");
        ok &= same;
    }
    cudaFree(dw);
    cudaFree(dout);
    cudaFree(dc);
    cudaFree(dx);
    cudaFree(dy);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
