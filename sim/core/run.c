/* The one launch path (run.h). */
#include "run.h"

#include <string.h>

bool ws_run_check(const ws_kernel *k, const ws_launch *l, const ws_run_options *o, ws_error *err)
{
    ws_launch_limits lim = {
        .gpu = o->gpu, .max_dynamic_smem = o->max_dynamic_smem,
        .regs_per_thread = o->timing.regs_per_thread, .carveout = o->timing.carveout,
    };
    return ws_launch_check_limits(k, l, &lim, err);
}

bool ws_run(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
            ws_launch_stats *st, ws_timing_stats *ts, ws_error *err)
{
    memset(st, 0, sizeof *st);
    memset(ts, 0, sizeof *ts);
    err->msg[0] = '\0';
    err->kind = WS_ERR_NONE;
    if (!ws_run_check(k, l, o, err)) return false;
    if (o->functional || !o->gpu) return ws_launch_kernel(p, k, l, st, err);
    return ws_launch_timed(p, k, l, o->gpu, &o->timing, st, ts, err);
}
