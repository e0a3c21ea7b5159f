// What warpsim's runtime refuses around textures and arrays, and how: a
// resource view, a layered array, a channel format with three channels,
// linear filtering of a texture that returns integers, and a kernel that
// reads a texture object destroyed before the launch (a kernel fault that
// the next call reports, as on a GPU).  Prints each call's error name;
// warpsim's own messages go to stderr (tests/cudart/texture_refusals.sh).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void readTex(cudaTextureObject_t t, float *out)
{
    out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}

int main()
{
    float *d;
    cudaMalloc(&d, 256 * sizeof(float));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = 256 * sizeof(float);
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    cudaResourceViewDesc view;
    memset(&view, 0, sizeof view);
    cudaTextureObject_t t = 0;
    printf("resource view: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &rd, &td, &view)));

    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    printf("layered array: %s\n",
           cudaGetErrorName(cudaMalloc3DArray(&a, &f1, make_cudaExtent(4, 4, 2), cudaArrayLayered)));
    cudaChannelFormatDesc f3 = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    printf("three channels: %s\n", cudaGetErrorName(cudaMallocArray(&a, &f3, 4, 4)));

    cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
    cudaMallocArray(&a, &i1, 4, 4);
    cudaResourceDesc ra;
    memset(&ra, 0, sizeof ra);
    ra.resType = cudaResourceTypeArray;
    ra.res.array.array = a;
    td.filterMode = cudaFilterModeLinear;
    printf("linear filtering of ints: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &ra, &td, NULL)));
    cudaGetLastError();

    td.filterMode = cudaFilterModePoint;
    printf("create: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &rd, &td, NULL)));
    printf("destroy: %s\n", cudaGetErrorName(cudaDestroyTextureObject(t)));
    readTex<<<1, 32>>>(t, d + 128);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
