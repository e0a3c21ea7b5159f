// A small module for the fat-binary reader's test: two kernels and a
// __constant__ array, so the PTX has something to recognize.
__constant__ float fatbinTestScale[8];

__global__ void fatbinTestSaxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] * fatbinTestScale[i % 8] + y[i];
}

__global__ void fatbinTestFill(int *p, int v)
{
    p[threadIdx.x] = v;
}
