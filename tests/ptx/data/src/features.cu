// A grab bag of what nvcc emits: struct parameters, local arrays, function
// pointers (indirect calls with prototypes), recursion, pointer initializers,
// bar.red, warp votes, atomics of several kinds, half2, printf, -lineinfo.
#include <cstdio>
#include <cuda_fp16.h>
struct P { float x, y, z; int n; };
__device__ int (*fp)(int);
__device__ int sq(int v) { return v * v; }
__device__ int cube(int v) { return v * v * v; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ float *gptrs[2];
__device__ const char *names[] = {"a", "bb"};
__global__ void stress(P p, float *__restrict__ out, const float *__restrict__ in, double *d, int *hist, __half2 *h, int sel)
{
    __shared__ int sh[256];
    int t = threadIdx.x;
    int loc[16];
    for (int i = 0; i < 16; i++) loc[i] = in[(t + i) % 7] * i;
    sh[t] = 0;
    __syncthreads();
    atomicAdd(&sh[t % 17], 1);
    int c = __syncthreads_count(t & 1);
    int o = __syncthreads_or(t == 3);
    float v = __ldg(&in[t]);
    v += __shfl_xor_sync(0xffffffff, v, 4);
    if (__any_sync(0xffffffff, v > 1.0f)) v *= 2;
    atomicAdd(d, (double)v);
    atomicMax(hist, (int)v);
    atomicCAS(hist + 1, 0, 5);
    atomicExch(out + 1, v);
    atomicInc((unsigned *)hist + 2, 10u);
    h[t] = __hmul2(h[t], __float2half2_rn(v));
    int (*f)(int) = sel ? sq : cube;
    out[t] = __fdividef(v, p.x) + loc[sel & 15] + f(t) + fact(sel) + c + o + p.n + sh[t];
    out[t + 1] = __sinf(v) + __expf(v) + __logf(v) + __saturatef(v) + fminf(v, p.y) + fmaxf(v, p.z);
    d[t] = __dmul_rn(d[t], 3.0) + rsqrt(d[t]) + __ddiv_rd(d[t], 3.0) + fma(d[t], 2.0, 1.0);
    unsigned m = 1;
    hist[t] = t + m + __ffs(t) + __clzll(t) + __popcll(t) + __mul24(t, 3) + __umulhi(t, t) + __sad(t, 3, 1);
    if (t == 0) printf("%s %d %f %p\n", names[sel & 1], t, v, gptrs[0]);
    __threadfence();
    __nanosleep(10);
    if (v < -100) __trap();
}
