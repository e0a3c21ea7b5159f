/* The functional launcher: blocks one after another (x fastest), the warps
 * of a block stepped round-robin, barriers released when every running
 * thread of the block has arrived.
 *
 * Special registers that name hardware places get fixed values: %nsmid and
 * %nwarpid are the launch's sm_count and warps_per_sm (1 and 64 when not
 * given), %smid the block's linear index modulo %nsmid (blocks dealt
 * round-robin, as the timing model's first wave deals them), and %warpid
 * the warp's index within its block. */
#include <stdlib.h>
#include <string.h>

#include "block_sync.h"
#include "executor.h"
#include "trace_issue.h"

/* Functional mode has no cycles: a step's cycle (%clock) is the count of
 * warp steps with it, and it goes into the issue trace as one cycle, on
 * the SM of %smid. */
static ws_step_result step(ws_exec *x, ws_block *b, ws_warp *w)
{
    uint64_t now = x->steps;
    if (!x->l->trace) return ws_warp_step(x, b, w, now + 1, NULL);
    ws_step_info info;
    info.mem = false;
    int32_t pc = ws_warp_next_pc(w);
    ws_step_result r = ws_warp_step(x, b, w, now + 1, &info);
    if (r != WS_STEP_FAULT && pc >= 0)
        ws_trace_warp_issue(x->l->trace, x, b, w, (int32_t)b->smid, pc, &info, now, now + 1);
    return r;
}

static bool run_block(ws_exec *x, ws_block *b)
{
    for (;;) {
        bool ready = false, waiting = false;
        for (uint32_t i = 0; i < b->nwarps; i++) {
            ws_warp *w = &b->warps[i];
            if (w->state != WS_WARP_READY) { waiting |= w->state == WS_WARP_BARRIER; continue; }
            ws_step_result r = step(x, b, w);
            if (r == WS_STEP_FAULT) return false;
            /* A step that arrived at a barrier may leave other lanes of the
             * warp running (a thread-granular barrier). */
            if (w->state == WS_WARP_READY) ready = true;
            if (r == WS_STEP_BLOCKED || w->state == WS_WARP_BARRIER) waiting = true;
        }
        if (waiting && ws_block_release_barriers(x, b) > 0) continue;
        if (ready) continue;
        if (!waiting) return true;      /* every warp is done */
        ws_block_deadlock(x, b);
        return false;
    }
}

bool ws_launch_kernel(ws_program *p, const ws_kernel *k, const ws_launch *l,
                      ws_launch_stats *stats, ws_error *err)
{
    ws_launch_stats st;
    memset(&st, 0, sizeof st);
    err->msg[0] = '\0';
    err->kind = WS_ERR_NONE;
    ws_exec x = {.p = p, .k = k, .l = l, .stats = &st, .err = err,
                 .out = l->printf_out ? l->printf_out : stdout,
                 .nsmid = l->sm_count ? l->sm_count : 1, .nwarpid = l->warps_per_sm ? l->warps_per_sm : 64};
    if (!ws_launch_check(p, k, l, err)) return false;
    ws_watchdog_start(&x);
    ws_check_log checks;
    memset(&checks, 0, sizeof checks);
    if (l->checks) x.checks = &checks;
    x.grid_blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    uint32_t nthreads = l->block.x * l->block.y * l->block.z;
    uint32_t smem = l->dynamic_smem ? k->dyn_off + l->dynamic_smem : k->static_smem;
    ws_block b;     /* every block in turn, in the same storage */
    bool ok = ws_block_alloc(&b, k, nthreads, smem);
    if (!ok) ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory for launching kernel %s", p->funcs[k->func].shown);
    for (uint64_t bi = 0; ok && bi < x.grid_blocks; bi++) {
        if (!ws_block_begin(&x, &b, bi, (uint32_t)(bi % x.nsmid), 0)) {
            ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
            ok = false;
            break;
        }
        st.blocks++;
        st.warps += b.nwarps;
        x.blocks_started = bi + 1;      /* one block at a time */
        x.blocks_done = bi;
        ok = run_block(&x, &b);
    }
    ws_block_free(&b);
    free(x.bank_memo);
    ws_checks_summary(&x);
    if (stats) *stats = st;
    return ok;
}
