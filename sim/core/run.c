/* The one launch path (run.h). */
#include "run.h"

#include <stdlib.h>
#include <string.h>
#include "checks.h"
#include "program.h"
#include "sm_team.h"     /* ws_threads_or_cores */
#include "value_steer.h"

bool ws_run_check(const ws_kernel *k, const ws_launch *l, const ws_run_options *o, ws_error *err)
{
    ws_launch_limits lim = {
        .gpu = o->gpu, .max_dynamic_smem = o->max_dynamic_smem,
        .regs_per_thread = o->timing.regs_per_thread, .carveout = o->timing.carveout,
    };
    return ws_launch_check_limits(k, l, &lim, err);
}

static void run_begin(ws_launch_stats *st, ws_timing_stats *ts, ws_error *err)
{
    memset(st, 0, sizeof *st);
    memset(ts, 0, sizeof *ts);
    err->msg[0] = '\0';
    err->kind = WS_ERR_NONE;
}

bool ws_run(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
            ws_launch_stats *st, ws_timing_stats *ts, ws_error *err)
{
    run_begin(st, ts, err);
    if (!ws_run_check(k, l, o, err)) return false;
    if (o->functional || !o->gpu) return ws_launch_kernel(p, k, l, st, err);
    return ws_launch_timed(p, k, l, o->gpu, &o->timing, st, ts, err);
}

/* A timed launch simulated and recorded: its device printf output is
 * captured (and passed on) so that a reuse can print it again, and its
 * per-instruction counters, where the launch keeps them, are counted
 * apart (and added on) so that a reuse can add them again. */
static bool run_recorded(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
                         ws_run_reuse *r, const ws_reuse_key *key, ws_launch_stats *st,
                         ws_timing_stats *ts, ws_error *err)
{
    FILE *out = l->printf_out ? l->printf_out : stdout;
    char *printed = NULL;
    size_t nprinted = 0;
    size_t nlines = l->pc_counts ? ws_program_code_size(p) : 0;
    ws_pc_counts *lines = nlines ? calloc(nlines, sizeof *lines) : NULL;
    FILE *capture = !nlines || lines ? open_memstream(&printed, &nprinted) : NULL;
    ws_reuse_recorder *rec = capture ? ws_reuse_record_begin(r->cache, p->mem) : NULL;
    if (!rec) {     /* out of memory: simulated, not recorded */
        if (capture) fclose(capture);
        free(printed);
        free(lines);
        return ws_launch_timed(p, k, l, o->gpu, &o->timing, st, ts, err);
    }
    ws_launch captured = *l;
    captured.printf_out = capture;
    if (lines) captured.pc_counts = lines;
    bool ok = ws_launch_timed(p, k, &captured, o->gpu, &o->timing, st, ts, err);
    bool closed = fclose(capture) == 0;
    if (nprinted) fwrite(printed, 1, nprinted, out);
    if (lines) ws_pc_counts_add(l->pc_counts, lines, nlines, false);
    ws_reuse_key own = *key;
    own.l = &captured;      /* the counters this launch added */
    /* a checked launch's findings are all among those shown (a repeat
     * shows none of them again) unless the list of them is full; under
     * initcheck, a launch that read global memory never written is not
     * kept (a repeat's reads are matched by value, and must find every
     * byte written: launch_reuse.h) */
    bool shown = !l->checks || l->checks_shown->n < WS_CHECK_SHOWN_MAX;
    bool initialized = !(l->checks & WS_CHECK_INIT) || !ts->check_uninit_global;
    ws_reuse_record_end(rec, ok && closed && shown && initialized, &own, r->launch_no, st, ts, printed, nprinted,
                        ws_threads_or_cores(o->timing.threads), o->timing.pool);
    free(printed);
    free(lines);
    return ok;
}

/* A launch whose key has a record but which reads other values: where
 * they cannot change its timing (ws_reuse_find_timing, value_steer.h),
 * its outputs come from a functional run, its blocks apart on the
 * launch's threads, and its timing from the record.  The functional run
 * must count what the recorded launch counted, counter for counter, and
 * meet no fault, before any of its stores is made; else the analysis
 * missed something, which a note on stderr says, and the launch is
 * simulated (*taken false), memory as it was.  So is one whose blocks'
 * threads pass values through shared memory unordered by barriers.
 * False with *err filled when it ran out of memory making its stores. */
