/* The names of the stall reasons (stats.h). */
#include "stats.h"

#include <string.h>

static const char *const stall_names[WS_STALL_COUNT] = {
    "selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard",
    "math_pipe_throttle", "lg_throttle", "mio_throttle", "barrier", "branch_resolving", "drain",
};

const char *ws_stall_name(ws_stall s)
{
    return s < WS_STALL_COUNT ? stall_names[s] : "?";
}

const char *ws_stall_metric(ws_stall s)
{
    static const char *const metrics[WS_STALL_COUNT] = {
        "smsp__pcsamp_warps_issue_stalled_selected",
        "smsp__pcsamp_warps_issue_stalled_not_selected",
        "smsp__pcsamp_warps_issue_stalled_wait",
        "smsp__pcsamp_warps_issue_stalled_short_scoreboard",
        "smsp__pcsamp_warps_issue_stalled_long_scoreboard",
        "smsp__pcsamp_warps_issue_stalled_math_pipe_throttle",
        "smsp__pcsamp_warps_issue_stalled_lg_throttle",
        "smsp__pcsamp_warps_issue_stalled_mio_throttle",
        "smsp__pcsamp_warps_issue_stalled_barrier",
        "smsp__pcsamp_warps_issue_stalled_branch_resolving",
        "smsp__pcsamp_warps_issue_stalled_drain",
    };
    return s < WS_STALL_COUNT ? metrics[s] : "?";
}

/* Every field of ws_launch_stats is a uint64_t counter (the assert below
 * catches one that is not a multiple of 8 bytes). */
_Static_assert(sizeof(ws_launch_stats) % sizeof(uint64_t) == 0, "ws_launch_stats holds uint64_t counters");

void ws_launch_stats_add(ws_launch_stats *to, const ws_launch_stats *from)
{
    uint64_t t[sizeof *to / sizeof(uint64_t)], f[sizeof *to / sizeof(uint64_t)];
    memcpy(t, to, sizeof t);
    memcpy(f, from, sizeof f);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) t[i] += f[i];
    memcpy(to, t, sizeof t);
}

void ws_pc_counts_add(ws_pc_counts *to, const ws_pc_counts *from, size_t n, bool earliest)
{
    for (size_t i = 0; i < n; i++) {
        ws_pc_counts *a = &to[i];
        const ws_pc_counts *c = &from[i];
        a->warp_insts += c->warp_insts;
        a->thread_insts += c->thread_insts;
        a->branches += c->branches;
        a->divergent_branches += c->divergent_branches;
        for (int o = 0; o < 3; o++) {
            a->shared_requests[o] += c->shared_requests[o];
            a->shared_wavefronts[o] += c->shared_wavefronts[o];
            a->shared_bank_conflicts[o] += c->shared_bank_conflicts[o];
            a->global_requests[o] += c->global_requests[o];
            a->global_sectors[o] += c->global_sectors[o];
            a->global_ideal_sectors[o] += c->global_ideal_sectors[o];
        }
        for (int r = 0; r < WS_PC_STALL_KINDS; r++) a->stall[r] += c->stall[r];
        a->l1_sectors += c->l1_sectors;
        a->l1_hit_sectors += c->l1_hit_sectors;
        a->l2_sectors += c->l2_sectors;
        a->l2_hit_sectors += c->l2_hit_sectors;
        if (c->stride_known &&
            (!a->stride_known || (earliest && (c->stride_cycle < a->stride_cycle ||
                                               (c->stride_cycle == a->stride_cycle && c->stride_sm < a->stride_sm))))) {
            a->stride_known = 1;
            a->lane_stride = c->lane_stride;
            a->access_size = c->access_size;
            a->stride_cycle = c->stride_cycle;
            a->stride_sm = c->stride_sm;
        }
    }
}

void ws_timing_stats_add_sm_counts(ws_timing_stats *to, const ws_timing_stats *from)
{
    to->warp_insts += from->warp_insts;
    to->sm_active_cycles += from->sm_active_cycles;
    to->warp_cycles += from->warp_cycles;
    to->issue_slots += from->issue_slots;
    to->l1_wavefronts += from->l1_wavefronts;
    to->sm_steps += from->sm_steps;
    for (int i = 0; i < WS_PIPE_COUNT; i++) {
        to->pipe_busy[i] += from->pipe_busy[i];
        to->pipe_insts[i] += from->pipe_insts[i];
    }
    for (int i = 0; i < WS_STALL_COUNT; i++) to->stall[i] += from->stall[i];
}
