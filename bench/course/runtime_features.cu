// Runtime features as course labs use them: unified memory, streams with pinned
// memory, device properties, occupancy API, device printf, __device__ variables,
// an atomicCAS spin lock.
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

static bool allOk = true;
static void report(const char *what, bool ok) {
    printf("[%s] %s\n", ok ? "PASS" : "FAIL", what);
    allOk &= ok;
}

// ---- unified memory ----
__global__ void fill_odd(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2 * i + 1;
}

// ---- streams ----
__global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// ---- printf ----
__global__ void hello() {
    if (threadIdx.x % 16 == 0)
        printf("hello from block %d thread %d\n", blockIdx.x, threadIdx.x);
}

// ---- __device__ variable ----
__device__ int d_counter;
__device__ float d_scale = 2.5f;
__global__ void count_and_scale(float *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] *= d_scale;
        atomicAdd(&d_counter, 1);
    }
}

// ---- spin lock: one thread per block takes the lock and updates a counter ----
__device__ void lock(int *mutex) {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    __threadfence();
}
__device__ void unlock(int *mutex) {
    __threadfence();
    atomicExch(mutex, 0);
}
__global__ void locked_increment(int *mutex, int *counter, int *blockOrder) {
    if (threadIdx.x == 0) {
        lock(mutex);
        volatile int *c = counter;
        int old = *c;      // read-modify-write that is only correct under the lock
        blockOrder[old] = blockIdx.x;
        *c = old + 1;
        unlock(mutex);
    }
}

