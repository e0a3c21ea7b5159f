/* Shared by the library test programs: stop on a CUDA error with a line
 * that names the call, and end with OK or MISMATCH from the CPU check. */
#ifndef LIBS_CHECK_H
#define LIBS_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                                    \
    do {                                                                            \
        cudaError_t ck_err_ = (call);                                               \
        if (ck_err_ != cudaSuccess) {                                               \
            printf("CUDA error at line %d (%s): %s\n", __LINE__, #call,             \
                   cudaGetErrorString(ck_err_));                                    \
            exit(2);                                                                \
        }                                                                           \
    } while (0)

/* After a kernel launch: the launch error, then the execution error. */
#define CK_LAUNCH()                                                                 \
    do {                                                                            \
        CK(cudaGetLastError());                                                     \
        CK(cudaDeviceSynchronize());                                                \
    } while (0)

/* Counts a mismatch, printing the first few. */
struct Checker {
    int bad = 0;
    template <typename T> void eq(const char *what, int i, T got, T want)
    {
        if (got == want)
            return;
        if (bad < 5)
            printf("mismatch %s[%d]: got %lld want %lld\n", what, i, (long long)got, (long long)want);
        bad++;
    }
    int finish() const
    {
        puts(bad ? "MISMATCH" : "OK");
        return bad ? 1 : 0;
    }
};

#endif
