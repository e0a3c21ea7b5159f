/* The occupancy rule (see occupancy.h for both rules in words). */
#include "occupancy.h"

#include <string.h>

static int64_t div_up(int64_t x, int64_t y) { return (x + y - 1) / y; }
static int64_t round_up(int64_t x, int64_t y) { return div_up(x, y) * y; }

static int32_t clamp_blocks(uint64_t v)
{
    return v > (uint64_t)WS_OCC_UNLIMITED ? WS_OCC_UNLIMITED : (int32_t)v;
}

/* Smallest carve-out step holding size bytes (the largest step if none:
 * callers never ask for more than the per-block limit, which fits). */
static uint64_t step_up(const ws_gpu_config *g, uint64_t size)
{
    for (int32_t i = 0; i < g->numCarveoutSteps; i++)
        if (g->carveoutSteps[i] >= size)
            return g->carveoutSteps[i];
    return g->carveoutSteps[g->numCarveoutSteps - 1];
}

uint64_t ws_occ_carveout_capacity(const ws_gpu_config *g, int32_t percent)
{
    if (percent < 0 || percent > 100)
        return step_up(g, g->sharedMemPerMultiprocessor);
    return step_up(g, (uint64_t)percent * g->sharedMemPerMultiprocessor / 100);
}

/* Launch checks, the same under both rules. */
static ws_occ_error launch_error(const ws_gpu_config *g, const ws_occ_input *in,
                                 ws_occ_result *r)
{
    if (in->threads < 1 || in->threads > g->maxThreadsPerBlock)
        return WS_OCC_ERR_THREADS;
    int64_t warps = div_up(in->threads, g->warpSize);
    int64_t per_warp = round_up((int64_t)in->regs * g->warpSize, g->regAllocUnitSize);
    /* The hardware checks the block as if its warps were spread over all
     * sub-partitions: round the warp count up to a multiple of them. */
    int64_t assumed = per_warp * round_up(warps, g->subPartitionsPerMultiprocessor);
    if (in->regs > g->maxRegsPerThread || assumed > g->regsPerBlock ||
        per_warp * warps > g->regsPerBlock)
        return WS_OCC_ERR_REGISTERS;
    if (in->static_smem > g->sharedMemPerBlock)
        return WS_OCC_ERR_STATIC_SMEM;
    if (in->static_smem + in->dynamic_smem > r->smem_limit_per_block)
        return WS_OCC_ERR_SHARED_MEMORY;
    return WS_OCC_OK;
}

static void hardware_limits(const ws_gpu_config *g, const ws_occ_input *in, ws_occ_result *r)
{
    int32_t sub = g->subPartitionsPerMultiprocessor;
    r->regs_per_warp = (int32_t)round_up((int64_t)in->regs * g->warpSize, g->regAllocUnitSize);
    r->regs_per_block = r->regs_per_warp * r->warps_per_block;
    if (r->regs_per_warp == 0) {
        r->warps_per_subpartition = WS_OCC_UNLIMITED;
        r->limits[WS_OCC_REGISTERS] = WS_OCC_UNLIMITED;
    } else {
        r->warps_per_subpartition = g->regsPerMultiprocessor / sub / r->regs_per_warp;
        r->limits[WS_OCC_REGISTERS] = r->warps_per_subpartition * sub / r->warps_per_block;
    }

    uint64_t total = in->static_smem + in->dynamic_smem + g->reservedSharedMemPerBlock;
    uint64_t unit = (uint64_t)g->sharedMemAllocUnitSize;
    r->smem_per_block = (total + unit - 1) / unit * unit;
    /* The preferred carve-out stands while one block fits in it; a bigger
     * block makes the driver pick the step that holds it. */
    uint64_t preferred = ws_occ_carveout_capacity(g, in->carveout);
    r->smem_per_sm = preferred >= r->smem_per_block ? preferred : step_up(g, r->smem_per_block);
    r->limits[WS_OCC_SHARED_MEMORY] = r->smem_per_block
        ? clamp_blocks(r->smem_per_sm / r->smem_per_block) : WS_OCC_UNLIMITED;
}

static void textbook_limits(const ws_gpu_config *g, const ws_occ_input *in, ws_occ_result *r)
{
    r->regs_per_warp = in->regs * g->warpSize;
    r->regs_per_block = in->regs * in->threads;
    r->warps_per_subpartition = 0;
    r->limits[WS_OCC_REGISTERS] = r->regs_per_block
        ? g->regsPerMultiprocessor / r->regs_per_block : WS_OCC_UNLIMITED;
    r->smem_per_block = in->static_smem + in->dynamic_smem;
    r->smem_per_sm = g->sharedMemPerMultiprocessor;
    r->limits[WS_OCC_SHARED_MEMORY] = r->smem_per_block
        ? clamp_blocks(r->smem_per_sm / r->smem_per_block) : WS_OCC_UNLIMITED;
}

