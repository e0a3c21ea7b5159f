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

#include "gpu_config.h"
#include "pipe.h"
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
    struct ws_trace *trace;     /* issue trace (sim/trace/trace.h), NULL = none */
    /* issues binned per SM for the HTML report (sim/trace/issue_timeline.h),
     * NULL = none */
    struct ws_issue_timeline *timeline;
} ws_timing_options;

/* Default options: regs estimated, default carve-out, config's policy. */
ws_timing_options ws_timing_defaults(void);

/* Why a resident warp did not issue in a cycle, one count per warp per
 * cycle, named after Nsight Compute's smsp__pcsamp_warps_issue_stalled_*. */
typedef enum ws_stall {
    WS_STALL_SELECTED,          /* it issued */
    WS_STALL_NOT_SELECTED,      /* it could have; another warp of its scheduler did */
    WS_STALL_WAIT,              /* a fixed-latency (ALU) dependency */
    WS_STALL_SHORT_SCOREBOARD,  /* waits on shared memory, SFU, constant cache */
    WS_STALL_LONG_SCOREBOARD,   /* waits on L1TEX: global or local memory */
    WS_STALL_MATH_PIPE_THROTTLE,/* its math pipe is busy with earlier instructions */
    WS_STALL_LG_THROTTLE,       /* the LSU is full with global/local accesses */
    WS_STALL_MIO_THROTTLE,      /* the LSU is full with shared/constant accesses */
    WS_STALL_BARRIER,           /* at bar.sync, waiting for the block */
    WS_STALL_BRANCH_RESOLVING,  /* after a branch, its target not yet known */
    WS_STALL_DRAIN,             /* exited, waiting for its memory writes */
    WS_STALL_COUNT
} ws_stall;
_Static_assert(WS_STALL_COUNT == WS_PC_STALL_KINDS, "ws_pc_counts has a slot per stall reason");

/* "long_scoreboard" ... and the full Nsight Compute metric name. */
const char *ws_stall_name(ws_stall s);
const char *ws_stall_metric(ws_stall s);

typedef struct ws_timing_stats {
    uint64_t cycles;                /* launch to the last block's end, launch_cycles included */
    uint64_t launch_cycles;         /* the config's fixed cost of a launch (launchOverheadCycles) */
    double time_ns;                 /* cycles at the config's clockRate */
    uint64_t warp_insts;            /* issued (smsp__inst_executed.sum) */
    double ipc;                     /* warp instructions per active cycle per SM (sm__inst_executed.avg.per_cycle_active) */
    double ipc_total;               /* warp instructions per cycle, whole GPU */
    int32_t regs_per_thread;        /* what the occupancy rule was given */
    bool regs_estimated;            /* ... estimated from the PTX, not given */
    int32_t blocks_per_sm;          /* the occupancy rule */
    double occupancy_theoretical;   /* active warps the rule allows / max warps */
    double occupancy_achieved;      /* average active warps per active cycle per SM / max */
    double waves;                   /* blocks / (blocks_per_sm * SMs) */
    uint64_t sm_active_cycles;      /* summed over SMs: cycles with a resident warp */
    uint64_t warp_cycles;           /* summed over SMs: resident warps per cycle */
    uint64_t issue_slots;           /* sub-partition cycles while its SM was active */
    double issue_slot_utilization;  /* warp_insts / issue_slots */
    uint64_t l1_sectors, l1_hit_sectors;    /* global/local loads looked up in L1 */
    uint64_t l1_wavefronts;         /* L1 data-stage cycles (lines of global, bank passes of shared) */
    uint64_t l2_sectors, l2_hit_sectors;    /* reads, writes and atomics at L2 */
    double l1_hit_rate, l2_hit_rate;        /* of sectors; 0 when none */
    uint64_t dram_bytes_read, dram_bytes_written;
    uint64_t pipe_busy[WS_PIPE_COUNT];     /* cycles each pipe was held, summed over sub-partitions */
    uint64_t pipe_insts[WS_PIPE_COUNT];    /* warp instructions per pipe */
    uint64_t stall[WS_STALL_COUNT];         /* warp-cycles per reason */
    /* the simulator's own work, to show that idle cycles are skipped */
    uint64_t loop_iterations;       /* times the main loop advanced to a new cycle */
    uint64_t sm_steps;              /* SM-cycles simulated (<= cycles * SMs) */
} ws_timing_stats;

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
