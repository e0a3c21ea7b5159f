// Sum reduction variants (PMPP ch. 10).
// usage: ./reduction_variants [n]
#include <cstdio>
#include <cstdlib>
#include <cmath>
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

#define BLOCK_DIM 1024
#define COARSE_FACTOR 8

// Fig. 10.6 simple (divergent) reduction, in place in global memory. The book's
// version is a single block; here each block reduces its 2*BLOCK_DIM segment and
// writes a partial sum, which the host adds up.
__global__ void simple_reduce(float *input, float *partial) {
    unsigned segment = 2 * blockDim.x * blockIdx.x;
    unsigned i = segment + 2 * threadIdx.x;
    for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
        if (threadIdx.x % stride == 0) input[i] += input[i + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = input[segment];
}

// Fig. 10.9 convergent reduction, in place in global memory
__global__ void convergent_reduce(float *input, float *partial) {
    unsigned segment = 2 * blockDim.x * blockIdx.x;
    unsigned i = segment + threadIdx.x;
    for (unsigned stride = blockDim.x; stride >= 1; stride /= 2) {
        if (threadIdx.x < stride) input[i] += input[i + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = input[segment];
}

// Fig. 10.11 shared memory reduction
__global__ void shared_reduce(const float *input, float *partial) {
    __shared__ float input_s[BLOCK_DIM];
    unsigned segment = 2 * blockDim.x * blockIdx.x;
    unsigned t = threadIdx.x;
    input_s[t] = input[segment + t] + input[segment + t + BLOCK_DIM];
    for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) input_s[t] += input_s[t + stride];
    }
    if (t == 0) partial[blockIdx.x] = input_s[0];
}

// Fig. 10.13 hierarchical (segmented) reduction with atomicAdd of block results
__global__ void segmented_reduce(const float *input, float *output) {
    __shared__ float input_s[BLOCK_DIM];
    unsigned segment = 2 * blockDim.x * blockIdx.x;
    unsigned i = segment + threadIdx.x;
    unsigned t = threadIdx.x;
    input_s[t] = input[i] + input[i + BLOCK_DIM];
    for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) input_s[t] += input_s[t + stride];
    }
    if (t == 0) atomicAdd(output, input_s[0]);
}

// Fig. 10.15 thread coarsening
__global__ void coarsened_reduce(const float *input, float *output, unsigned n) {
    __shared__ float input_s[BLOCK_DIM];
    unsigned segment = COARSE_FACTOR * 2 * blockDim.x * blockIdx.x;
    unsigned i = segment + threadIdx.x;
    unsigned t = threadIdx.x;
    float sum = 0.f;
    for (unsigned tile = 0; tile < COARSE_FACTOR * 2; ++tile)
        if (i + tile * BLOCK_DIM < n) sum += input[i + tile * BLOCK_DIM];
    input_s[t] = sum;
    for (unsigned stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) input_s[t] += input_s[t + stride];
    }
    if (t == 0) atomicAdd(output, input_s[0]);
}

// warp shuffle: grid-stride coarsening, warp reduce with __shfl_down_sync,
// warp results in shared memory, first warp reduces them, one atomicAdd per block
__global__ void shuffle_reduce(const float *input, float *output, unsigned n) {
    __shared__ float warpSums[32];
    float sum = 0.f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += input[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warpSums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warpSums[lane] : 0.f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(output, sum);
    }
}

static unsigned long long rng_state = 31337ULL;
static unsigned rnd() {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 32);
}

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 16777216u;
    if (n % (2 * BLOCK_DIM) != 0) {
        fprintf(stderr, "n must be a multiple of %d\n", 2 * BLOCK_DIM);
        return 1;
    }
    printf("sum reduction of %u floats\n", n);
    std::vector<float> h(n);
    for (auto &v : h) v = (rnd() >> 8) * (1.0f / 16777216.0f);  // [0,1)
    double ref = 0;
    for (float v : h) ref += v;
    printf("CPU double sum = %.6f\n", ref);
    const double relTol = 1e-5;

    float *d_pristine, *d_in, *d_out, *d_partial;
    unsigned numSeg = n / (2 * BLOCK_DIM);
    CHECK(cudaMalloc(&d_pristine, n * sizeof(float)));
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cudaMalloc(&d_partial, numSeg * sizeof(float)));
    CHECK(cudaMemcpy(d_pristine, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_in, d_pristine, n * sizeof(float), cudaMemcpyDeviceToDevice));
    std::vector<float> partial(numSeg);

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    unsigned coarseGrid = (n + COARSE_FACTOR * 2 * BLOCK_DIM - 1) / (COARSE_FACTOR * 2 * BLOCK_DIM);
    unsigned shuffleGrid = prop.multiProcessorCount * 2;
    const int SHUFFLE_BLOCK = 512;

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const char *names[6] = {"simple (divergent)", "convergent", "shared memory",
                            "hierarchical+atomic", "coarsened", "warp shuffle"};
    bool ok = true;
    for (int v = 0; v < 6; ++v) {
        float result = 0;
        auto launch = [&]() {
            switch (v) {
            case 0: simple_reduce<<<numSeg, BLOCK_DIM>>>(d_in, d_partial); break;
            case 1: convergent_reduce<<<numSeg, BLOCK_DIM>>>(d_in, d_partial); break;
            // the out-of-place kernels read the untouched copy
            case 2: shared_reduce<<<numSeg, BLOCK_DIM>>>(d_pristine, d_partial); break;
            case 3: segmented_reduce<<<numSeg, BLOCK_DIM>>>(d_pristine, d_out); break;
            case 4: coarsened_reduce<<<coarseGrid, BLOCK_DIM>>>(d_pristine, d_out, n); break;
            case 5: shuffle_reduce<<<shuffleGrid, SHUFFLE_BLOCK>>>(d_pristine, d_out, n); break;
            }
            CHECK(cudaGetLastError());
        };
        auto prepare = [&]() {  // in-place kernels destroy their input; restore it untimed
            if (v < 2) CHECK(cudaMemcpy(d_in, d_pristine, n * sizeof(float), cudaMemcpyDeviceToDevice));
            CHECK(cudaMemset(d_out, 0, sizeof(float)));
        };
        prepare();
        launch();  // warm-up
        CHECK(cudaDeviceSynchronize());
        float total = 0;
        for (int it = 0; it < 10; ++it) {
            prepare();
            CHECK(cudaEventRecord(start));
            launch();
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            total += ms;
        }
        if (v < 3) {
            CHECK(cudaMemcpy(partial.data(), d_partial, numSeg * sizeof(float), cudaMemcpyDeviceToHost));
            for (float p : partial) result += p;  // second stage on the host, in float
        } else {
            CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
        }
        double rel = fabs(result - ref) / fabs(ref);
        bool good = rel <= relTol;
        printf("%-20s avg %.4f ms  sum %.3f  rel err %.2e  %s\n", names[v], total / 10, result, rel,
               good ? "PASS" : "FAIL");
        ok &= good;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    cudaFree(d_pristine); cudaFree(d_in); cudaFree(d_out); cudaFree(d_partial);
    return ok ? 0 : 1;
}
