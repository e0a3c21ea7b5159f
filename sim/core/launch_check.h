/* The limits a launch is checked against before anything runs: one rule
 * for `warpsim run`, the runtime of `warpsim exec` and the launchers
 * themselves, each failure of the kind (error_kinds.def) whose CUDA error a
 * GPU returns for it:
 *   - grid and block: no zero dimension; block x, y <= 1024, z <= 64 and
 *     at most maxThreadsPerBlock threads (1024 without a GPU config); grid
 *     x < 2^31, y, z <= 65535: cudaErrorInvalidConfiguration (CUDA C++
 *     Programming Guide, "Compute Capabilities", table of technical
 *     specifications);
 *   - dynamic shared memory: at most the kernel's limit
 *     (cudaFuncAttributeMaxDynamicSharedMemorySize: sharedMemPerBlock less
 *     the static size unless raised), and static + dynamic at most
 *     sharedMemPerBlockOptin: cudaErrorInvalidValue;
 *   - registers, with the count known: the block's must fit the SM (the
 *     occupancy rule, sim/sched/occupancy.h): cudaErrorLaunchOutOfResources. */
#ifndef WARPSIM_LAUNCH_CHECK_H
#define WARPSIM_LAUNCH_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../base/gpu_config.h"
#include "sim.h"

/* ws_launch_limits.max_dynamic_smem: CUDA's default limit, or the opt-in
 * maximum (what `warpsim run --smem` asks, as a program would after
 * raising the limit with cudaFuncSetAttribute). */
#define WS_SMEM_LIMIT_DEFAULT (-1)
#define WS_SMEM_LIMIT_OPTIN (-2)

typedef struct ws_launch_limits {
    const ws_gpu_config *gpu;   /* NULL: only what every GPU has (1024 threads a block) */
    int64_t max_dynamic_smem;   /* bytes, or WS_SMEM_LIMIT_* */
    int32_t regs_per_thread;    /* > 0: the registers are checked too */
    int32_t carveout;           /* shared-memory carve-out percent, -1 = default */
} ws_launch_limits;

/* The block dimensions alone against max_threads threads per block, and
 * the grid dimensions alone: false with the reason ("block (64,32,1) has
 * 2048 threads; ...") in why. */
bool ws_check_block_dims(ws_dim3 block, int32_t max_threads, char *why, size_t size);
bool ws_check_grid_dims(ws_dim3 grid, char *why, size_t size);

/* The most dynamic shared memory k may be launched with on g under the
 * limit max_dynamic_smem (bytes, or WS_SMEM_LIMIT_*), before the GPU's
 * static + dynamic ceiling: what cudaFuncGetAttributes reports as
 * maxDynamicSharedSizeBytes. */
uint64_t ws_launch_max_dynamic_smem(const ws_kernel *k, const ws_gpu_config *g, int64_t max_dynamic_smem);

/* Every limit above for launching k with l: false with *err filled (its
 * message names the kernel and the CUDA error). */
bool ws_launch_check_limits(const ws_kernel *k, const ws_launch *l, const ws_launch_limits *lim,
                            ws_error *err);

#endif
