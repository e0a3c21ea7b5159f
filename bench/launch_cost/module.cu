// Launch cost independent of the module (bench/launch_cost.sh): an empty
// kernel, alone (-DALONE) or beside a kernel of about 1,100 PTX
// instructions and some 1,060 virtual registers, and one with 8 KB of
// local memory per thread.
#ifndef ALONE
extern "C" __global__ void bigKernel(float *out, const float *in, int n)
{
    float acc[32];
#pragma unroll
    for (int i = 0; i < 32; i++) acc[i] = in[threadIdx.x + i * n];
#pragma unroll
    for (int r = 0; r < 28; r++)
#pragma unroll
        for (int i = 0; i < 32; i++) acc[i] = acc[i] * acc[(i + r + 1) % 32] + acc[(i * 7 + r) % 32];
#pragma unroll
    for (int i = 0; i < 32; i++) out[threadIdx.x + i * n] = acc[i];
}

extern "C" __global__ void localKernel(float *out, const int *idx)
{
    float buf[2048];        // indexed by data: in local memory
    for (int i = 0; i < 2048; i++) buf[i] = i * 0.5f;
    out[threadIdx.x] = buf[idx[threadIdx.x] & 2047];
}
#endif

extern "C" __global__ void emptyKernel() {}
