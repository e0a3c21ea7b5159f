// Launches that read other values than an earlier launch of their key
// (docs/REUSE.md, "Other inputs"): the timing of that launch is reused
// and the outputs come from a functional run only where no value read
// steers a branch, guard or address and the recorded launch's threads
// shared no bytes; tests/reuse/reuse_values.sh reads the summaries.
// Every launch reads inputs no earlier launch of its key read.
//   1, 2   smooth(a -> b), smooth(b -> a)   simulated (first of each key)
//   3..6   the same, in turn                timing from 1 and 2, other inputs
//   7, 8   halve(y in place)                simulated: reads the bytes it writes
//   9, 10  gather(idx, x -> out)            simulated: addresses from idx
//  11, 12  lastWins(in -> out)              simulated: every thread writes out[0]
//  13, 14  swapPairs(in -> tmp -> out)      simulated: reads what others wrote
//  15..17  tiledSmooth(a -> b)              16, 17 with the timing of 15, other inputs: the
//                                           threads share values in shared memory, but
//                                           ordered by a barrier (racecheck finds nothing
//                                           in 16, and 17 need not look again)
//  18..20  racyShift(in -> out)             simulated: a warp reads words another warp
//                                           of its block writes, with no barrier between
//                                           (found again in 20, lent 19's timing)
//  21, 22  scale4(in -> out)                22 with the timing of 21, other inputs: its
//                                           stores four words a lane (made at the end)
//  23, 24  spread(in -> wide, narrow)       24 with the timing of 23, other inputs: its
//                                           stores write zeros, each warp's lanes to 32
//                                           pages of wide, half of them made (by the host,
//                                           between the two) and half not
// Every result is checked on the CPU; PASS last.
#include <cstdio>
#include <cuda_runtime.h>

#define N 4096
#define BLOCK 128

__global__ void smooth(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0 || i >= n - 1) {
        if (i < n) out[i] = in[i];
        return;
    }
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

__global__ void halve(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * y[i] + 1.0f;
}

__global__ void gather(const int *idx, const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[idx[i]];
}

__global__ void lastWins(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[0] = in[i];
}

__global__ void swapPairs(const float *in, float *tmp, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tmp[i] = in[i];
    __syncthreads();
    if (i < n) out[i] = tmp[i ^ 1];
}

__global__ void tiledSmooth(const float *in, float *out, int n)
{
    __shared__ float tile[BLOCK + 2];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x + 1;
    tile[t] = in[i];
    if (threadIdx.x == 0) tile[0] = i > 0 ? in[i - 1] : in[i];
    if (threadIdx.x == blockDim.x - 1) tile[BLOCK + 1] = i < n - 1 ? in[i + 1] : in[i];
    __syncthreads();
    out[i] = 0.25f * tile[t - 1] + 0.5f * tile[t] + 0.25f * tile[t + 1];
}

__global__ void racyShift(const float *in, float *out, int n)
{
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i];
    out[i] = tile[(threadIdx.x + 32) % BLOCK];      /* no __syncthreads(): whatever is there */
}

__global__ void scale4(const float4 *in, float4 *out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = in[i];
        out[i] = make_float4(2.0f * v.x, 2.0f * v.y + 1.0f, 2.0f * v.z + 2.0f, 2.0f * v.w + 3.0f);
    }
}

#define PAGE_INTS (65536 / 4)     /* a page of device memory */
#define SPREAD 256                /* spread's threads */

__global__ void spread(const int *in, int *wide, int *narrow, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    wide[(i % 32) * PAGE_INTS + i / 32] = in[i] & k;
    narrow[i] = in[i] & k;
}

