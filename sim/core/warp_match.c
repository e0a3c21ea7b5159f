/* match.sync: which lanes hold the same value (PTX ISA, "match.sync"). */
#include "warp_ops.h"

#include "alu.h"

void ws_match_exec(ptx_subop mode, ptx_type t, uint32_t exec_mask, const uint64_t a[32],
                   uint64_t d[32], uint64_t p[32])
{
    uint64_t vm = t == PTX_T_B64 ? UINT64_MAX : UINT64_C(0xFFFFFFFF);
    uint32_t same[WS_WARP_SIZE] = {0};
    bool all = true;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!((exec_mask >> lane) & 1u)) continue;
        for (int j = 0; j < WS_WARP_SIZE; j++)
            if (((exec_mask >> j) & 1u) && (a[j] & vm) == (a[lane] & vm)) same[lane] |= UINT32_C(1) << j;
        all = all && same[lane] == exec_mask;
    }
    /* Results after every comparison: d may be the same row as a. */
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!((exec_mask >> lane) & 1u)) continue;
        if (mode == PTX_SUB_VOTE_ANY) {
            d[lane] = same[lane];
        } else {
            d[lane] = all ? exec_mask : 0;
            if (p) p[lane] = all;
        }
    }
}
