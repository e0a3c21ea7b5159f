/* The timed launch: set-up from the config, the main loop that advances
 * to the next cycle in which some SM can act, and the statistics. */
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#include "sm.h"
#include "sm_queue.h"
#include "sm_shelf.h"
#include "sm_team.h"
#include "progress_line.h"
#include "timing_window.h"
#include "../mem/coalescer.h"

/* The kind of a block that cannot launch, as launch_check.h reports it. */
static ws_error_kind occupancy_error_kind(const ws_occ_result *r)
{
    switch (r->error) {
    case WS_OCC_ERR_THREADS: return WS_ERR_LAUNCH_CONFIG;
    case WS_OCC_ERR_REGISTERS: return WS_ERR_LAUNCH_RESOURCES;
    case WS_OCC_ERR_SHARED_MEMORY: return WS_ERR_LAUNCH_SMEM;
    case WS_OCC_ERR_STATIC_SMEM: return WS_ERR_INPUT;
    case WS_OCC_OK: break;
    }
    /* no block fits though none of the above fails; else the dispatcher ran out of memory */
    return r->blocks_per_sm < 1 ? WS_ERR_LAUNCH_RESOURCES : WS_ERR_NO_MEMORY;
}

ws_timing_options ws_timing_defaults(void)
{
    return (ws_timing_options){.regs_per_thread = 0, .regs_estimated = false, .carveout = -1, .optin = false,
                               .sched_policy = -1, .max_cycles = 0, .trace = NULL, .timeline = NULL,
                               .threads = 1, .window_cycles = 0};
}

/* The [timing] keys the model reads; a config without one cannot be timed. */
static const char *missing_key(const ws_gpu_config *g)
{
#define NEED(k) if (g->k <= 0) return #k
    NEED(fp32LanesPerMultiprocessor); NEED(intLanesPerMultiprocessor);
    NEED(fp64LanesPerMultiprocessor); NEED(sfuLanesPerMultiprocessor);
    NEED(lsuLanesPerMultiprocessor); NEED(latencyFp32); NEED(latencyInt); NEED(latencySfu);
    NEED(latencyFp64); NEED(latencySharedLoad); NEED(latencyL1Hit); NEED(latencyL2Hit);
    NEED(latencyDram); NEED(latencyBranch); NEED(latencyTensor); NEED(tensorIssueInterval);
    NEED(latencyConstant); NEED(lsuQueueCycles); NEED(l1CacheSize); NEED(l1Associativity);
    NEED(l2Slices); NEED(l2Associativity); NEED(l2BytesPerCyclePerSlice); NEED(dramChannels);
    NEED(twoLevelActiveWarps);
#undef NEED
    return NULL;
}

/* Cycles a warp instruction holds a pipe of lanes lanes per SM. */
static uint32_t hold(const ws_gpu_config *g, int32_t lanes)
{
    int32_t per_sp = lanes / g->subPartitionsPerMultiprocessor;
    if (per_sp < 1) per_sp = 1;
    return (uint32_t)((g->warpSize + per_sp - 1) / per_sp);
}

