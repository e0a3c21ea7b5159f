/* Registers per thread of a kernel, by the one policy that `warpsim run`,
 * `warpsim exec` (its runtime: launches, cudaFuncGetAttributes and the
 * occupancy API) and `warpsim occupancy` share:
 *   1. the number the user gave (--regs), else
 *   2. what ptxas -v allocates, when the CUDA toolkit is installed
 *      (compiled for the GPU, or for the PTX's own .target where that is
 *      newer: ptxas refuses to compile down), else
 *   3. an estimate from the PTX (ws_estimate_regs), which every report
 *      that shows the number marks as an estimate. */
#ifndef WARPSIM_KERNEL_REGS_H
#define WARPSIM_KERNEL_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sim.h"
#include "../../frontend/ptx/ptxas_info.h"
#include "../../frontend/ptx/ptxas_store.h"

typedef enum ws_regs_source { WS_REGS_GIVEN, WS_REGS_PTXAS, WS_REGS_ESTIMATED } ws_regs_source;

/* ptxas -v's output for one PTX module, kept by the caller across the
 * module's kernels: one compile reports every entry, so the first resolve
 * runs ptxas and the others read its output.  A failed run is kept too.
 * Zero-initialized is empty; one cache serves one PTX text only. */
typedef struct ws_ptxas_cache {
    char *out;                  /* ok: ptxas's whole output */
    int32_t major, minor;       /* ran: the architecture it compiled for */
    bool ran, ok;
    bool disk;                  /* the owner's choice: outputs kept on disk (ptxas_store.h) are used and filed */
    bool keyed;                 /* a run started ahead files its output under key */
    ptx_ptxas_key key;
    char why[512];              /* ran && !ok: why it gave no output */
    int32_t runs;               /* runs (or tries: a temporary file failed) through this cache, not
                                 * counting outputs found on disk */
    /* a run started ahead (ws_ptxas_start_ahead) and not yet waited for */
    bool started;
    ptx_ptxas_job job;
    char ptx_path[1024];        /* its temporary PTX file */
} ws_ptxas_cache;

/* Frees the kept output and empties the cache but for its disk choice
 * (it may then be reused); a run started ahead is stopped. */
void ws_ptxas_cache_free(ws_ptxas_cache *cache);

/* Starts ptxas on the PTX text now, for the architecture a kernel of it
 * will ask for on a GPU of compute capability gpu_major.gpu_minor, so
 * that it compiles while the program does other work (a CUDA program's
 * input set-up): the first resolve through cache that asks for that
 * architecture waits for it instead of running ptxas then.  Does nothing
 * when ptxas cannot be found or started (the resolve says why). */
void ws_ptxas_start_ahead(ws_ptxas_cache *cache, const char *ptx_text, size_t ptx_len, int32_t gpu_major,
                          int32_t gpu_minor);

typedef struct ws_regs_request {
    int32_t given;              /* > 0: the user's number, used as it is */
    const char *ptx_path;       /* the PTX file for ptxas, or NULL: */
    const char *ptx_text;       /* the PTX text, written to a temporary file for ptxas */
    size_t ptx_len;
    int32_t gpu_major, gpu_minor;   /* the compute capability the kernel runs on */
    ws_ptxas_cache *ptxas_cache;    /* the module's, or NULL: ptxas runs for this kernel alone */
    bool disk;                  /* with no ptxas_cache: use outputs kept on disk (ptxas_store.h) */
} ws_regs_request;

typedef struct ws_kernel_regs {
    int32_t regs;
    ws_regs_source source;
    bool have_ptxas_smem;       /* ptxas ran: its static shared memory is ptxas_smem */
    uint64_t ptxas_smem;
    char why[512];              /* WS_REGS_ESTIMATED: why ptxas gave no number */
} ws_kernel_regs;

/* Resolves k's registers per thread by the policy above. */
void ws_kernel_regs_resolve(const ws_program *p, const ws_kernel *k, const ws_regs_request *rq,
                            ws_kernel_regs *out);

#endif
