// Warp-shuffle reduction with one atomicAdd per warp, plus a dynamic-shared variant.
__global__ void reduceShfl(const float *in, float *out, int n)
{
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}
__global__ void reduceDyn(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    unsigned b = __ballot_sync(0xffffffffu, buf[0] > 0);
    if (t == 0) atomicAdd(out, buf[0] + (int)__popc(b));
}
