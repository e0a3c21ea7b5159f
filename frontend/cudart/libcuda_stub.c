/* warpsim's libcuda.so.1: what `warpsim exec` puts in place of the CUDA
 * driver.  warpsim simulates the CUDA runtime (its own libcudart.so.13),
 * not the driver API.  cuBLAS, cuFFT, cuRAND's host API and the other CUDA
 * libraries carry a static copy of NVIDIA's runtime, which reaches the GPU
 * by opening libcuda.so.1 and asking cuGetProcAddress for the driver's
 * entry points; programs written against the driver API call them by name.
 * Either way they land here: the first call prints one line saying so, and
 * every call returns CUDA_ERROR_NO_DEVICE, so that the program gets an
 * error status (cublasCreate returns CUBLAS_STATUS_NOT_INITIALIZED) rather
 * than crashing or hanging. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CU_EXPORT __attribute__((visibility("default")))

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1
};

/* Whether the line was printed.  A process-wide flag, like the runtime's
 * one context: the driver API has no handle to hang it on. */
static atomic_flag said = ATOMIC_FLAG_INIT;

static int no_device(const char *call)
{
    if (atomic_flag_test_and_set(&said)) return CUDA_ERROR_NO_DEVICE;
    char exe[512], *name = "the program";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        name = slash ? slash + 1 : exe;
    }
    fflush(stdout);
    fprintf(stderr, "warpsim: %s called the CUDA driver API (%s) \xe2\x80\x94 cuBLAS, cuFFT and other CUDA "
                    "libraries are not simulated\n", name, call);
    return CUDA_ERROR_NO_DEVICE;
}

#define X(name)                                                 \
    CU_EXPORT int name(void);                                   \
    CU_EXPORT int name(void) { return no_device(#name); }
#include "libcuda_stub.def"
#undef X

/* No entry point is found: a caller that goes on must not get one. */
CU_EXPORT int cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                  unsigned long long flags, int *symbolStatus)
{
    (void)cudaVersion; (void)flags;
    if (pfn) *pfn = NULL;
    if (symbolStatus) *symbolStatus = CUDA_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    char call[160];
    if (symbol && *symbol) snprintf(call, sizeof call, "cuGetProcAddress for %.100s", symbol);
    else snprintf(call, sizeof call, "cuGetProcAddress");
    return no_device(call);
}

CU_EXPORT int cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags)
{
    return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, NULL);
}

/* Answered for real, so that a program printing the error it got prints
 * something true. */
CU_EXPORT int cuGetErrorName(int error, const char **pStr)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    *pStr = error == CUDA_SUCCESS ? "CUDA_SUCCESS"
          : error == CUDA_ERROR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

CU_EXPORT int cuGetErrorString(int error, const char **pStr)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    *pStr = error == CUDA_SUCCESS ? "no error"
          : error == CUDA_ERROR_NO_DEVICE ? "no CUDA-capable device is detected (warpsim does not simulate the "
                                            "CUDA driver API)"
          : "unknown error";
    return CUDA_SUCCESS;
}