static void smooth_cpu(const float *in, float *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = i == 0 || i == n - 1 ? in[i] : 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

static bool same(const char *what, const float *dev, const float *want, int n)
{
    static float got[N];
    cudaMemcpy(got, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("%s: FAIL at %d: %g, expected %g\n", what, i, got[i], want[i]);
            return false;
        }
    printf("%s: ok\n", what);
    return true;
}

int main()
{
    static float h[N], want[N], next[N], x[N];
    static int idx[N];
    for (int i = 0; i < N; i++) h[i] = (float)((i * 37) % 101) - 50.0f;
    float *a, *b, *c, *d;
    int *di;
    cudaMalloc(&a, sizeof h);
    cudaMalloc(&b, sizeof h);
    cudaMalloc(&c, sizeof h);
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&di, sizeof idx);
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    bool ok = true;
    const int blocks = N / BLOCK;

    // 1-6: ping-pong, each launch's input the one before's output
    for (int i = 0; i < N; i++) want[i] = h[i];
    for (int it = 0; it < 6; it++) {
        float *in = it % 2 ? b : a, *out = it % 2 ? a : b;
        smooth<<<blocks, BLOCK>>>(in, out, N);
        smooth_cpu(want, next, N);
        for (int i = 0; i < N; i++) want[i] = next[i];
        char what[32];
        snprintf(what, sizeof what, "smooth %d", it);
        ok &= same(what, out, want, N);
    }

    // 7-8: in place
    for (int r = 0; r < 2; r++) {
        halve<<<blocks, BLOCK>>>(a, N);
        for (int i = 0; i < N; i++) want[i] = 0.5f * want[i] + 1.0f;
        ok &= same("halve", a, want, N);
    }

    // 9-10: the same x through two permutations
    for (int i = 0; i < N; i++) x[i] = (float)i;
    cudaMemcpy(c, x, sizeof x, cudaMemcpyHostToDevice);
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < N; i++) idx[i] = r ? (i * 7) % N : N - 1 - i;
        cudaMemcpy(di, idx, sizeof idx, cudaMemcpyHostToDevice);
        gather<<<blocks, BLOCK>>>(di, c, d, N);
        for (int i = 0; i < N; i++) want[i] = x[idx[i]];
        ok &= same("gather", d, want, N);
    }

    // 11-12: one word written by every thread: the value of whichever
    // store comes last, which the timing decides (printed:
    // tests/reuse/reuse_values.sh compares it with --simulate-all's)
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < N; i++) x[i] = (float)(2 * i + r);
        cudaMemcpy(c, x, sizeof x, cudaMemcpyHostToDevice);
        lastWins<<<blocks, BLOCK>>>(c, d, N);
        float got;
        cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost);
        bool one = got >= 0 && got < 2 * N && (int)got % 2 == r;     /* one of the inputs */
        printf("lastWins: out[0] = %g, %s\n", got, one ? "ok" : "FAIL");
        ok &= one;
    }

    // 13-14: each thread reads its neighbour's word of tmp, after a barrier
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < N; i++) x[i] = (float)(i + 100 * r);
        cudaMemcpy(c, x, sizeof x, cudaMemcpyHostToDevice);
        swapPairs<<<blocks, BLOCK>>>(c, b, d, N);
        for (int i = 0; i < N; i++) want[i] = x[i ^ 1];
        ok &= same("swapPairs", d, want, N);
    }

    // 15-17: smooth again, through shared memory
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < N; i++) x[i] = (float)((i * (13 + r)) % 29);
        cudaMemcpy(c, x, sizeof x, cudaMemcpyHostToDevice);
        tiledSmooth<<<blocks, BLOCK>>>(c, d, N);
        for (int i = 0; i < N; i++)     /* the ends take their own value for the missing neighbour */
            want[i] = 0.25f * x[i > 0 ? i - 1 : i] + 0.5f * x[i] + 0.25f * x[i < N - 1 ? i + 1 : i];
        ok &= same("tiledSmooth", d, want, N);
    }

    // 18-20: what a race leaves, printed (tests/reuse/reuse_values.sh
    // compares it with --simulate-all's)
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < N; i++) x[i] = (float)(i % 7 + r);
        cudaMemcpy(c, x, sizeof x, cudaMemcpyHostToDevice);
        racyShift<<<blocks, BLOCK>>>(c, d, N);
        static float got[N];
        cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
        double sum = 0;
        for (int i = 0; i < N; i++) sum += got[i];
        printf("racyShift: sum %.1f\n", sum);
    }

    // 21-22: four words a lane
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < N; i++) x[i] = (float)(i % 11 - 5 * r);
        cudaMemcpy(c, x, sizeof x, cudaMemcpyHostToDevice);
        scale4<<<N / 4 / BLOCK, BLOCK>>>((const float4 *)c, (float4 *)d, N / 4);
        for (int i = 0; i < N; i++) want[i] = 2.0f * x[i] + (float)(i % 4);
        ok &= same("scale4", d, want, N);
    }

    // 23-24: zeros written to pages made and not made
    int *wide, *narrow;
    static int page[PAGE_INTS], iv[SPREAD];
    cudaMalloc(&wide, 32 * sizeof page);
    cudaMalloc(&narrow, SPREAD * sizeof(int));
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < SPREAD; i++) iv[i] = 3 * i + 1 + r;
        cudaMemcpy(di, iv, sizeof iv, cudaMemcpyHostToDevice);
        if (r == 1)         /* the even pages made, holding 7s */
            for (int i = 0; i < PAGE_INTS; i++) page[i] = 7;
        for (int p = 0; r == 1 && p < 32; p += 2) cudaMemcpy(wide + p * PAGE_INTS, page, sizeof page, cudaMemcpyHostToDevice);
        spread<<<SPREAD / BLOCK, BLOCK>>>(di, wide, narrow, 0);
        bool good = true;
        for (int p = 0; p < 32; p++) {
            cudaMemcpy(page, wide + p * PAGE_INTS, sizeof page, cudaMemcpyDeviceToHost);
            for (int i = 0; i < PAGE_INTS; i++) {
                int expect = i < SPREAD / 32 || p % 2 || r == 0 ? 0 : 7;
                if (page[i] != expect && good) {
                    printf("spread: FAIL at page %d, int %d: %d, expected %d\n", p, i, page[i], expect);
                    good = false;
                }
            }
        }
        cudaMemcpy(iv, narrow, sizeof iv, cudaMemcpyDeviceToHost);
        for (int i = 0; i < SPREAD && good; i++)
            if (iv[i]) {
                printf("spread: FAIL at narrow %d: %d\n", i, iv[i]);
                good = false;
            }
        if (good) printf("spread: ok\n");
        ok &= good;
    }

    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(d);
    cudaFree(di);
    cudaFree(wide);
    cudaFree(narrow);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
