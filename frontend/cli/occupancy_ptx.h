/* What `warpsim occupancy FILE.ptx --kernel NAME` needs from a kernel:
 * its static shared memory (from the parsed PTX) and its registers per
 * thread (from ptxas, when the CUDA toolkit is installed). */
#ifndef WARPSIM_OCCUPANCY_PTX_H
#define WARPSIM_OCCUPANCY_PTX_H

#include <stddef.h>
#include <stdint.h>
#include "frontend/ptx/ptx_ir.h"

/* Bytes of .shared the kernel declares, its own and the module-level ones
 * it (or a function it calls) names, each placed at its alignment.
 * extern (dynamic) arrays count nothing. */
uint64_t ws_ptx_static_smem(const ptx_module *m, const ptx_function *kernel);

/* The ptxas to run: on PATH, else under $CUDA_HOME/bin or
 * /usr/local/cuda/bin.  Returns 0 and writes its path, or -1 when none. */
int ws_find_ptxas(char *path, size_t size);

/* Runs `ptxas -v -arch=sm_MAJORMINOR` on ptx_path and reads "Used N
 * registers" for the entry named mangled (and its "N bytes smem" into
 * *smem, 0 when absent).  Returns 0, or -1 with the reason in err. */
int ws_ptxas_registers(const char *ptxas, const char *ptx_path, const char *mangled,
                       int32_t major, int32_t minor, int32_t *regs, uint64_t *smem,
                       char *err, size_t errsize);

#endif
