// 1D convolution with the mask in constant memory; a __device__ table with an initializer.
#define MASK 5
__constant__ float mask[MASK];
__device__ int lut[4] = {1, -2, 3, 0x7fffffff};
__device__ double dscale = 0.5;
__global__ void conv1d(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int j = 0; j < MASK; ++j) {
        int k = i + j - MASK / 2;
        if (k >= 0 && k < n) s += in[k] * mask[j];
    }
    out[i] = (float)(s * dscale) + (float)lut[i & 3];
}