static void derive(ws_tsim *s, const ws_gpu_config *g)
{
    uint32_t *lat = s->latency, *iv = s->interval;
    lat[WS_PIPE_FP32] = (uint32_t)g->latencyFp32;   iv[WS_PIPE_FP32] = hold(g, g->fp32LanesPerMultiprocessor);
    lat[WS_PIPE_INT] = (uint32_t)g->latencyInt;     iv[WS_PIPE_INT] = hold(g, g->intLanesPerMultiprocessor);
    lat[WS_PIPE_FP64] = (uint32_t)g->latencyFp64;   iv[WS_PIPE_FP64] = hold(g, g->fp64LanesPerMultiprocessor);
    lat[WS_PIPE_SFU] = (uint32_t)g->latencySfu;     iv[WS_PIPE_SFU] = hold(g, g->sfuLanesPerMultiprocessor);
    lat[WS_PIPE_TENSOR] = (uint32_t)g->latencyTensor; iv[WS_PIPE_TENSOR] = (uint32_t)g->tensorIssueInterval;
    lat[WS_PIPE_LSU] = (uint32_t)g->latencyL1Hit;   iv[WS_PIPE_LSU] = hold(g, g->lsuLanesPerMultiprocessor);
    /* bar, exit and the like: the next instruction of the warp may follow */
    lat[WS_PIPE_BRANCH] = 1;                         iv[WS_PIPE_BRANCH] = 1;
    s->lat_shared = (uint32_t)g->latencySharedLoad;
    s->lat_const = (uint32_t)g->latencyConstant;
    s->lat_branch = (uint32_t)g->latencyBranch;
    s->lsu_queue = (uint32_t)g->lsuQueueCycles;
}

static void finish_stats(ws_tsim *s, ws_sm *sms, int32_t nsm, const ws_gpu_config *g)
{
    ws_timing_stats *t = s->ts;
    t->launch_cycles = (uint64_t)g->launchOverheadCycles;
    t->cycles = s->end + t->launch_cycles;
    t->time_ns = (double)t->cycles * 1e6 / (double)g->clockRate;
    for (int32_t i = 0; i < nsm; i++) {
        t->l1_sectors += sms[i].l1.lookups;
        t->l1_hit_sectors += sms[i].l1.hits;
    }
    t->l2_sectors = s->l2->count.lookups;
    t->l2_hit_sectors = s->l2->count.hits;
    t->dram_bytes_read = s->l2->count.dram_read_sectors * WS_SECTOR_BYTES;
    t->dram_bytes_written = s->l2->count.dram_write_sectors * WS_SECTOR_BYTES;
    t->l1_hit_rate = t->l1_sectors ? (double)t->l1_hit_sectors / (double)t->l1_sectors : 0;
    t->l2_hit_rate = t->l2_sectors ? (double)t->l2_hit_sectors / (double)t->l2_sectors : 0;
    t->ipc = t->sm_active_cycles ? (double)t->warp_insts / (double)t->sm_active_cycles : 0;
    t->ipc_total = t->cycles ? (double)t->warp_insts / (double)t->cycles : 0;
    t->issue_slot_utilization = t->issue_slots ? (double)t->warp_insts / (double)t->issue_slots : 0;
    const ws_occ_result *o = &s->disp.occ;
    t->blocks_per_sm = o->blocks_per_sm;
    t->occupancy_theoretical = o->occupancy;
    t->occupancy_achieved = t->sm_active_cycles && o->max_warps
        ? (double)t->warp_cycles / (double)t->sm_active_cycles / (double)o->max_warps : 0;
    t->waves = (double)s->disp.nblocks / (double)ws_dispatcher_wave_size(&s->disp);
}

/* How many threads a launch's SMs run on: what the options ask for (0:
 * the machine's cores), no more than the SMs that can have a block, and one
 * where the kernel's code (its own and that of the functions it can call)
 * writes outside its memory in the order it runs (device printf, assert). */
static int32_t team_threads(const ws_timing_options *o, const ws_program *p, const ws_kernel *k, int32_t nsm,
                            uint64_t nblocks)
{
    int32_t n = ws_threads_or_cores(o->threads);
    if (n > nsm) n = nsm;
    if ((uint64_t)n > nblocks) n = (int32_t)nblocks;
    if (n > WS_SM_TEAM_MAX_THREADS) n = WS_SM_TEAM_MAX_THREADS;
    if (n > 1)
        WS_FOR_KERNEL_PCS(p, k, i)
            if (p->code[i].cls == WS_I_PRINTF || p->code[i].cls == WS_I_ASSERT) return 1;
    return n > 1 ? n : 1;
}

