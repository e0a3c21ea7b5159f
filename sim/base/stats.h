/* What a launch counts: the functional counters every launch keeps, the
 * per-instruction counters of the per-line view, and the timing model's
 * statistics and stall reasons.  Producers (sim/core) fill them; the
 * reports (sim/trace), the command line and the runtime read them. */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pipe.h"

/* The stall reasons a timed launch tells apart (ws_stall, below). */
#define WS_PC_STALL_KINDS 11

/* Counters of one instruction (pc) of a program, added to by every launch
 * that is given them (ws_launch.pc_counts): what sim/trace/lines.h sums
 * per source line.  Same meanings as ws_launch_stats's. */
typedef struct ws_pc_counts {
    uint64_t warp_insts, thread_insts;
    uint64_t branches, divergent_branches;
    uint64_t shared_requests[3], shared_wavefronts[3], shared_bank_conflicts[3];   /* ld, st, atom */
    uint64_t global_requests[3], global_sectors[3];                                  /* ld, st, atom */
    /* Sectors the global requests would take were each request's lanes
     * to touch consecutive, 32 B aligned bytes: ceil(lanes * size / 32). */
    uint64_t global_ideal_sectors[3];
    /* Address step from one lane to the next in the first global access
     * with two lanes or more (between its two lowest lanes; stride_known):
     * explains a poor sectors per request. */
    int64_t lane_stride;
    uint32_t stride_known, access_size;
    /* The cycle and SM of the access that set lane_stride, where the
     * counters are a timed launch's thread's own: its threads' counters
     * merged keep the earliest (by cycle, then SM), the access one thread
     * running the SMs cycle by cycle meets first. */
    uint64_t stride_cycle;
    uint32_t stride_sm;
    uint64_t stall[WS_PC_STALL_KINDS];  /* warp-cycles a warp stood at this pc, per ws_stall */
    /* Timed only: sectors of this pc's global and local accesses looked up
     * in L1 (loads) and at L2 (L1 misses, stores, atomics), and how many
     * hit; as ws_timing_stats's l1_ and l2_ counters, per pc. */
    uint64_t l1_sectors, l1_hit_sectors, l2_sectors, l2_hit_sectors;
} ws_pc_counts;

enum { WS_ACC_LD, WS_ACC_ST, WS_ACC_ATOM };

/* Memory counters of one kind of access (loads, stores or atomics). */
typedef struct ws_shared_counts {
    uint64_t requests;          /* warp-level instructions that accessed shared memory */
    uint64_t wavefronts, bank_conflicts;
} ws_shared_counts;

typedef struct ws_global_counts {
    uint64_t requests, sectors, lines;  /* lines: 128 B, the course's "transactions" */
} ws_global_counts;

typedef struct ws_launch_stats {
    uint64_t warp_insts;        /* warp-level instructions issued (smsp__inst_executed.sum) */
    uint64_t thread_insts;      /* sum of active lanes over those (smsp__thread_inst_executed.sum) */
    uint64_t branches, divergent_branches;
    uint64_t blocks, warps;
    /* Shared memory (ld/st/atom/red .shared and generic addresses that fall
     * in shared memory), by the bank rule of sim/mem/shared_banks.h:
     * l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st,atom}.sum and
     * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,atom}.sum.
     * atom counts atom and red. */
    ws_shared_counts shared_ld, shared_st, shared_atom;
    /* Global memory (.global and generic addresses that fall there), by the
     * rule of sim/mem/coalescer.h: l1tex__t_requests_pipe_lsu_mem_global_op_*
     * and l1tex__t_sectors_pipe_lsu_mem_global_op_*, plus 128 B lines. */
    ws_global_counts global_ld, global_st, global_atom;
    /* ld.const: requests, and distinct addresses summed over them (the
     * constant cache serves one address at a time, broadcast to the lanes
     * that read it). */
    uint64_t const_requests, const_addresses;
    /* Warp-synchronous operations that executed without every lane of
     * their membermask (undefined in the PTX ISA; docs/SEMANTICS.md). */
    uint64_t warpsync_partial;
} ws_launch_stats;

