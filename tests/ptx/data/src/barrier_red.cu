// __syncthreads_count / _and / _or: bar.red across the block.
__global__ void barrierReduce(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int count = __syncthreads_count(v > 0);
    int all = __syncthreads_and(v > 0);
    int any = __syncthreads_or(v > 0);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = count;
        out[3 * blockIdx.x + 1] = all;
        out[3 * blockIdx.x + 2] = any;
    }
}