static bool cycle_limit(ws_tsim *s, uint64_t now, uint64_t max_cycles)
{
    if (!max_cycles || now <= max_cycles) return false;
    ws_error_set(s->x.err, WS_ERR_TIMEOUT, "launch timed out: cycle limit exceeded (%llu cycles, --max-cycles) in kernel %s",
                 (unsigned long long)max_cycles, s->x.p->funcs[s->x.k->func].shown);
    return true;
}

/* The main loop in windows of w cycles (timing_window.h): from the earliest
 * cycle any SM has something to do, the window's SMs run on the team. */
static bool run_windows(ws_tsim *s, ws_sm_team *team, uint32_t w, uint64_t max_cycles, const ws_launch *l)
{
    ws_sm_team_use_windows(team, w, max_cycles);
    for (;;) {
        uint64_t start, end;
        if (!ws_sm_team_next_window(team, &start, &end)) return !s->trace || ws_sm_team_trace_rest(team);
        if (cycle_limit(s, start, max_cycles)) {
            if (s->trace) ws_sm_team_trace_rest(team);
            return false;
        }
        s->ts->loop_iterations++;
        if (!ws_sm_team_window(team)) return false;
        if (l->progress)
            ws_progress_line_poll(l->progress, &(ws_progress_state){.blocks_done = s->x.blocks_done,
                                  .blocks_total = s->x.grid_blocks, .cycles = end, .warp_insts = team->steps});
    }
}

