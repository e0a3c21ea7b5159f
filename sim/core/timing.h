/* The timed launch: the functional executor driven by a cycle-level model
 * of the GPU that a config describes (docs/ARCHITECTURE.md, "The timing model").
 *
 * Blocks go to SMs as the dispatcher (sim/sched/dispatcher.h) places them;
 * each SM's sub-partitions issue at most one warp instruction per cycle,
 * chosen by the config's warp-scheduling policy among the warps whose
 * registers are ready (scoreboard) and whose pipe is free.  An instruction
 * executes functionally when it issues; its result is ready a pipe latency
 * later (ALU) or when the memory hierarchy answers (shared-memory banks,
 * L1, L2 slices, DRAM channels).  Cycles in which no SM can issue are
 * skipped in one step.  Every latency, width and size is read from the
 * config. */
#ifndef WARPSIM_TIMING_H
#define WARPSIM_TIMING_H

#include "../base/gpu_config.h"
#include "../base/pipe.h"
#include "../base/stats.h"
#include "sim.h"

typedef struct ws_timing_options {
    /* Registers per thread for the occupancy rule, as the register policy
     * (kernel_regs.h) resolved them; 0 = estimate from the PTX here
     * (ws_estimate_regs).  regs_estimated: the number given is such an
     * estimate, and the statistics say so. */
    int32_t regs_per_thread;
    bool regs_estimated;
    int32_t carveout;           /* shared-memory carve-out percent, -1 = default */
    bool optin;                 /* dynamic shared memory above 48 KB allowed */
    int32_t sched_policy;       /* ws_sched_policy, -1 = the config's warpScheduler */
    uint64_t max_cycles;        /* 0 = no limit; past it the launch faults */
    /* Threads the SMs run on (sm_team.h), 0 = the machine's cores; the
     * results are the same for any number. */
    int32_t threads;
    /* Tests: every cycle with SMs for two threads or more runs on the
     * threads (else the team measures which way is faster), and in a
     * window an SM that runs after a thread began to answer its requests
     * waits for that thread at each of its marks (sm_team.c), so that
     * they are answered so on any machine. */
    bool threads_every_cycle;
    /* Cycles each SM runs on its own before the SMs meet
     * (timing_window.h): 0 = warpsim's choice, 1 = cycle by cycle. */
    uint32_t window_cycles;
    struct ws_trace *trace;     /* issue trace (sim/trace/trace.h), NULL = none */
    /* issues binned per SM for the HTML report (sim/trace/issue_timeline.h),
     * NULL = none */
    struct ws_issue_timeline *timeline;
    /* An L2 kept between launches by the caller (ws_l2_init_again), whose
     * pages stay made; NULL: the launch makes its own.  The results are
     * the same either way. */
    struct ws_l2_dram *l2_kept;
    /* Each SM's L1 and load/store queue kept so too (sm_shelf.h); NULL:
     * each launch makes its own. */
    struct ws_sm_shelf *sm_kept;
    /* Threads kept between launches by the caller (thread_pool.h); NULL:
     * the launch starts its own. */
    struct ws_thread_pool *pool;
} ws_timing_options;

/* Default options: regs estimated, default carve-out, config's policy. */
ws_timing_options ws_timing_defaults(void);

/* Runs kernel k with launch l on the GPU cfg describes, functionally as
 * ws_launch_kernel does (same results, same faults, same ws_launch_stats)
 * and in time.  cfg must have every [timing] key (the configs/ files do);
 * o may be NULL (defaults); stats and ts may be NULL.  False with *err
 * filled on a fault, a block that cannot launch, a missing timing key, or
 * max_cycles exceeded. */
bool ws_launch_timed(ws_program *p, const ws_kernel *k, const ws_launch *l,
                     const ws_gpu_config *cfg, const ws_timing_options *o,
                     ws_launch_stats *stats, ws_timing_stats *ts, ws_error *err);

/* An estimate of the registers per thread ptxas would allocate for k: the
 * most 32-bit registers live at once in the kernel's code (64-bit ones
 * count two, predicates none), a register being live from its first to
 * its last mention and across any loop it is mentioned in, plus 2 for the
 * ABI; at least 16, at most the config's limit of 255.  An estimate only:
 * give the real number (ptxas -v) where it matters. */
int32_t ws_estimate_regs(const ws_program *p, const ws_kernel *k);

#endif
