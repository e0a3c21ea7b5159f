// A program that calls the CUDA driver API by name (linked with -lcuda):
// under warpsim exec every call returns CUDA_ERROR_NO_DEVICE and warpsim
// says once that the driver API is not simulated.  Exits 4 when cuInit fails.
#include <cstdio>
#include <cuda.h>
int main()
{
    CUresult r = cuInit(0);
    const char *s = "?";
    cuGetErrorName(r, &s);
    int n = -1;
    CUresult r2 = cuDeviceGetCount(&n);
    printf("cuInit: %s; cuDeviceGetCount: %d\n", s, (int)r2);
    return r == CUDA_SUCCESS ? 0 : 4;
}