bool ws_launch_timed(ws_program *p, const ws_kernel *k, const ws_launch *l,
                     const ws_gpu_config *cfg, const ws_timing_options *o,
                     ws_launch_stats *stats, ws_timing_stats *ts, ws_error *err)
{
    ws_timing_options opt = o ? *o : ws_timing_defaults();
    ws_launch_stats st;
    ws_timing_stats tst;
    memset(&st, 0, sizeof st);
    memset(&tst, 0, sizeof tst);
    err->msg[0] = '\0';
    err->kind = WS_ERR_NONE;
    if (!ws_launch_check(p, k, l, err)) return false;
    const char *miss = missing_key(cfg);
    if (miss) {
        ws_error_set(err, WS_ERR_INPUT, "GPU config '%s' has no [timing] key '%s'", cfg->name, miss);
        return false;
    }

    ws_tsim s;
    ws_l2_dram own_l2;
    memset(&s, 0, sizeof s);
    memset(&own_l2, 0, sizeof own_l2);
    ws_l2_dram *l2 = opt.l2_kept ? opt.l2_kept : &own_l2;
    s.l2 = l2;
    s.sm_kept = opt.sm_kept;
    s.g = cfg;
    s.ts = &tst;
    s.trace = opt.trace;
    s.timeline = opt.timeline;
    s.x = (ws_exec){.p = p, .k = k, .l = l, .stats = &st, .err = err, .trace_addrs = opt.trace != NULL,
                    .out = l->printf_out ? l->printf_out : stdout,
                    .nsmid = (uint32_t)cfg->multiProcessorCount,
                    .nwarpid = (uint32_t)(cfg->maxThreadsPerMultiProcessor / WS_WARP_SIZE)};
    ws_watchdog_start(&s.x);
    ws_check_log checks;
    memset(&checks, 0, sizeof checks);
    if (l->checks) s.x.checks = &checks;
    derive(&s, cfg);
    s.policy = opt.sched_policy >= 0 ? (ws_sched_policy)opt.sched_policy : (ws_sched_policy)cfg->warpScheduler;
    s.two_level_active = (uint32_t)cfg->twoLevelActiveWarps;
    s.nthreads = l->block.x * l->block.y * l->block.z;
    s.nwarps = (s.nthreads + WS_WARP_SIZE - 1) / WS_WARP_SIZE;
    s.smem = l->dynamic_smem ? k->dyn_off + l->dynamic_smem : k->static_smem;
    uint64_t nblocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    s.grid_warps = nblocks * s.nwarps;
    s.x.grid_blocks = nblocks;

    tst.regs_per_thread = opt.regs_per_thread > 0 ? opt.regs_per_thread : ws_estimate_regs(p, k);
    tst.regs_estimated = opt.regs_per_thread <= 0 || opt.regs_estimated;
    ws_occ_input occ = {
        .threads = (int32_t)s.nthreads, .regs = tst.regs_per_thread,
        .static_smem = k->static_smem, .dynamic_smem = l->dynamic_smem,
        .carveout = opt.carveout, .optin = opt.optin, .regs_estimated = tst.regs_estimated,
    };
    int32_t nsm = cfg->multiProcessorCount;
    ws_sm *sms = NULL;
    ws_insn_deps *deps = NULL;
    bool ok = ws_dispatcher_init(&s.disp, cfg, &occ, nblocks, err->msg, sizeof err->msg);
    if (!ok) err->kind = occupancy_error_kind(&s.disp.occ);
    if (ok) {
        /* for the kernel's code window only, whatever else its module holds */
        deps = malloc(sizeof *deps * (size_t)(k->code_hi > k->code_lo ? k->code_hi - k->code_lo : 1));
        s.deps = deps ? ws_index_window(deps, sizeof *deps, k->code_lo) : NULL;
        sms = aligned_alloc(_Alignof(ws_sm), sizeof *sms * (size_t)nsm);     /* a multiple of the alignment */
        if (sms) memset(sms, 0, sizeof *sms * (size_t)nsm);
        ok = s.deps && sms && (opt.l2_kept ? ws_l2_init_again(l2, cfg) : ws_l2_init(l2, cfg));
        if (!ok) ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory for timing kernel %s",
                          p->funcs[k->func].shown);
    }
    if (ok)
        WS_FOR_KERNEL_PCS(p, k, i) ws_insn_deps_of(p, &p->code[i], &s.deps[i]);
    for (int32_t i = 0; sms && i < nsm; i++) {
        sms[i].id = i;
        sms[i].next = WS_NEVER;
    }

    /* what a launch's SM slots are made for: the kept ones of another
     * shape go before any is made */
    ws_sm_shape shape = ok ? ws_sm_shape_of(&s) : (ws_sm_shape){0};
    if (ok) ws_sm_shelf_fit_slots(s.sm_kept, &shape);
    /* first wave: deal blocks round-robin over the SMs (placed: in windows
     * the thread that runs an SM first sets its blocks up) */
    for (bool placed = ok; ok && placed;) {
        placed = false;
        for (int32_t i = 0; ok && i < nsm; i++) {
            int64_t b = ws_dispatcher_place(&s.disp, i);
            if (b < 0) continue;
            placed = true;
            ok = ws_sm_place_block(&s, &sms[i], (uint64_t)b, 0);
            if (!ok) ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        }
    }
    /* the main loop: the earliest cycle any SM has something to do; its
     * SMs (due, ascending) retire, then issue, on the team's threads.  q:
     * the busy SMs by their next cycle, then their index (the order the
     * SMs of one cycle go in), so that the loop never looks at an idle SM;
     * an SM's next changes only in its own cycle, while it is out of q */
    ws_sm_agenda q = {.later = {.heap = ok ? malloc(sizeof *q.later.heap * (size_t)nsm) : NULL},
                      .ring = ok ? calloc(WS_AGENDA_CYCLES * WS_AGENDA_WORDS(nsm), sizeof *q.ring) : NULL,
                      .nw = (uint32_t)WS_AGENDA_WORDS(nsm)};
    int32_t *due = ok ? malloc(sizeof *due * (size_t)nsm) : NULL;
    int32_t nthreads = ok ? team_threads(&opt, p, k, nsm, nblocks) : 1;
    /* before the team, whose threads copy s.x */
    ws_apart apart = {.n = 0};
    bool own_writes = false;
    ws_window_reason why = {.why = WS_WHY_IN_WINDOWS, .pc = -1};
    uint32_t window = ok ? ws_window_cycles(p, k, l, &opt, cfg, &apart, &own_writes, &why) : 1;
    s.x.apart = ok && apart.n ? &apart : NULL;
    s.own_writes = window > 1 && own_writes;
    for (int32_t i = 0; ok && window == 1 && i < nsm; i++) ok = ws_sm_begin_placed(&s, &sms[i]);
    ws_sm_team team;
    bool have_team = ok && ws_sm_team_init(&team, &s, sms, nthreads, nblocks, opt.threads_every_cycle, opt.pool);
    if (ok && (!q.later.heap || !q.ring || !due || !have_team)) {
        ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        ok = false;
    }
    if (ok && window > 1) {
        ok = run_windows(&s, &team, window, opt.max_cycles, l);
    }
    for (int32_t i = 0; ok && window == 1 && i < nsm; i++)
        if (sms[i].next != WS_NEVER) ws_sm_queue_push(&q.later, (ws_sm_entry){.next = sms[i].next, .id = i});
    while (ok && !ws_sm_agenda_empty(&q)) {
        uint64_t now = ws_sm_agenda_first(&q);
        if (cycle_limit(&s, now, opt.max_cycles)) {
            ok = false;
            break;
        }
        tst.loop_iterations++;
        int32_t ndue = ws_sm_agenda_take(&q, now, due);
        for (int32_t j = 0; ok && j < ndue; j++)
            if (team.brief[due[j]].finished) ok = ws_sm_retire(&s, &sms[due[j]], now);
        if (ok) ok = ws_sm_team_cycle(&team, due, ndue, now);
        for (int32_t j = 0; ok && j < ndue; j++)
            if (team.brief[due[j]].next != WS_NEVER) ws_sm_agenda_put(&q, due[j], team.brief[due[j]].next);
        if (l->progress && (tst.loop_iterations & 0x3ff) == 0)
            ws_progress_line_poll(l->progress, &(ws_progress_state){.blocks_done = s.x.blocks_done,
                                  .blocks_total = s.x.grid_blocks, .cycles = now, .warp_insts = team.steps});
    }
    /* a launch ends when its every block has run: one that stops short
     * is the engine's error, never a result */
    if (ok && s.x.blocks_done != nblocks) {
        ws_error_set(err, WS_ERR_KERNEL_FAULT, "internal error: the launch of %s ended with %llu of its %llu blocks run",
                     p->funcs[k->func].shown, (unsigned long long)s.x.blocks_done, (unsigned long long)nblocks);
        ok = false;
    }
    /* the L2's dirty sectors counted as written back */
    if (ok) ws_l2_flush(l2);
    for (int32_t i = 0; sms && i < nsm; i++) ws_sm_credit_lines(&s, &sms[i]);
    if (have_team) ws_sm_team_free(&team, &st, &tst);
    tst.host.window_cycles = window;
    tst.host.cycle_by_cycle = why;
    free(q.later.heap);
    free(q.ring);
    free(due);
    if (ok) finish_stats(&s, sms, nsm, cfg);
    ws_checks_summary(&s.x);
    tst.check_findings = checks.total;
    tst.check_distinct = checks.nseen;
    tst.check_uninit_global = checks.uninit_global;
    for (int32_t i = 0; sms && i < nsm; i++) {
        ws_sm_shelf_put_back(s.sm_kept, &sms[i]);
        if (ok) ws_sm_shelf_put_back_slots(s.sm_kept, &sms[i], &shape);
        ws_sm_free(&sms[i]);
    }
    free(sms);
    free(deps);
    free(s.x.bank_memo);
    ws_l2_free(&own_l2);
    ws_dispatcher_free(&s.disp);
    if (stats) *stats = st;
    if (ts) *ts = tst;
    return ok;
}
