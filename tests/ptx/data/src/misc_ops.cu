#include <cuda_fp16.h>
// A mix of operations: half precision, math functions, integer intrinsics, clock.
__global__ void miscOps(const float *x, half *h, unsigned *u, double *d, long long *t, int n)
{
    long long c0 = clock64();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    h[i] = __hadd(__float2half(v), __float2half(1.5f));
    u[i] = __brev(__clz(i) + __popc(i)) ^ __byte_perm(i, 7, 0x3210) ^ __funnelshift_l(i, 3, 5);
    d[i] = sqrt((double)v) + sinf(v) + expf(v) + rsqrtf(v + 2.0f) + tanhf(v) + v / (v + 3.0f);
    unsigned lt;
    asm volatile("{ .reg .u32 tmp; mov.u32 tmp, %%lanemask_lt; mov.u32 %0, tmp; }" : "=r"(lt));
    u[i] += lt + (__activemask() & 1) + __double2int_rn(d[i]) + (unsigned)__float2uint_rz(v);
    t[i] = clock64() - c0;
}
