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
#include "trace_issue.h"
#include "warp.h"

typedef struct launch_mem {
    ws_warp *warps;
    uint64_t (*regs)[WS_WARP_SIZE];
    uint8_t *shared, *local, *tparam;
} launch_mem;

/* A step into the issue trace: each step one cycle, on the SM of %smid. */
static ws_step_result traced_step(ws_exec *x, ws_block *b, ws_warp *w)
{
    ws_step_info info;
    info.mem = false;
    int32_t pc = ws_warp_next_pc(w);
    uint64_t now = x->clock;
    ws_step_result r = ws_warp_step(x, b, w, &info);
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
            ws_step_result r = x->l->trace ? traced_step(x, b, w) : ws_warp_step(x, b, w, NULL);
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
    ws_racecheck race = {0};
    ws_initshadow init = {0};
    uint64_t nthreads = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t nblocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    uint32_t nwarps = (uint32_t)((nthreads + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
    uint64_t smem = (uint64_t)k->dyn_off + l->dynamic_smem;
    if (l->dynamic_smem == 0) smem = k->static_smem;
    launch_mem lm = {0};
    size_t rows = (size_t)ws_kernel_reg_rows(k);     /* per warp: the kernel's window only */
    size_t regbytes = sizeof *lm.regs * rows * nwarps;
    lm.warps = calloc(nwarps, sizeof *lm.warps);
    lm.regs = malloc(regbytes ? regbytes : 1);
    lm.shared = malloc(smem ? smem : 1);
    lm.local = malloc((size_t)k->local_size * nthreads + 1);       /* the kernel's windows */
    lm.tparam = malloc((size_t)k->tparam_size * nthreads + 1);
    bool ok = lm.warps && lm.regs && lm.shared && lm.local && lm.tparam;
    if (!ok) ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory for launching kernel %s", p->funcs[k->func].shown);

    for (uint64_t bi = 0; ok && bi < nblocks; bi++) {
        ws_block b = {
            .idx = {(uint32_t)(bi % l->grid.x), (uint32_t)(bi / l->grid.x % l->grid.y),
                    (uint32_t)(bi / ((uint64_t)l->grid.x * l->grid.y))},
            .nthreads = (uint32_t)nthreads, .nwarps = nwarps, .smid = (uint32_t)(bi % x.nsmid),
            .warpid0 = 0, .warps = lm.warps,
            .shared = lm.shared, .shared_size = (uint32_t)smem,
            .local = lm.local, .tparam = lm.tparam,
        };
        memset(lm.regs, 0, regbytes);
        memset(lm.shared, 0, smem);
        memset(lm.local, 0, (size_t)k->local_size * nthreads);
        memset(lm.tparam, 0, (size_t)k->tparam_size * nthreads);
        for (uint32_t wi = 0; ok && wi < nwarps; wi++) {
            uint32_t n = (uint32_t)(nthreads - (uint64_t)wi * WS_WARP_SIZE);
            uint32_t lanes = n >= WS_WARP_SIZE ? UINT32_MAX : (UINT32_C(1) << n) - 1;
            lm.warps[wi].regs = ws_reg_window(lm.regs + wi * rows, sizeof *lm.regs, k);
            ok = ws_warp_start(&x, &lm.warps[wi], wi, lanes);
        }
        if (!ok) { ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory"); break; }
        st.blocks++;
        st.warps += nwarps;
        x.blocks_started = bi + 1;      /* one block at a time */
        x.blocks_done = bi;
        if (((l->checks & WS_CHECK_RACE) && !ws_race_begin(&race, (uint32_t)smem)) ||
            ((l->checks & WS_CHECK_INIT) && !ws_init_begin(&init, (uint32_t)smem))) {
            ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
            ok = false;
            break;
        }
        b.race = race;
        b.init = init;
        ok = run_block(&x, &b);
        race = b.race;
        init = b.init;
    }
    for (uint32_t wi = 0; lm.warps && wi < nwarps; wi++) ws_warp_free(&lm.warps[wi]);
    free(lm.warps); free(lm.regs); free(lm.shared); free(lm.local); free(lm.tparam);
    ws_race_free(&race);
    ws_init_free(&init);
    ws_checks_summary(&x);
    if (stats) *stats = st;
    return ok;
}
