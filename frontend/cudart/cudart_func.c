/* Kernel attributes and the occupancy API, from the kernel's PTX (static
 * shared memory), ptxas (registers) and warpsim's occupancy rule (the
 * hardware rule, as cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
#include <stdlib.h>
#include <string.h>
#include "cudart_ctx.h"
#include "sim/core/launch_check.h"
#include "sim/sched/occupancy.h"

static uint64_t static_smem(const cr_func *f)
{
    return ws_kernel_static_smem(f->kernel);
}

static int32_t max_dynamic(const cr_context *c, const cr_func *f)
{
    return (int32_t)ws_launch_max_dynamic_smem(f->kernel, &c->gpu, f->max_dynamic_smem >= 0 ? f->max_dynamic_smem
                                                                                        : WS_SMEM_LIMIT_DEFAULT);
}

/* The virtual architecture the kernel's PTX was written for, major*10 +
 * minor: ".target sm_80" -> 80 (sm_90a -> 90), else the compute_XY the fat
 * binary filed the PTX under.  This is what CUDA calls ptxVersion (CUB
 * multiplies it by 10 and expects one of the __CUDA_ARCH__ values the
 * program was built for); it is not the PTX ISA version of ".version". */
static int ptx_target_arch(const cr_module *m)
{
    const char *t = m->ptxm->target;
    if (!strncmp(t, "sm_", 3) && t[3] >= '1' && t[3] <= '9') {
        int v = 0;
        for (const char *d = t + 3; *d >= '0' && *d <= '9'; d++) v = v * 10 + (*d - '0');
        if (v > 0) return v;
    }
    return (int)m->ptx_arch;
}

CR_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!attr) return cr_ret(c, cudaErrorInvalidValue);
    cr_func *f;
    if ((e = cr_func_lookup(c, func, &f)) != cudaSuccess) return cr_ret(c, e);
    const ws_gpu_config *g = &c->gpu;
    const ptx_function *pf = ws_kernel_function(f->kernel);
    int32_t regs = cr_func_regs(c, f);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = static_smem(f);
    attr->numRegs = regs;
    /* the most threads whose registers fit regsPerBlock, in whole warps */
    int32_t unit = g->regAllocUnitSize > 0 ? g->regAllocUnitSize : 256;
    int32_t per_warp = (regs * g->warpSize + unit - 1) / unit * unit;
    int32_t threads = g->maxThreadsPerBlock;
    if (per_warp > 0 && g->regsPerBlock / per_warp * g->warpSize < threads)
        threads = g->regsPerBlock / per_warp * g->warpSize;
    uint32_t maxntid = pf->maxntid[0] ? pf->maxntid[0] * (pf->maxntid[1] ? pf->maxntid[1] : 1) *
                                        (pf->maxntid[2] ? pf->maxntid[2] : 1) : 0;
    if (maxntid && (int32_t)maxntid < threads) threads = (int32_t)maxntid;
    attr->maxThreadsPerBlock = threads;
    attr->ptxVersion = ptx_target_arch(f->mod);
    /* the binary a driver would JIT the PTX to: the simulated device's */
    attr->binaryVersion = g->major * 10 + g->minor;
    attr->maxDynamicSharedSizeBytes = max_dynamic(c, f);
    attr->preferredShmemCarveout = f->carveout;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_func *f;
    if ((e = cr_func_lookup(c, func, &f)) != cudaSuccess) return cr_ret(c, e);
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || static_smem(f) + (uint64_t)value > c->gpu.sharedMemPerBlockOptin)
            return cr_ret(c, cudaErrorInvalidValue);
        f->max_dynamic_smem = value;
        return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        if (value < -1 || value > 100) return cr_ret(c, cudaErrorInvalidValue);
        f->carveout = value;
        return cudaSuccess;
    default: {
        char what[64];
        snprintf(what, sizeof what, "cudaFuncSetAttribute(attribute %d)", attr);
        return cr_unsupported(what);
    }
    }
}

CR_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    (void)flags;    /* cudaOccupancyDisableCachingOverride: no caching to override */
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!numBlocks || blockSize <= 0) return cr_ret(c, cudaErrorInvalidValue);
    cr_func *f;
    if ((e = cr_func_lookup(c, func, &f)) != cudaSuccess) return cr_ret(c, e);
    *numBlocks = cr_blocks_per_sm(c, f, blockSize, dynamicSMemSize);
    return cudaSuccess;
}

int cr_blocks_per_sm(cr_context *c, cr_func *f, int threads, size_t dynamic_smem)
{
    uint64_t s = static_smem(f);
    ws_occ_input in = {
        .threads = threads, .regs = cr_func_regs(c, f), .static_smem = s,
        .dynamic_smem = dynamic_smem,
        .carveout = f->carveout >= 0 ? f->carveout : WS_OCC_CARVEOUT_DEFAULT,
        .optin = f->max_dynamic_smem >= 0 && s + (uint64_t)f->max_dynamic_smem > c->gpu.sharedMemPerBlock,
    };
    ws_occ_result r;
    ws_occupancy(&c->gpu, &in, WS_OCC_HARDWARE, &r);
    return r.error == WS_OCC_OK ? r.blocks_per_sm : 0;
}

CR_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                    int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}
