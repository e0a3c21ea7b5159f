/* shfl.sync: lane-to-lane register exchange inside a warp.
 *
 * The source lane follows the PTX ISA's description of shfl.sync: c packs a
 * clamp value (c[4:0]) and a segment mask (c[12:8]); the segment mask splits
 * the warp into sub-warps (CUDA's width argument: c = ((32 - width) << 8) |
 * clamp), and the clamp bounds the source lane inside the segment.  The
 * tests check this against values read on an H200 (tests/warpops/gpu_probe). */
#include "warp_ops.h"

#include <string.h>

#include "alu.h"

/* The source lane of lane for mode, and whether it is in range (the ISA's
 * pval).  An out-of-range source is replaced by the lane itself. */
static inline __attribute__((always_inline)) uint32_t shfl_source(ptx_subop mode, uint32_t lane, uint32_t b,
                                                                 uint32_t c, bool *in_range)
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

/* Whether lanes 1 to 31 of row hold lane 0's low 32 bits. */
static bool uniform32(const uint64_t row[32])
{
    uint32_t differ = 0;
    for (int lane = 1; lane < WS_WARP_SIZE; lane++) differ |= (uint32_t)row[lane] ^ (uint32_t)row[0];
    return differ == 0;
}

void ws_shfl_exec(ptx_subop mode, uint32_t exec_mask, const uint64_t a[32],
                  const uint64_t b[32], const uint64_t c[32],
                  uint64_t d[32], uint64_t p[32])
{
    /* Results go to temporaries first: d may be the same row as a. */
    uint64_t dv[WS_WARP_SIZE], pv[WS_WARP_SIZE];
    if (exec_mask == UINT32_MAX && uniform32(b) && uniform32(c)) {
        /* a full warp with one lane operand and one clamp (the common
         * reduction): every source takes part, and with the mode a
         * constant in each loop the compiler takes shfl_source's branch
         * out of the lanes */
        uint32_t src[WS_WARP_SIZE];
#define SOURCES(M) for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) { \
            bool ok; \
            src[lane] = shfl_source(M, lane, (uint32_t)b[0], (uint32_t)c[0], &ok); \
            pv[lane] = ok; }
        switch (mode) {
        case PTX_SUB_SHFL_UP: SOURCES(PTX_SUB_SHFL_UP); break;
        case PTX_SUB_SHFL_DOWN: SOURCES(PTX_SUB_SHFL_DOWN); break;
        case PTX_SUB_SHFL_BFLY: SOURCES(PTX_SUB_SHFL_BFLY); break;
        case PTX_SUB_SHFL_IDX: SOURCES(PTX_SUB_SHFL_IDX); break;
        default: SOURCES(mode); break;
        }
#undef SOURCES
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) dv[lane] = a[src[lane]] & 0xFFFFFFFFu;
        if (d) memcpy(d, dv, sizeof dv);
        if (p) memcpy(p, pv, sizeof pv);
        return;
    }
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
