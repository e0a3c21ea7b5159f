// A program written the way course students write them, exercising the
// runtime API that warpsim's libcudart provides: error-check macros, a
// device query, occupancy, device printf, __constant__ memory, dynamic
// shared memory, events, streams, pitched and managed memory, an
// unsupported call the program survives, a bad launch configuration and a
// kernel fault that the next synchronizing call reports.  Every check is
// against a value computed on the host or a fact of the CUDA API; the
// expected stdout is api_student.expected.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                               \
    do {                                                                          \
        cudaError_t e_ = (call);                                                  \
        if (e_ != cudaSuccess) {                                                  \
            printf("CUDA error %s at line %d: %s\n", cudaGetErrorName(e_), __LINE__, \
                   cudaGetErrorString(e_));                                       \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;
#define EXPECT(cond, what)                                                        \
    do {                                                                          \
        if (cond) printf("ok   %s\n", what);                                      \
        else { printf("FAIL %s (line %d)\n", what, __LINE__); failures++; }       \
    } while (0)

__constant__ float coeff[4];
__device__ int counter;

__global__ void scaleByConstant(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * coeff[i % 4];
}

__global__ void reverseDynamic(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x;
    if (t < n) buf[t] = in[t];
    __syncthreads();
    if (t < n) out[t] = buf[n - 1 - t];
}

__global__ void staticShared(float *out)
{
    __shared__ float tile[1024];
    tile[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void hello(int value)
{
    if (blockIdx.x == 1 && threadIdx.x == 2)
        printf("hello from block %d thread %d: value %d\n", blockIdx.x, threadIdx.x, value);
}

__global__ void countUp(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += i;
        atomicAdd(&counter, 1);
    }
}

__global__ void rowSum(const float *m, size_t pitch, int width, int height, float *sums)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= height) return;
    const float *row = (const float *)((const char *)m + r * pitch);
    float s = 0;
    for (int c = 0; c < width; c++) s += row[c];
    sums[r] = s;
}

__global__ void writeFar(int *p)
{
    p[threadIdx.x + (1 << 28)] = 1;
}

int main()
{
    // device query
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    printf("devices: %d\n", count);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("name: %s\n", prop.name);
    printf("compute capability: %d.%d\n", prop.major, prop.minor);
    printf("SMs: %d, warp size %d, max threads/block %d, max threads/SM %d\n",
           prop.multiProcessorCount, prop.warpSize, prop.maxThreadsPerBlock,
           prop.maxThreadsPerMultiProcessor);
    printf("shared/block %zu, opt-in %zu, reserved %zu, shared/SM %zu\n", prop.sharedMemPerBlock,
           prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock, prop.sharedMemPerMultiprocessor);
    printf("regs/SM %d, regs/block %d, max blocks/SM %d\n", prop.regsPerMultiprocessor,
           prop.regsPerBlock, prop.maxBlocksPerMultiProcessor);
    printf("max grid %d x %d x %d, max block %d x %d x %d\n", prop.maxGridSize[0], prop.maxGridSize[1],
           prop.maxGridSize[2], prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
    int clock = 0, smCount = 0;
    CHECK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(clock > 0 && smCount == prop.multiProcessorCount, "cudaDeviceGetAttribute agrees with the properties");
    int rt = 0;
    CHECK(cudaRuntimeGetVersion(&rt));
    printf("runtime version %d\n", rt);

    // __constant__ memory and an ordinary launch
    const int n = 1000;
    float hc[4] = {1.0f, -2.0f, 0.5f, 4.0f};
    CHECK(cudaMemcpyToSymbol(coeff, hc, sizeof hc));
    float back[4];
    CHECK(cudaMemcpyFromSymbol(back, coeff, sizeof back));
    EXPECT(back[1] == -2.0f && back[3] == 4.0f, "cudaMemcpyFromSymbol reads what cudaMemcpyToSymbol wrote");
    float *hin = (float *)malloc(n * sizeof(float)), *hout = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) hin[i] = (float)(i % 17) - 8.0f;
    float *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(din, hin, n * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    scaleByConstant<<<(n + 127) / 128, 128>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0, "cudaEventElapsedTime gives a time");
    CHECK(cudaMemcpy(hout, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hout[i] != hin[i] * hc[i % 4];
    EXPECT(bad == 0, "__constant__ coefficients scale the input");

    // dynamic shared memory, on a stream
    const int m = 200;
    int hi[m], ho[m];
    for (int i = 0; i < m; i++) hi[i] = i * 3 + 1;
    int *di, *dov;
    CHECK(cudaMalloc(&di, sizeof hi));
    CHECK(cudaMalloc(&dov, sizeof ho));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpyAsync(di, hi, sizeof hi, cudaMemcpyHostToDevice, s));
    reverseDynamic<<<1, 256, m * sizeof(int), s>>>(di, dov, m);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(ho, dov, sizeof ho, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    bad = 0;
    for (int i = 0; i < m; i++) bad += ho[i] != hi[m - 1 - i];
    EXPECT(bad == 0, "extern __shared__ array reverses the input");

    // more dynamic shared memory than the default limit needs the opt-in
    reverseDynamic<<<1, 32, 64 * 1024>>>(di, dov, 32);
    cudaError_t e = cudaGetLastError();
    printf("64 KB dynamic shared memory without opt-in: %s\n", cudaGetErrorName(e));
    CHECK(cudaFuncSetAttribute(reverseDynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    reverseDynamic<<<1, 32, 64 * 1024>>>(di, dov, 32);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(ho, dov, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(ho[0] == hi[31] && ho[31] == hi[0], "64 KB of dynamic shared memory after the opt-in");

    // function attributes and occupancy
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, staticShared));
    printf("staticShared: %zu bytes of static shared memory\n", fa.sharedSizeBytes);
    EXPECT(fa.numRegs > 0 && fa.numRegs <= 255, "cudaFuncGetAttributes gives a register count");
    // built with -arch=sm_80: compute_80 PTX (CUB picks its tuning policy by this)
    EXPECT(fa.ptxVersion == 80, "cudaFuncGetAttributes gives the PTX's virtual architecture");
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, hello, 1024, 0));
    printf("hello, 1024 threads: %d blocks/SM\n", blocks);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, hello, 128, 40000));
    printf("hello, 128 threads, 40000 B dynamic shared: %d blocks/SM\n", blocks);
    int minGrid = 0, blockSize = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, hello, 0, 0));
    EXPECT(blockSize > 0 && blockSize <= 1024 && minGrid >= prop.multiProcessorCount,
           "cudaOccupancyMaxPotentialBlockSize suggests a block size");
    float *dsh;
    CHECK(cudaMalloc(&dsh, 1024 * sizeof(float)));
    staticShared<<<1, 1024>>>(dsh);
    CHECK(cudaGetLastError());
    float hsh[1024];
    CHECK(cudaMemcpy(hsh, dsh, sizeof hsh, cudaMemcpyDeviceToHost));
    EXPECT(hsh[0] == 1023.0f && hsh[1023] == 0.0f, "static shared tile");

    // device printf, in order with the host's output
    printf("before the kernel\n");
    hello<<<2, 32>>>(42);
    CHECK(cudaDeviceSynchronize());
    printf("after the kernel\n");

    // managed memory and a __device__ variable
    int *managed;
    CHECK(cudaMallocManaged(&managed, 100 * sizeof(int)));
    for (int i = 0; i < 100; i++) managed[i] = 1000;
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    countUp<<<4, 32>>>(managed, 100);
    CHECK(cudaDeviceSynchronize());
    int hcounter = 0;
    CHECK(cudaMemcpyFromSymbol(&hcounter, counter, sizeof hcounter));
    bad = 0;
    for (int i = 0; i < 100; i++) bad += managed[i] != 1000 + i;
    EXPECT(bad == 0 && hcounter == 100, "managed memory and a __device__ counter");
    int *counterAddr = NULL;
    CHECK(cudaGetSymbolAddress((void **)&counterAddr, counter));
    CHECK(cudaMemcpy(&hcounter, counterAddr, sizeof hcounter, cudaMemcpyDeviceToHost));
    EXPECT(hcounter == 100, "cudaGetSymbolAddress");
    CHECK(cudaFree(managed));

    // pitched memory and 2D copies
    const int w = 13, h = 7;
    float hm[h][w], sums[h], hsums[h];
    for (int r = 0; r < h; r++) {
        sums[r] = 0;
        for (int c = 0; c < w; c++) {
            hm[r][c] = (float)(r * w + c);
            sums[r] += hm[r][c];
        }
    }
    float *dm, *dsums;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&dm, &pitch, w * sizeof(float), h));
    EXPECT(pitch >= w * sizeof(float) && pitch % 256 == 0, "cudaMallocPitch pads rows");
    CHECK(cudaMemcpy2D(dm, pitch, hm, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dsums, sizeof sums));
    rowSum<<<1, 32>>>(dm, pitch, w, h, dsums);
    CHECK(cudaMemcpy(hsums, dsums, sizeof hsums, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int r = 0; r < h; r++) bad += hsums[r] != sums[r];
    EXPECT(bad == 0, "row sums of a pitched matrix");

    // pinned host memory
    float *pinned;
    CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
    CHECK(cudaMemcpy(pinned, dout, n * sizeof(float), cudaMemcpyDefault));
    EXPECT(pinned[5] == hout[5], "cudaMemcpyDefault into pinned memory");
    CHECK(cudaFreeHost(pinned));

    // errors: an unsupported call, a bad configuration; the program goes on
    cudaGraph_t graph;
    e = cudaGraphCreate(&graph, 0);
    printf("cudaGraphCreate: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
    printf("then cudaGetLastError: %s, and again: %s\n", cudaGetErrorName(first), cudaGetErrorName(second));
    hello<<<1, 2048>>>(0);
    e = cudaGetLastError();
    printf("2048 threads per block: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    e = cudaMemcpy(hout, din, 8, (cudaMemcpyKind)17);
    printf("bad copy direction: %s\n", cudaGetErrorName(e));
    e = cudaFree((void *)0x1234);
    printf("freeing a pointer cudaMalloc did not give: %s\n", cudaGetErrorName(e));
    CHECK(cudaMemcpy(hout, dout, sizeof(float), cudaMemcpyDeviceToHost));
    printf("still working after those errors\n");

    // a kernel fault is sticky
    writeFar<<<1, 32>>>(di);
    e = cudaDeviceSynchronize();
    printf("after an out-of-bounds write: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    int *later;
    e = cudaMalloc(&later, 4);
    printf("cudaMalloc after the fault: %s\n", cudaGetErrorName(e));
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