int main() {
    // ---------- device properties ----------
    int dev = 0, count = 0;
    CHECK(cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("devices: %d\n", count);
    printf("name: %s\n", prop.name);
    printf("compute capability: %d.%d\n", prop.major, prop.minor);
    printf("SMs: %d\n", prop.multiProcessorCount);
    printf("shared memory per block: %zu bytes (opt-in %zu)\n", prop.sharedMemPerBlock,
           prop.sharedMemPerBlockOptin);
    printf("shared memory per SM: %zu bytes\n", prop.sharedMemPerMultiprocessor);
    printf("warp size: %d\n", prop.warpSize);
    printf("max threads per block: %d, per SM: %d\n", prop.maxThreadsPerBlock,
           prop.maxThreadsPerMultiProcessor);
    printf("registers per block: %d\n", prop.regsPerBlock);
    printf("global memory: %.1f GiB, L2: %d KiB\n", prop.totalGlobalMem / 1073741824.0,
           prop.l2CacheSize / 1024);
    int clockKHz = 0, memClockKHz = 0, busWidth = 0;
    CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&memClockKHz, cudaDevAttrMemoryClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&busWidth, cudaDevAttrGlobalMemoryBusWidth, dev));
    printf("clock %d kHz, memory clock %d kHz, bus width %d bits\n", clockKHz, memClockKHz, busWidth);
    report("device properties look sane", prop.warpSize == 32 && prop.multiProcessorCount > 0 &&
                                              prop.sharedMemPerBlock >= 48 * 1024);

    // ---------- occupancy ----------
    int blocksPerSM = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSM, saxpy, 256, 0));
    printf("occupancy: saxpy with 256 threads: %d blocks/SM = %.0f%% occupancy\n", blocksPerSM,
           100.0 * blocksPerSM * 256 / prop.maxThreadsPerMultiProcessor);
    int blocksPerSM2 = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSM2, locked_increment, 1024, 40000));
    printf("occupancy: locked_increment with 1024 threads and 40000 B dyn smem: %d blocks/SM\n",
           blocksPerSM2);
    report("occupancy API", blocksPerSM >= 1 && blocksPerSM <= 32 && blocksPerSM2 >= 1);

    // ---------- unified memory ----------
    {
        const int n = 1 << 20;
        int *a;
        CHECK(cudaMallocManaged(&a, n * sizeof(int)));
        for (int i = 0; i < n; ++i) a[i] = -1;
        fill_odd<<<(n + 255) / 256, 256>>>(a, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        bool ok = true;
        for (int i = 0; i < n; ++i) ok &= a[i] == 2 * i + 1;
        // host writes, device reads+writes again
        for (int i = 0; i < n; ++i) a[i] = 100;
        fill_odd<<<1, 32>>>(a, 16);
        CHECK(cudaDeviceSynchronize());
        ok &= a[3] == 7 && a[15] == 31 && a[16] == 100 && a[n - 1] == 100;
        report("cudaMallocManaged: kernel writes, host reads after sync", ok);
        CHECK(cudaFree(a));
    }

    // ---------- streams + pinned memory ----------
    {
        const int n = 1 << 22, nStreams = 2, chunks = 8, chunk = n / chunks;
        float *hx, *hy;
        CHECK(cudaMallocHost(&hx, n * sizeof(float)));
        CHECK(cudaMallocHost(&hy, n * sizeof(float)));
        for (int i = 0; i < n; ++i) {
            hx[i] = (float)(i % 1000) * 0.001f;
            hy[i] = 1.0f;
        }
        float *dx, *dy;
        CHECK(cudaMalloc(&dx, n * sizeof(float)));
        CHECK(cudaMalloc(&dy, n * sizeof(float)));
        cudaStream_t s[nStreams];
        for (int k = 0; k < nStreams; ++k) CHECK(cudaStreamCreate(&s[k]));
        cudaEvent_t start, stop;
        CHECK(cudaEventCreate(&start));
        CHECK(cudaEventCreate(&stop));

        auto pipeline = [&]() {
            for (int c = 0; c < chunks; ++c) {
                cudaStream_t st = s[c % nStreams];
                size_t off = (size_t)c * chunk;
                CHECK(cudaMemcpyAsync(dx + off, hx + off, chunk * sizeof(float), cudaMemcpyHostToDevice, st));
                CHECK(cudaMemcpyAsync(dy + off, hy + off, chunk * sizeof(float), cudaMemcpyHostToDevice, st));
                saxpy<<<(chunk + 255) / 256, 256, 0, st>>>(2.0f, dx + off, dy + off, chunk);
                CHECK(cudaGetLastError());
                CHECK(cudaMemcpyAsync(hy + off, dy + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, st));
            }
        };
        pipeline();  // warm-up (hy now holds 2x+1)
        CHECK(cudaDeviceSynchronize());
        bool ok = true;
        for (int i = 0; i < n; ++i) ok &= fabsf(hy[i] - (2.0f * hx[i] + 1.0f)) < 1e-5f;
        float total = 0;
        for (int it = 0; it < 10; ++it) {
            for (int i = 0; i < n; ++i) hy[i] = 1.0f;
            CHECK(cudaEventRecord(start));
            pipeline();
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            total += ms;
        }
        for (int i = 0; i < n; ++i) ok &= fabsf(hy[i] - (2.0f * hx[i] + 1.0f)) < 1e-5f;
        printf("streams: %d chunks over %d streams, avg %.4f ms per pipeline\n", chunks, nStreams, total / 10);
        CHECK(cudaStreamQuery(s[0]));
        report("2 streams, cudaMemcpyAsync on pinned memory, saxpy", ok);
        for (int k = 0; k < nStreams; ++k) CHECK(cudaStreamDestroy(s[k]));
        CHECK(cudaEventDestroy(start));
        CHECK(cudaEventDestroy(stop));
        CHECK(cudaFree(dx));
        CHECK(cudaFree(dy));
        CHECK(cudaFreeHost(hx));
        CHECK(cudaFreeHost(hy));
    }

    // ---------- device printf ----------
    fflush(stdout);
    hello<<<2, 32>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    report("device printf (4 lines expected above)", true);

    // ---------- __device__ variables ----------
    {
        const int n = 10000;
        std::vector<float> h(n, 1.0f);
        float *d;
        CHECK(cudaMalloc(&d, n * sizeof(float)));
        CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        int zero = 0;
        CHECK(cudaMemcpyToSymbol(d_counter, &zero, sizeof(int)));
        float scale = 3.0f;
        CHECK(cudaMemcpyToSymbol(d_scale, &scale, sizeof(float)));
        count_and_scale<<<(n + 127) / 128, 128>>>(d, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        int counter = -1;
        float scaleBack = 0;
        CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof(int)));
        CHECK(cudaMemcpyFromSymbol(&scaleBack, d_scale, sizeof(float)));
        CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
        printf("__device__ counter = %d (expected %d), scale = %.1f, v[0] = %.1f\n", counter, n,
               scaleBack, h[0]);
        report("__device__ variable with cudaMemcpyTo/FromSymbol",
               counter == n && scaleBack == 3.0f && h[0] == 3.0f && h[n - 1] == 3.0f);
        CHECK(cudaFree(d));
    }

    // ---------- atomicCAS spin lock ----------
    {
        const int blocks = 1024;
        int *mutex, *counter, *order;
        CHECK(cudaMalloc(&mutex, sizeof(int)));
        CHECK(cudaMalloc(&counter, sizeof(int)));
        CHECK(cudaMalloc(&order, blocks * sizeof(int)));
        CHECK(cudaMemset(mutex, 0, sizeof(int)));
        CHECK(cudaMemset(counter, 0, sizeof(int)));
        CHECK(cudaMemset(order, 0xff, blocks * sizeof(int)));
        cudaEvent_t start, stop;
        CHECK(cudaEventCreate(&start));
        CHECK(cudaEventCreate(&stop));
        CHECK(cudaEventRecord(start));
        locked_increment<<<blocks, 128>>>(mutex, counter, order);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        int hCounter = 0, hMutex = -1;
        std::vector<int> hOrder(blocks);
        CHECK(cudaMemcpy(&hCounter, counter, sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&hMutex, mutex, sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(hOrder.data(), order, blocks * sizeof(int), cudaMemcpyDeviceToHost));
        std::vector<int> seen(blocks, 0);
        bool perm = true;
        for (int b = 0; b < blocks; ++b) {
            if (hOrder[b] < 0 || hOrder[b] >= blocks || seen[hOrder[b]]++) perm = false;
        }
        printf("spin lock: counter = %d (expected %d), mutex = %d, %.4f ms; first blocks in: %d %d %d %d\n",
               hCounter, blocks, hMutex, ms, hOrder[0], hOrder[1], hOrder[2], hOrder[3]);
        report("atomicCAS spin lock, one thread per block", hCounter == blocks && hMutex == 0 && perm);
        CHECK(cudaFree(mutex));
        CHECK(cudaFree(counter));
        CHECK(cudaFree(order));
    }

    printf("%s\n", allOk ? "PASS" : "FAIL");
    return allOk ? 0 : 1;
}
