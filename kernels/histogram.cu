// Lab: text histogram.  Each lower-case letter of the input adds one to the
// bin of its alphabet position divided by binWidth (binWidth 4: a-d, e-h, ...);
// other characters are ignored.  There are (26 + binWidth - 1) / binWidth bins.
//   histogramGlobal      one thread per character, atomicAdd on global memory
//   histogramPrivatized  a private copy of the histogram per block in dynamic
//                        shared memory (numBins * 4 bytes), grid-stride loop over
//                        the input, then the block's counts are added to global
//
// Build and run:  nvcc -arch=sm_80 -cudart shared histogram.cu -o histogram
//                 ./histogram [n [binWidth]]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), \
                    __FILE__, __LINE__, cudaGetErrorString(err_));              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define BLOCK_SIZE 256

__global__ void histogramGlobal(const unsigned char *data, unsigned int *histo, int n, int binWidth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26)
            atomicAdd(&histo[pos / binWidth], 1u);
    }
}

__global__ void histogramPrivatized(const unsigned char *data, unsigned int *histo, int n, int binWidth)
{
    extern __shared__ unsigned int histoShared[];
    int numBins = (26 + binWidth - 1) / binWidth;
    for (int b = threadIdx.x; b < numBins; b += blockDim.x)
        histoShared[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26)
            atomicAdd(&histoShared[pos / binWidth], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < numBins; b += blockDim.x) {
        unsigned int count = histoShared[b];
        if (count > 0)
            atomicAdd(&histo[b], count);
    }
}

static unsigned int lcg(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int binWidth = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 1 || binWidth < 1 || binWidth > 26) {
        fprintf(stderr, "usage: %s [n >= 1 [binWidth 1..26]]\n", argv[0]);
        return 1;
    }
    int numBins = (26 + binWidth - 1) / binWidth;
    unsigned char *text = (unsigned char *)malloc(n);
    unsigned int seed = 8;
    for (int i = 0; i < n; i++) {
        unsigned int r = lcg(&seed) % 40;   // mostly letters, some spaces and digits
        text[i] = r < 26 ? 'a' + r : r < 33 ? ' ' : '0' + (r - 33);
    }
    unsigned int ref[26] = {0}, got[26];
    for (int i = 0; i < n; i++)
        if (text[i] >= 'a' && text[i] <= 'z')
            ref[(text[i] - 'a') / binWidth]++;

    unsigned char *dText;
    unsigned int *dHisto;
    CUDA_CHECK(cudaMalloc(&dText, n));
    CUDA_CHECK(cudaMalloc(&dHisto, numBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dText, text, n, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("histogram, n = %d, %d bins\n", n, numBins);
    const char *names[] = {"histogramGlobal", "histogramPrivatized"};
    bool ok = true;
    for (int v = 0; v < 2; v++) {
        CUDA_CHECK(cudaMemset(dHisto, 0, numBins * sizeof(unsigned int)));
        CUDA_CHECK(cudaEventRecord(start));
        int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
        if (v == 0) {
            histogramGlobal<<<blocks, BLOCK_SIZE>>>(dText, dHisto, n, binWidth);
        } else {
            if (blocks > 64)
                blocks = 64;
            histogramPrivatized<<<blocks, BLOCK_SIZE, numBins * sizeof(unsigned int)>>>(dText, dHisto, n, binWidth);
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(got, dHisto, numBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
        bool good = true;
        for (int b = 0; b < numBins && good; b++)
            if (got[b] != ref[b]) {
                printf("%-20s FAIL at bin %d: got %u, expected %u\n", names[v], b, got[b], ref[b]);
                good = false;
            }
        if (good)
            printf("%-20s %8.3f ms  PASS\n", names[v], ms);
        ok = ok && good;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dText));
    CUDA_CHECK(cudaFree(dHisto));
    free(text);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
