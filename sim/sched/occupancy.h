/* The occupancy rule: how many blocks of a kernel fit on one SM at once.
 *
 * The hardware rule is what cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * computes (and what the block dispatcher reserves): a block takes
 * ceil(threads / warpSize) warp slots; registers are allocated per warp in
 * units of regAllocUnitSize and each sub-partition holds whole warps' worth
 * of its share of the register file; shared memory per block is static +
 * dynamic + the reserved bytes, rounded up to sharedMemAllocUnitSize, and
 * the SM's shared capacity is the carve-out step that the preference (or,
 * when the block needs more, the block itself) selects; and at most
 * maxBlocksPerMultiProcessor blocks.
 *
 * The textbook rule is the min-of-limits course notes use: the same warp
 * slots and block slots, registers as regsPerMultiprocessor / (regs *
 * threads), shared memory as sharedMemPerMultiprocessor / (static +
 * dynamic): no allocation units, no reserved bytes, no carve-out.
 *
 * Whether a block can launch at all is a fact of the hardware and is the
 * same under both rules; it is reported as the error the CUDA runtime (or
 * ptxas) would give. */
#ifndef WARPSIM_OCCUPANCY_H
#define WARPSIM_OCCUPANCY_H

#include <stdbool.h>
#include <stdint.h>
#include "../base/gpu_config.h"

typedef enum ws_occ_rule { WS_OCC_HARDWARE, WS_OCC_TEXTBOOK } ws_occ_rule;

/* Order matters: it is the order in which a tie names the limiter. */
typedef enum ws_occ_resource {
    WS_OCC_WARPS, WS_OCC_REGISTERS, WS_OCC_SHARED_MEMORY, WS_OCC_BLOCKS,
    WS_OCC_NRESOURCES
} ws_occ_resource;

typedef enum ws_occ_error {
    WS_OCC_OK = 0,
    WS_OCC_ERR_THREADS,         /* block larger than maxThreadsPerBlock */
    WS_OCC_ERR_REGISTERS,       /* the block's registers exceed regsPerBlock */
    WS_OCC_ERR_STATIC_SMEM,     /* static shared memory above sharedMemPerBlock: ptxas refuses */
    WS_OCC_ERR_SHARED_MEMORY    /* static + dynamic above the per-block limit */
} ws_occ_error;

#define WS_OCC_UNLIMITED INT32_MAX  /* a resource the kernel does not use */
#define WS_OCC_CARVEOUT_DEFAULT (-1)

typedef struct ws_occ_input {
    int32_t threads;            /* per block, >= 1 */
    int32_t regs;               /* per thread, >= 0 */
    uint64_t static_smem;       /* bytes of .shared in the kernel */
    uint64_t dynamic_smem;      /* bytes given at launch */
    int32_t carveout;           /* preferred shared-memory percent 0..100, or WS_OCC_CARVEOUT_DEFAULT */
    bool optin;                 /* the kernel raised its dynamic shared limit to the opt-in maximum */
    bool regs_estimated;        /* regs is an estimate from the PTX (kernel_regs.h), not ptxas's */
} ws_occ_input;

typedef struct ws_occ_result {
    ws_occ_rule rule;
    bool regs_estimated;        /* copied from the input: the reports flag it */
    ws_occ_error error;         /* WS_OCC_OK, else blocks_per_sm is 0 */
    int32_t blocks_per_sm;
    int32_t active_warps, max_warps;
    double occupancy;           /* active_warps / max_warps */
    int32_t limits[WS_OCC_NRESOURCES];  /* blocks each resource allows */
    uint32_t limiting;          /* bit (1u << r) for every r whose limit is blocks_per_sm */
    ws_occ_resource limiter;    /* the first of those (the one at fault on error) */

    /* how the limits came about */
    int32_t warps_per_block;
    int32_t regs_per_warp;          /* allocated (hardware) or regs * warpSize (textbook) */
    int32_t regs_per_block;         /* allocated (hardware) or regs * threads (textbook) */
    int32_t warps_per_subpartition; /* hardware: warps whose registers fit one sub-partition */
    uint64_t smem_per_block;        /* allocated bytes: static + dynamic (+ reserved, rounded) */
    uint64_t smem_per_sm;           /* capacity the blocks share (carve-out step, or the maximum) */
    uint64_t smem_limit_per_block;  /* the per-block ceiling the launch is checked against */
} ws_occ_result;

/* Computes the rule for one kernel on one GPU.  Inputs outside their
 * domain (threads < 1, regs < 0, carveout outside -1..100) are the
 * caller's to reject; here they give WS_OCC_ERR_THREADS or are clamped. */
void ws_occupancy(const ws_gpu_config *g, const ws_occ_input *in, ws_occ_rule rule,
                  ws_occ_result *out);

/* Names as the JSON output and the docs use them. */
const char *ws_occ_resource_name(ws_occ_resource r);  /* "warps", "registers", ... */
const char *ws_occ_rule_name(ws_occ_rule r);          /* "hardware", "textbook" */

/* The CUDA name of a launch error ("cudaErrorLaunchOutOfResources"), and
 * its message as cudaGetErrorString gives it. */
const char *ws_occ_error_cuda_name(ws_occ_error e);
const char *ws_occ_error_cuda_string(ws_occ_error e);

/* The shared-memory capacity a carve-out preference selects: the smallest
 * step of g that holds percent% of sharedMemPerMultiprocessor. */
uint64_t ws_occ_carveout_capacity(const ws_gpu_config *g, int32_t percent);

#endif
