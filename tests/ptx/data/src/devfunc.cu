// A kernel calling a non-inlined device function, in a namespace too.
namespace lab {
__device__ __noinline__ float scale(float v, float s) { return v * s + 1.0f; }
__global__ void scaleAll(float *data, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = scale(data[i], s);
}
}
__device__ __noinline__ int addOne(int v) { return v + 1; }
__global__ void incAll(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = addOne(data[i]);
}
