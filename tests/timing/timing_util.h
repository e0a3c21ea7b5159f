/* Helpers of the timing tests: PTX built in the test, the teaching GPU,
 * and a timed launch. */
#ifndef WARPSIM_TEST_TIMING_UTIL_H
#define WARPSIM_TEST_TIMING_UTIL_H

#include "../core/core_util.h"
#include "sim/base/gpu_config.h"
#include "sim/core/timing.h"

#define PTX_HEAD ".version 7.0\n.target sm_80\n.address_size 64\n"

/* Appends to a growing PTX text. */
typedef struct tbuf { char s[1 << 16]; size_t n; } tbuf;

__attribute__((format(printf, 2, 3)))
static inline void tb(tbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof b->s - b->n);
    b->n += (size_t)n;
}

static inline void tt_config(ws_gpu_config *g, const char *name)
{
    char err[512];
    if (ws_gpu_config_load(name, g, err, sizeof err) != 0) fail_msg("%s", err);
}

/* A timed launch of kernel name with regs registers per thread (0 =
 * estimate), optin: dynamic shared memory above the default limit;
 * fails the test on an error. */
static inline void tt_run_opt(tctx *t, const ws_gpu_config *g, const char *name, ws_dim3 grid,
                              ws_dim3 block, uint32_t dyn, int32_t regs, bool optin,
                              ws_timing_stats *ts)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    if (!k) fail_msg("no kernel %s", name);
    ws_launch l = {.grid = grid, .block = block, .dynamic_smem = dyn, .params = t->params,
                   .params_size = t->nparams};
    ws_timing_options o = ws_timing_defaults();
    o.regs_per_thread = regs;
    o.optin = optin;
    if (!ws_launch_timed(t->p, k, &l, g, &o, &t->st, ts, &t->err)) fail_msg("%s", t->err.msg);
}

static inline void tt_run(tctx *t, const ws_gpu_config *g, const char *name, ws_dim3 grid,
                          ws_dim3 block, uint32_t dyn, int32_t regs, ws_timing_stats *ts)
{
    tt_run_opt(t, g, name, grid, block, dyn, regs, false, ts);
}

/* The options of a launch on threads host threads (every cycle of two SMs
 * or more on them, so that their path is taken whatever the machine's
 * load), window cycles per window (0: warpsim's), 32 registers a thread. */
static inline ws_timing_options tt_threaded(int32_t threads, uint32_t window)
{
    ws_timing_options o = ws_timing_defaults();
    o.regs_per_thread = 32;
    o.threads = threads;
    o.threads_every_cycle = threads > 1;
    o.window_cycles = window;
    return o;
}

/* Two launches' counters equal: every one a summary shows, and the cycles
 * (not the loop's own counts, which windows change). */
static inline void tt_same_counters(const ws_launch_stats *sa, const ws_timing_stats *a, const ws_launch_stats *sb,
                                    const ws_timing_stats *b)
{
    assert_memory_equal(sa, sb, sizeof *sa);
    assert_int_equal(a->cycles, b->cycles);
    assert_int_equal(a->warp_insts, b->warp_insts);
    assert_memory_equal(a->stall, b->stall, sizeof a->stall);
    assert_memory_equal(a->pipe_busy, b->pipe_busy, sizeof a->pipe_busy);
    assert_int_equal(a->l1_hit_sectors, b->l1_hit_sectors);
    assert_int_equal(a->l2_sectors, b->l2_sectors);
    assert_int_equal(a->l2_hit_sectors, b->l2_hit_sectors);
    assert_int_equal(a->dram_bytes_read, b->dram_bytes_read);
    assert_int_equal(a->dram_bytes_written, b->dram_bytes_written);
    assert_int_equal(a->warp_cycles, b->warp_cycles);
    assert_int_equal(a->sm_active_cycles, b->sm_active_cycles);
    assert_int_equal(a->issue_slots, b->issue_slots);
}

static inline void tt_load(tctx *t, const tbuf *b)
{
    if (!t_load(t, b->s, "test.ptx")) fail_msg("load: %s", t->err.msg);
}

#endif
