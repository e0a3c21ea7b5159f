/* One launch as `warpsim run` and the runtime of `warpsim exec` make it:
 * the launch limits of the GPU (launch_check.h), then the kernel run
 * functionally or by the timing model.  Both front ends come here; what
 * differs between them (where arguments come from, what happens around
 * the launch) stays with them.  The summary after it is
 * ws_summary_write (sim/trace/summary.h). */
#ifndef WARPSIM_RUN_H
#define WARPSIM_RUN_H

#include <stdbool.h>
#include "launch_check.h"
#include "launch_reuse.h"
#include "sim.h"
#include "timing.h"

typedef struct ws_run_options {
    const ws_gpu_config *gpu;   /* the GPU; NULL only when functional (no GPU's limits then) */
    bool functional;            /* no timing model */
    int64_t max_dynamic_smem;   /* the kernel's dynamic shared limit, or WS_SMEM_LIMIT_* */
    /* The registers (resolved by kernel_regs.h; also checked against the
     * GPU), the trace, the cycle limit. */
    ws_timing_options timing;
} ws_run_options;

/* The launch limits for k with l under o: false with *err filled. */
bool ws_run_check(const ws_kernel *k, const ws_launch *l, const ws_run_options *o, ws_error *err);

/* Checks, then runs k with l.  st and ts are zeroed first (ts stays zero
 * when functional).  False with *err filled when it cannot launch or
 * faults. */
bool ws_run(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
            ws_launch_stats *st, ws_timing_stats *ts, ws_error *err);

/* Repeated-launch reuse around ws_run (launch_reuse.h, docs/REUSE.md). */
typedef struct ws_run_reuse {
    ws_reuse_cache *cache;      /* NULL: every launch simulated */
    uint64_t launch_no;         /* this launch's number (from 1), what a later reuse names */
    uint64_t reused_from;       /* out: 0 = simulated, else the launch whose results it took */
    bool other_inputs;          /* out: it read other values than launch reused_from, which cannot change
                                 * its timing: its outputs are its own, from a functional run */
    ws_reuse_miss miss;         /* out, when simulated: why the newest record of its key was not taken */
} ws_run_reuse;

/* ws_run, except that a timed launch identical to one recorded in
 * r->cache (same key, same bytes read) is not simulated: its outputs,
 * printf output and statistics are the recorded launch's, and
 * r->reused_from names it.  One that reads other values, where they cannot
 * change its timing (ws_reuse_find_timing), runs functionally for its
 * outputs and takes the statistics of the record (r->other_inputs).  A
 * simulated timed launch that may take part is recorded.  r NULL:
 * ws_run. */
bool ws_run_reusing(ws_program *p, const ws_kernel *k, const ws_launch *l, const ws_run_options *o,
                    ws_run_reuse *r, ws_launch_stats *st, ws_timing_stats *ts, ws_error *err);

#endif
