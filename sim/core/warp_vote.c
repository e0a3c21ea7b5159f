/* vote.sync: warp-wide predicate reductions over the lanes that execute it. */
#include "warp_ops.h"

#include "alu.h"

void ws_vote_exec(ptx_subop mode, uint32_t exec_mask, const uint64_t pred[32],
                  uint64_t d[32])
{
    uint32_t ones = 0;
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
        if (((exec_mask >> lane) & 1u) && (pred[lane] & 1u)) ones |= 1u << lane;

    uint64_t r;
    switch (mode) {
    case PTX_SUB_VOTE_ALL:    r = ones == exec_mask; break;
    case PTX_SUB_VOTE_ANY:    r = ones != 0; break;
    case PTX_SUB_VOTE_UNI:    r = ones == 0 || ones == exec_mask; break;
    case PTX_SUB_VOTE_BALLOT: r = ones; break;
    default: return;
    }
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
        if ((exec_mask >> lane) & 1u) d[lane] = r;
}
