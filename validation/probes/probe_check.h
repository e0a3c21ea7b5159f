/* What the probes in this folder share: CHECK stops the probe with the
 * file, line and CUDA error when a runtime call fails. */
#ifndef WARPSIM_PROBE_CHECK_H
#define WARPSIM_PROBE_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                         \
    do {                                                                                 \
        cudaError_t e_ = (x);                                                            \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));  \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#endif