void ws_occupancy(const ws_gpu_config *g, const ws_occ_input *in_arg, ws_occ_rule rule,
                  ws_occ_result *r)
{
    ws_occ_input in = *in_arg;
    if (in.regs < 0)
        in.regs = 0;
    if (in.carveout < WS_OCC_CARVEOUT_DEFAULT || in.carveout > 100)
        in.carveout = WS_OCC_CARVEOUT_DEFAULT;

    memset(r, 0, sizeof *r);
    r->rule = rule;
    r->regs_estimated = in.regs_estimated;
    r->max_warps = g->maxThreadsPerMultiProcessor / g->warpSize;
    r->smem_limit_per_block = in.optin ? g->sharedMemPerBlockOptin : g->sharedMemPerBlock;
    r->error = launch_error(g, &in, r);
    if (r->error == WS_OCC_ERR_THREADS) {
        r->limits[WS_OCC_WARPS] = 0;
        r->limits[WS_OCC_REGISTERS] = r->limits[WS_OCC_SHARED_MEMORY] = WS_OCC_UNLIMITED;
        r->limits[WS_OCC_BLOCKS] = g->maxBlocksPerMultiProcessor;
        r->limiting = 1u << WS_OCC_WARPS;
        r->limiter = WS_OCC_WARPS;
        return;
    }

    r->warps_per_block = (int32_t)div_up(in.threads, g->warpSize);
    r->limits[WS_OCC_WARPS] = r->max_warps / r->warps_per_block;
    r->limits[WS_OCC_BLOCKS] = g->maxBlocksPerMultiProcessor;
    if (rule == WS_OCC_HARDWARE)
        hardware_limits(g, &in, r);
    else
        textbook_limits(g, &in, r);

    if (r->error != WS_OCC_OK) {
        ws_occ_resource at = r->error == WS_OCC_ERR_REGISTERS ? WS_OCC_REGISTERS : WS_OCC_SHARED_MEMORY;
        r->limits[at] = 0;
        r->limiting = 1u << at;
        r->limiter = at;
        return;
    }

    int32_t blocks = WS_OCC_UNLIMITED;
    for (int i = 0; i < WS_OCC_NRESOURCES; i++)
        if (r->limits[i] < blocks)
            blocks = r->limits[i];
    r->blocks_per_sm = blocks;
    for (int i = WS_OCC_NRESOURCES - 1; i >= 0; i--)
        if (r->limits[i] == blocks) {
            r->limiting |= 1u << i;
            r->limiter = (ws_occ_resource)i;
        }
    r->active_warps = blocks * r->warps_per_block;
    r->occupancy = (double)r->active_warps / r->max_warps;
}

const char *ws_occ_resource_name(ws_occ_resource r)
{
    static const char *const names[] = {"warps", "registers", "shared_memory", "blocks"};
    return (unsigned)r < WS_OCC_NRESOURCES ? names[r] : "?";
}

const char *ws_occ_rule_name(ws_occ_rule r)
{
    return r == WS_OCC_TEXTBOOK ? "textbook" : "hardware";
}

const char *ws_occ_error_cuda_name(ws_occ_error e)
{
    switch (e) {
    case WS_OCC_OK: return "cudaSuccess";
    case WS_OCC_ERR_THREADS: return "cudaErrorInvalidConfiguration";
    case WS_OCC_ERR_REGISTERS: return "cudaErrorLaunchOutOfResources";
    case WS_OCC_ERR_STATIC_SMEM: return "ptxas error";
    case WS_OCC_ERR_SHARED_MEMORY: return "cudaErrorInvalidValue";
    }
    return "?";
}

const char *ws_occ_error_cuda_string(ws_occ_error e)
{
    switch (e) {
    case WS_OCC_OK: return "no error";
    case WS_OCC_ERR_THREADS: return "invalid configuration argument";
    case WS_OCC_ERR_REGISTERS: return "too many resources requested for launch";
    case WS_OCC_ERR_STATIC_SMEM: return "uses too much shared data";
    case WS_OCC_ERR_SHARED_MEMORY: return "invalid argument";
    }
    return "?";
}
