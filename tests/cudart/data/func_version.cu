// cudaFuncGetAttributes' ptxVersion and binaryVersion, and the library
// code that depends on them: CUB (under thrust) asks for ptxVersion, takes
// it times 10 as the architecture its kernels were compiled for, and picks
// its tuning policy by it; a wrong answer makes thrust::reduce fail with
// cudaErrorInvalidDeviceFunction.  The reference for ptxVersion is the
// __CUDA_ARCH__ the device code itself was compiled with; for the
// reductions, sums computed on the host.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#define CHECK(call)                                                               \
    do {                                                                          \
        cudaError_t e_ = (call);                                                  \
        if (e_ != cudaSuccess) {                                                  \
            printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;
#define EXPECT(cond, what)                                                        \
    do {                                                                          \
        if (cond) printf("ok   %s\n", what);                                      \
        else { printf("FAIL %s (line %d)\n", what, __LINE__); failures++; }       \
    } while (0)

__global__ void compiledArch(int *out)
{
#ifdef __CUDA_ARCH__
    *out = __CUDA_ARCH__;
#endif
}

int main()
{
    int *d_arch, arch = 0;
    CHECK(cudaMalloc(&d_arch, sizeof(int)));
    compiledArch<<<1, 1>>>(d_arch);
    CHECK(cudaMemcpy(&arch, d_arch, sizeof(int), cudaMemcpyDeviceToHost));
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, compiledArch));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(arch > 0 && fa.ptxVersion * 10 == arch, "ptxVersion * 10 is the kernel's __CUDA_ARCH__");
    EXPECT(fa.binaryVersion == prop.major * 10 + prop.minor, "binaryVersion is the device's architecture");

    const int n = 20000;
    std::vector<int> h(n);
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 7919) % 1000 - 500;
        want += h[i];
    }
    thrust::device_vector<int> d(h.begin(), h.end());
    long long got = thrust::reduce(d.begin(), d.end(), 0LL);
    EXPECT(got == want, "thrust::reduce agrees with the host's sum");
    thrust::sort(d.begin(), d.end());
    std::vector<int> s(n);
    thrust::copy(d.begin(), d.end(), s.begin());
    bool sorted = true;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        sum += s[i];
        if (i && s[i - 1] > s[i]) sorted = false;
    }
    EXPECT(sorted && sum == want, "thrust::sort orders the values and keeps them");
    CHECK(cudaFree(d_arch));
    printf(failures ? "FAIL\n" : "PASS\n");
    return failures ? 1 : 0;
}
