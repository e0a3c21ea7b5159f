/* shfl.sync: lane-to-lane register exchange inside a warp.
 *
 * The source lane follows the PTX ISA's description of shfl.sync: c packs a
 * clamp value (c[4:0]) and a segment mask (c[12:8]); the segment mask splits
 * the warp into sub-warps (CUDA's width argument: c = ((32 - width) << 8) |
 * clamp), and the clamp bounds the source lane inside the segment.  The
 * tests check this against values read on an H200 (tests/warpops/gpu_probe). */
#include "warp_ops.h"

#include "alu.h"

/* The source lane of lane for mode, and whether it is in range (the ISA's
 * pval).  An out-of-range source is replaced by the lane itself. */
static uint32_t shfl_source(ptx_subop mode, uint32_t lane, uint32_t b, uint32_t c, bool *in_range)
{
    uint32_t bval = b & 31u, clamp = c & 31u, segmask = (c >> 8) & 31u;
    uint32_t max_lane = (lane & segmask) | (clamp & ~segmask);
    uint32_t min_lane = lane & segmask;
    int32_t j = (int32_t)lane;
    bool ok = false;
    switch (mode) {
    case PTX_SUB_SHFL_UP:   j = (int32_t)lane - (int32_t)bval; ok = j >= (int32_t)max_lane; break;
    case PTX_SUB_SHFL_DOWN: j = (int32_t)(lane + bval); ok = j <= (int32_t)max_lane; break;
    case PTX_SUB_SHFL_BFLY: j = (int32_t)(lane ^ bval); ok = j <= (int32_t)max_lane; break;
    case PTX_SUB_SHFL_IDX:  j = (int32_t)(min_lane | (bval & ~segmask)); ok = j <= (int32_t)max_lane; break;
    default: break;
    }
    *in_range = ok;
    return ok ? (uint32_t)j : lane;
}

void ws_shfl_exec(ptx_subop mode, uint32_t exec_mask, const uint64_t a[32],
                  const uint64_t b[32], const uint64_t c[32],
                  uint64_t d[32], uint64_t p[32])
{
    /* Results go to temporaries first: d may be the same row as a. */
    uint64_t dv[WS_WARP_SIZE], pv[WS_WARP_SIZE];
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!((exec_mask >> lane) & 1u)) continue;
        bool ok;
        uint32_t j = shfl_source(mode, lane, (uint32_t)b[lane], (uint32_t)c[lane], &ok);
        /* A source lane in range that does not take part gives an undefined
         * value in the ISA; an H200 gives 0 (and p = 1): so does warpsim
         * (validation/results/h200_issue8_probes.txt, partialShfl). */
        dv[lane] = (exec_mask >> j) & 1u ? a[j] & 0xFFFFFFFFu : 0;
        pv[lane] = ok ? 1u : 0u;
    }
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!((exec_mask >> lane) & 1u)) continue;
        if (d) d[lane] = dv[lane];
        if (p) p[lane] = pv[lane];
    }
}
