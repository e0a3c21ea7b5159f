// Template kernels for the `warpsim check` / `warpsim run --kernel` tests;
// templates.ptx is `nvcc -arch=sm_80 -ptx templates.cu -o templates.ptx`
// (CUDA 13.0).
// reduceStage<B, V>: x[i] = x[i] * B + V + n for i < n (two instantiations).
// scaleBy<T>: y[i] = a * y[i] (one instantiation: its short name is unique).
template <int B, int V> __global__ void reduceStage(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * B + V + n;
}
template __global__ void reduceStage<256, 0>(float *, int);
template __global__ void reduceStage<128, 1>(float *, int);

namespace lab {
template <typename T> __global__ void scaleBy(T a, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * y[i];
}
template __global__ void scaleBy<float>(float, float *, int);
}