/* to += from, counter by counter (a timed launch on several threads keeps
 * one set per thread and adds them up at the end). */
void ws_launch_stats_add(ws_launch_stats *to, const ws_launch_stats *from);

/* to[i] += from[i] for n pcs, counter by counter.  The stride: from's
 * where to has none, or, with earliest, where from's access came first
 * (stride_cycle, then stride_sm). */
void ws_pc_counts_add(ws_pc_counts *to, const ws_pc_counts *from, size_t n, bool earliest);

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

/* Why a timed launch ran cycle by cycle rather than in windows of cycles
 * (sim/core/timing_window.h: ws_window_cycles, ws_window_reason_text):
 * the options, or what in the kernel's code, at pc (-1: no instruction). */
typedef enum ws_window_why {
    WS_WHY_IN_WINDOWS,          /* it did not */
    WS_WHY_ASKED,               /* --window 1 */
    WS_WHY_CALL, WS_WHY_PRINTF, WS_WHY_ASSERT, WS_WHY_FENCE,
    WS_WHY_GENERIC_ATOMIC, WS_WHY_GENERIC_STORE, WS_WHY_GENERIC_WMMA_STORE,
    WS_WHY_VOLATILE_STORE, WS_WHY_VOLATILE_LOAD,
    WS_WHY_UNCHECKED_LOAD,      /* a texture, cp.async or wmma load that may follow a store */
    WS_WHY_WMMA_STORE_LOADED,   /* a wmma.store that a load may follow */
    WS_WHY_ATOMIC_NOT_APART     /* loads after stores, pointers not apart, and a global atomic */
} ws_window_why;

typedef struct ws_window_reason {
    uint8_t why;                /* ws_window_why */
    int32_t pc;
} ws_window_reason;

/* Where a timed launch's windows of cycles spent the host's time
 * (docs/THREADS.md), for --host-times (sim/trace/host_times.h): wall
 * clock, so never part of the summary, which is the same on any number of
 * threads. */
typedef struct ws_window_times {
    uint64_t windows;           /* windows whose SMs ran on the threads */
    uint64_t sms_ns;            /* their SMs' part: from the threads' start to the last SM's end */
    uint64_t busiest_ns;        /* of it, each window's longest SM window, summed */
    uint64_t sm_windows_ns;     /* every SM's window, summed over SMs and windows (their threads' work) */
    uint64_t ends_ns;           /* their ends: the merges and the settling of blocks */
    uint64_t settle_ns;         /* of them, the calling thread's settling of blocks */
    uint64_t end_wait_ns;       /* ... and its wait for the other threads' part (requests, writes) */
    uint64_t alone_windows;     /* windows run on the calling thread alone */
    uint64_t alone_ns;          /* their time, SMs and end */
    uint32_t window_cycles;     /* the cycles a window the launch ran with; 1: cycle by cycle */
    uint64_t shortened;         /* times the windows were halved, for blocks that end within one */
    ws_window_reason cycle_by_cycle;    /* then why (timing_window.h) */
} ws_window_times;

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
    uint64_t l2_split_windows;      /* windows whose L2 requests the threads answered together */
    uint64_t writes_apart_windows;  /* ... and whose writes they did SM by SM (write_claims.h) */
    uint64_t streamed_windows;      /* windows some of whose L2 requests were answered while their SMs ran */
    ws_window_times host;           /* where the windows' host time went: --host-times only, never the summary */
    /* a checked launch's findings (checks.h): every one, and the distinct
     * ones (pairs of places), for a reuse to report as it would; of every
     * one, the reads of global memory never written (initcheck), which
     * keep the launch from being recorded for reuse */
    uint64_t check_findings, check_distinct, check_uninit_global;
} ws_timing_stats;

/* to += from for the counters the SMs gather (instructions, pipes, stalls,
 * active cycles, L1 wavefronts, SM steps); the launch-wide figures
 * (cycles, rates, occupancy, caches) are the caller's. */
void ws_timing_stats_add_sm_counts(ws_timing_stats *to, const ws_timing_stats *from);

#endif
