/* The launch limits (launch_check.h). */
#include "launch_check.h"

#include <inttypes.h>
#include <stdio.h>

#include "program.h"
#include "warp.h"
#include "../sched/occupancy.h"

#define CUDA_MAX_BLOCK_THREADS 1024     /* every GPU warpsim models */

bool ws_check_block_dims(ws_dim3 d, int32_t max_threads, char *why, size_t size)
{
    uint64_t n = (uint64_t)d.x * d.y * d.z;
    if (n == 0) {
        snprintf(why, size, "block (%u,%u,%u) has a zero dimension", d.x, d.y, d.z);
        return false;
    }
    if (d.x > 1024 || d.y > 1024 || d.z > 64) {
        snprintf(why, size, "block (%u,%u,%u) exceeds the limits x <= 1024, y <= 1024, z <= 64",
                 d.x, d.y, d.z);
        return false;
    }
    if (n > (uint64_t)max_threads) {
        snprintf(why, size, "block (%u,%u,%u) has %" PRIu64 " threads; at most %d are allowed",
                 d.x, d.y, d.z, n, max_threads);
        return false;
    }
    return true;
}

bool ws_check_grid_dims(ws_dim3 d, char *why, size_t size)
{
    if ((uint64_t)d.x * d.y * d.z == 0) {
        snprintf(why, size, "grid (%u,%u,%u) has a zero dimension", d.x, d.y, d.z);
        return false;
    }
    if (d.x > INT32_MAX || d.y > 65535 || d.z > 65535) {
        snprintf(why, size, "grid (%u,%u,%u) exceeds the limits x < 2^31, y <= 65535, z <= 65535",
                 d.x, d.y, d.z);
        return false;
    }
    return true;
}

static bool fail(ws_error *err, ws_error_kind kind, const ws_kernel *k, const char *why)
{
    ws_error_set(err, kind, "kernel %s cannot launch (%s): %s", k->p->funcs[k->func].shown,
                 ws_error_cuda_name(kind), why);
    return false;
}

uint64_t ws_launch_max_dynamic_smem(const ws_kernel *k, const ws_gpu_config *g, int64_t max_dynamic_smem)
{
    if (max_dynamic_smem >= 0) return (uint64_t)max_dynamic_smem;
    uint64_t base = (uint64_t)(max_dynamic_smem == WS_SMEM_LIMIT_OPTIN ? g->sharedMemPerBlockOptin
                                                                        : g->sharedMemPerBlock);
    return base > k->static_smem ? base - k->static_smem : 0;
}

static bool check_smem(const ws_kernel *k, const ws_launch *l, const ws_launch_limits *lim,
                       ws_error *err)
{
    const ws_gpu_config *g = lim->gpu;
    uint64_t st = k->static_smem, optin = (uint64_t)g->sharedMemPerBlockOptin;
    uint64_t max_dyn = ws_launch_max_dynamic_smem(k, g, lim->max_dynamic_smem);
    if (l->dynamic_smem <= max_dyn && st + l->dynamic_smem <= optin) return true;
    char why[512];
    /* the GPU's own limit first: no attribute can lift it */
    if (st + l->dynamic_smem > optin)
        snprintf(why, sizeof why, "%u bytes of dynamic shared memory with %" PRIu64 " static; a block "
                 "of %s has at most %" PRIu64 " (sharedMemPerBlockOptin)", l->dynamic_smem, st, g->name, optin);
    else
        snprintf(why, sizeof why, "%u bytes of dynamic shared memory; its limit is %" PRIu64 " (raise it "
                 "with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...))",
                 l->dynamic_smem, max_dyn);
    return fail(err, WS_ERR_LAUNCH_SMEM, k, why);
}

/* The block's registers against the SM's, by the occupancy rule. */
static bool check_regs(const ws_kernel *k, const ws_launch *l, const ws_launch_limits *lim,
                       ws_error *err)
{
    const ws_gpu_config *g = lim->gpu;
    ws_occ_input in = {
        .threads = (int32_t)((uint64_t)l->block.x * l->block.y * l->block.z),
        .regs = lim->regs_per_thread, .static_smem = 0, .dynamic_smem = 0,
        .carveout = lim->carveout, .optin = true, .regs_estimated = false,
    };
    ws_occ_result r;
    ws_occupancy(g, &in, WS_OCC_HARDWARE, &r);
    if (r.error != WS_OCC_ERR_REGISTERS) return true;
    char why[256];
    snprintf(why, sizeof why, "a block of %d threads at %d registers each needs more registers than "
             "%s has for a block (regsPerBlock %d)", in.threads, in.regs, g->name, g->regsPerBlock);
    return fail(err, WS_ERR_LAUNCH_RESOURCES, k, why);
}

bool ws_launch_check_limits(const ws_kernel *k, const ws_launch *l, const ws_launch_limits *lim,
                            ws_error *err)
{
    char why[256];
    int32_t max_threads = lim->gpu ? lim->gpu->maxThreadsPerBlock : CUDA_MAX_BLOCK_THREADS;
    if (!ws_check_block_dims(l->block, max_threads, why, sizeof why) ||
        !ws_check_grid_dims(l->grid, why, sizeof why))
        return fail(err, WS_ERR_LAUNCH_CONFIG, k, why);
    if (!lim->gpu) return true;
    if (!check_smem(k, l, lim, err)) return false;
    return lim->regs_per_thread <= 0 || check_regs(k, l, lim, err);
}

bool ws_launch_check(const ws_program *p, const ws_kernel *k, const ws_launch *l, ws_error *err)
{
    ws_launch_limits every_gpu = {.gpu = NULL, .max_dynamic_smem = WS_SMEM_LIMIT_OPTIN,
                                  .regs_per_thread = 0, .carveout = -1};
    if (!ws_launch_check_limits(k, l, &every_gpu, err)) return false;
    if (l->params_size < k->params_size) {
        ws_error_set(err, WS_ERR_INPUT, "kernel %s takes %u bytes of parameters; %zu given",
                     p->funcs[k->func].shown, k->params_size, l->params_size);
        return false;
    }
    return true;
}