static bool run_other_inputs(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
                             ws_run_reuse *r, const ws_reuse_key *key, ws_launch_stats *st, ws_timing_stats *ts,
                             ws_error *err, bool *taken)
{
    int32_t pc;
    ws_launch_stats want;
    ws_timing_stats lent;
    bool ordered;
    *taken = false;
    if (ws_kernel_steered_by_values(p, k, &pc)) return true;
    uint64_t from = ws_reuse_find_timing(r->cache, key, &want, &lent, &ordered);
    if (!from) return true;
    /* a barrier that names its thread count orders only some warps, which
     * racecheck's intervals between barriers do not tell */
    if (want.shared_st.requests && k->counted_barriers) return true;
    /* threads of a block that share values through shared memory do so in
     * an order of their own where no barrier orders them: such a block's
     * values may depend on the timing, and racecheck and synccheck,
     * run quietly, find it (WS_APART_FOUND: simulated); once, for the
     * first launch the record lends its timing to */
    uint32_t quiet = want.shared_st.requests && !ordered ? WS_CHECK_RACE | WS_CHECK_SYNC : 0;
    /* counted per instruction: the record's counters (the same
     * instructions, lanes, addresses and cycles), not the run's */
    ws_launch run = *l;
    run.pc_counts = NULL;
    ws_apart_result a = ws_launch_kernel_apart(p, k, &run, &want, quiet, st, err,
                                               ws_threads_or_cores(o->timing.threads), o->timing.pool);
    if (a == WS_APART_OTHER || (a == WS_APART_FAULT && err->kind != WS_ERR_NO_MEMORY))
        fprintf(stderr,
                "warpsim: note: kernel %s read other values than launch %llu, which should not change its timing, "
                "but its functional run %s (%llu warp instructions and %llu global sectors read, against %llu and "
                "%llu): simulated instead\n",
                p->funcs[k->func].shown, (unsigned long long)from,
                a == WS_APART_OTHER ? "counted other instructions or accesses" : "met a fault",
                (unsigned long long)st->warp_insts, (unsigned long long)st->global_ld.sectors,
                (unsigned long long)want.warp_insts, (unsigned long long)want.global_ld.sectors);
    if (a != WS_APART_DONE && !(a == WS_APART_FAULT && err->kind == WS_ERR_NO_MEMORY)) return true;
    *taken = true;
    if (a != WS_APART_DONE) return false;
    if (quiet) ws_reuse_note_shared_ordered(r->cache, from);
    *ts = lent;
    ws_reuse_lend_lines(r->cache, from, l->pc_counts);
    r->reused_from = from;
    r->other_inputs = true;
    r->miss = (ws_reuse_miss){0};
    return true;
}

bool ws_run_reusing(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
                    ws_run_reuse *r, ws_launch_stats *st, ws_timing_stats *ts, ws_error *err)
{
    if (!r || !r->cache || o->functional || !o->gpu || ws_reuse_refusal(l, &o->timing))
        return ws_run(p, k, l, o, st, ts, err);
    run_begin(st, ts, err);
    r->reused_from = 0;
    r->other_inputs = false;
    if (!ws_run_check(k, l, o, err)) return false;
    ws_reuse_key key = {.p = p, .k = k, .gpu = o->gpu, .l = l, .timing = &o->timing};
    bool oom;
    r->reused_from = ws_reuse_find(r->cache, p->mem, &key, l->printf_out ? l->printf_out : stdout,
                                   st, ts, &oom, &r->miss);
    if (r->reused_from) {
        /* what the launch simulated would report: its findings, every one
         * shown by the launch it reuses */
        if (l->checks && ts->check_findings)
            ws_checks_summary_line(l->report_out ? l->report_out : stderr, p->funcs[k->func].shown,
                                   ts->check_findings, 0, ts->check_distinct);
        return true;
    }
    if (oom) {
        ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory writing the outputs of kernel %s",
                     p->funcs[k->func].shown);
        return false;
    }
    bool taken;
    if (r->miss.launch_no && !r->miss.freed) {
        bool ok = run_other_inputs(p, k, l, o, r, &key, st, ts, err, &taken);
        if (taken) return ok;
        run_begin(st, ts, err);     /* what the look left there */
    }
    return run_recorded(p, k, l, o, r, &key, st, ts, err);
}
