/* The names of the stall reasons (stats.h). */
#include "stats.h"

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
