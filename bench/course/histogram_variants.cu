// Text histogram (PMPP ch. 9): letters a-z into 7 bins of 4 letters.
// usage: ./histogram_variants [numChars]
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorString(err_));                        \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define NUM_BINS 7
#define BLOCK 256
#define CFACTOR 32

// Fig. 9.6: one thread per char, global atomics
__global__ void histo_naive(const char *data, unsigned length, unsigned *histo) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26) atomicAdd(&histo[pos / 4], 1u);
    }
}

// Fig. 9.10: privatization in shared memory
__global__ void histo_private_shared(const char *data, unsigned length, unsigned *histo) {
    __shared__ unsigned histo_s[NUM_BINS];
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) histo_s[bin] = 0u;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26) atomicAdd(&histo_s[pos / 4], 1u);
    }
    __syncthreads();
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        unsigned v = histo_s[bin];
        if (v > 0) atomicAdd(&histo[bin], v);
    }
}

// Fig. 9.12: coarsening, contiguous partitioning
__global__ void histo_coarse_contig(const char *data, unsigned length, unsigned *histo) {
    __shared__ unsigned histo_s[NUM_BINS];
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) histo_s[bin] = 0u;
    __syncthreads();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned i = tid * CFACTOR; i < min((tid + 1) * CFACTOR, length); ++i) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26) atomicAdd(&histo_s[pos / 4], 1u);
    }
    __syncthreads();
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        unsigned v = histo_s[bin];
        if (v > 0) atomicAdd(&histo[bin], v);
    }
}

// Fig. 9.14: coarsening, interleaved partitioning
__global__ void histo_coarse_interleaved(const char *data, unsigned length, unsigned *histo) {
    __shared__ unsigned histo_s[NUM_BINS];
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) histo_s[bin] = 0u;
    __syncthreads();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned i = tid; i < length; i += blockDim.x * gridDim.x) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26) atomicAdd(&histo_s[pos / 4], 1u);
    }
    __syncthreads();
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        unsigned v = histo_s[bin];
        if (v > 0) atomicAdd(&histo[bin], v);
    }
}

// Fig. 9.15: aggregation of runs of identical bins
__global__ void histo_aggregated(const char *data, unsigned length, unsigned *histo) {
    __shared__ unsigned histo_s[NUM_BINS];
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) histo_s[bin] = 0u;
    __syncthreads();
    unsigned accumulator = 0;
    int prevBinIdx = -1;
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned i = tid; i < length; i += blockDim.x * gridDim.x) {
        int pos = data[i] - 'a';
        if (pos >= 0 && pos < 26) {
            int bin = pos / 4;
            if (bin == prevBinIdx) {
                ++accumulator;
            } else {
                if (accumulator > 0) atomicAdd(&histo_s[prevBinIdx], accumulator);
                accumulator = 1;
                prevBinIdx = bin;
            }
        }
    }
    if (accumulator > 0) atomicAdd(&histo_s[prevBinIdx], accumulator);
    __syncthreads();
    for (unsigned bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        unsigned v = histo_s[bin];
        if (v > 0) atomicAdd(&histo[bin], v);
    }
}

static unsigned long long rng_state = 777ULL;
static unsigned rnd() {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 32);
}

int main(int argc, char **argv) {
    unsigned length = argc > 1 ? (unsigned)atoi(argv[1]) : 10000000u;
    printf("histogram of %u chars into %d bins\n", length, NUM_BINS);

    // text: words of random lowercase letters separated by spaces/punctuation,
    // with some long runs of one letter so aggregation has something to do
    std::vector<char> text(length);
    for (unsigned i = 0; i < length;) {
        unsigned r = rnd() % 100;
        if (r < 15) text[i++] = ' ';
        else if (r < 17) text[i++] = '.';
        else if (r < 20) {  // a run
            char c = 'a' + rnd() % 26;
            unsigned len = 2 + rnd() % 30;
            for (unsigned k = 0; k < len && i < length; ++k) text[i++] = c;
        } else
            text[i++] = 'a' + rnd() % 26;
    }
    unsigned ref[NUM_BINS] = {0};
    for (unsigned i = 0; i < length; ++i) {
        int pos = text[i] - 'a';
        if (pos >= 0 && pos < 26) ref[pos / 4]++;
    }

    char *d_text;
    unsigned *d_histo;
    CHECK(cudaMalloc(&d_text, length));
    CHECK(cudaMalloc(&d_histo, NUM_BINS * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_text, text.data(), length, cudaMemcpyHostToDevice));

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    unsigned oneElemGrid = (length + BLOCK - 1) / BLOCK;
    unsigned contigGrid = (length + BLOCK * CFACTOR - 1) / (BLOCK * CFACTOR);
    unsigned interGrid = prop.multiProcessorCount * 4;  // enough blocks to fill the GPU

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const char *names[5] = {"naive global atomics", "privatized shared", "coarsened contiguous",
                            "coarsened interleaved", "aggregated"};
    bool ok = true;
    for (int v = 0; v < 5; ++v) {
        auto launch = [&]() {
            CHECK(cudaMemset(d_histo, 0, NUM_BINS * sizeof(unsigned)));
            switch (v) {
            case 0: histo_naive<<<oneElemGrid, BLOCK>>>(d_text, length, d_histo); break;
            case 1: histo_private_shared<<<oneElemGrid, BLOCK>>>(d_text, length, d_histo); break;
            case 2: histo_coarse_contig<<<contigGrid, BLOCK>>>(d_text, length, d_histo); break;
            case 3: histo_coarse_interleaved<<<interGrid, BLOCK>>>(d_text, length, d_histo); break;
            case 4: histo_aggregated<<<interGrid, BLOCK>>>(d_text, length, d_histo); break;
            }
            CHECK(cudaGetLastError());
        };
        launch();  // warm-up
        CHECK(cudaDeviceSynchronize());
        float total = 0;
        for (int it = 0; it < 10; ++it) {
            CHECK(cudaEventRecord(start));
            launch();
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            total += ms;
        }
        unsigned got[NUM_BINS];
        CHECK(cudaMemcpy(got, d_histo, sizeof(got), cudaMemcpyDeviceToHost));
        bool good = true;
        for (int b = 0; b < NUM_BINS; ++b) good &= got[b] == ref[b];
        printf("%-22s avg %.4f ms  %s", names[v], total / 10, good ? "PASS" : "FAIL");
        if (!good) {
            printf("  got");
            for (int b = 0; b < NUM_BINS; ++b) printf(" %u", got[b]);
            printf("  ref");
            for (int b = 0; b < NUM_BINS; ++b) printf(" %u", ref[b]);
        }
        printf("\n");
        ok &= good;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    cudaFree(d_text);
    cudaFree(d_histo);
    return ok ? 0 : 1;
}
