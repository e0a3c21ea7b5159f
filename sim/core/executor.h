/* The functional executor as its launchers see it: the functional
 * launcher (launch.c), which steps a block's warps round-robin, and the
 * timed SMs (sm.c, sm_team.c), which decide when each warp issues.  A
 * launcher owns its blocks' storage (ws_block_alloc), starts a block of
 * the grid in it (ws_block_begin), steps its warps one instruction at a
 * time (ws_warp_step, with the cycle %clock reads) and releases barriers
 * (block_sync.h); the timed SMs, which run a cycle at once, have their
 * global writes put off and apply them at the end of the cycle
 * (ws_exec_apply_deferred).
 * A step says what it did in ws_step_info (the access's addresses, banks
 * and sectors) and changes nothing of the launcher's: the timing model's
 * state (issue times, caches, queues) stays in sim/core/sm*.c.
 *
 * The executor's own parts (instruction classes, operands, faults) are
 * declared in warp.h, which only the executor includes. */
#ifndef WARPSIM_EXECUTOR_H
#define WARPSIM_EXECUTOR_H

#include "alu.h"          /* WS_WARP_SIZE */
#include "checks.h"
#include "mem_access.h"
#include "program.h"
#include "simt_stack.h"

/* READY: the running group can issue.  BARRIER: every group waits (at a
 * block barrier, or at a warp-synchronous operation).  DONE: no lanes left. */
typedef enum ws_warp_state { WS_WARP_READY, WS_WARP_BARRIER, WS_WARP_DONE } ws_warp_state;

typedef struct ws_frame { int32_t ret_pc, call; } ws_frame;

/* What a group of a warp's threads waits for (docs/SEMANTICS.md). */
typedef enum ws_wait {
    WS_WAIT_NONE,       /* runnable */
    WS_WAIT_BARRIER,    /* a block barrier: bar.sync / barrier.sync / bar.red */
    WS_WAIT_WARPSYNC,   /* the other lanes of a *.sync warp operation's membermask */
    WS_WAIT_RECONVERGE  /* lanes of another group that will reach its reconvergence point */
} ws_wait;

/* A group of a warp's threads that runs on its own: its reconvergence stack,
 * its call frames, and what it waits for.  A warp normally has one; lanes
 * split off when a warp-synchronous operation or a thread-granular barrier
 * needs lanes that are on another path of the warp, and join again when
 * they stand at the same point. */
typedef struct ws_group {
    ws_simt_stack stack;
    ws_frame *frames; int32_t nframes, framecap;
    uint8_t wait;           /* ws_wait */
    int32_t wait_pc;        /* the instruction it waits at (the stack's top holds where it resumes) */
    uint32_t wait_lanes;    /* the lanes of the path that reached it */
    uint32_t exec_lanes;    /* those of them that execute it (guard applied) */
    uint32_t members;       /* WS_WAIT_WARPSYNC: the membermask */
    int32_t reconv_skip;    /* a pc where it no longer waits to reconverge */
    uint32_t bar_id, bar_count;     /* WS_WAIT_BARRIER: the barrier; count 0 = all threads */
    uint32_t bar_arrived;   /* threads it counts as arrived */
    uint32_t bar_true;      /* bar.red: arrived threads whose predicate is true */
} ws_group;

typedef struct ws_warp {
    uint32_t index;         /* warp index within the block */
    uint32_t lanes;         /* lanes that exist (a partial last warp has fewer) */
    uint32_t exited;        /* lanes that have exited */
    uint8_t state;          /* ws_warp_state */
    ws_group g;             /* the running group */
    ws_group *others; int32_t nothers, othercap;    /* the warp's other groups (rare) */
    uint32_t (*regs)[WS_WARP_SIZE];     /* its rows, by row (warp.h: ws_row32, ws_row64) */
    uint64_t cc[WS_WARP_SIZE];      /* carry flags */
    uint64_t insts;
    uint64_t progress_at;   /* insts at its last sign of progress (the watchdog) */
} ws_warp;

typedef struct ws_block {
    ws_dim3 idx;
    uint32_t nthreads, nwarps;
    uint32_t smid;          /* %smid of its threads */
    uint32_t warpid0;       /* %warpid of its warp 0 (warp w: warpid0 + w) */
    ws_warp *warps;
    uint32_t (*regs)[WS_WARP_SIZE];     /* nwarps * ws_kernel_rows units: the warps' values */
    uint8_t *shared; uint32_t shared_size;
    uint8_t *local;         /* nthreads * program local_size */
    uint8_t *tparam;        /* nthreads * program tparam_size */
    ws_racecheck race;      /* racecheck's shadow of shared memory (when on) */
    ws_initshadow init;     /* initcheck's shadow of shared memory (when on) */
} ws_block;

/* A write to global memory that waits for the end of its cycle: a timed
 * launch (timing.c, sm_team.h) runs the SMs of a cycle at once, maybe on
 * several threads, so a cycle's loads read memory as it was when the cycle
 * began and its stores and atomics, which other SMs may read, take effect
 * at the end of the cycle, SM by SM in index order, each SM's in issue
 * order (docs/THREADS.md). */
typedef struct ws_deferred {
    ws_block *b;
    ws_warp *w;
    const ws_insn *in;
    int32_t pc;
    uint32_t mask;
    uint64_t steps;         /* the watchdog's count when it issued */
    uint64_t cycle;         /* the cycle it issued (x->clock) */
    /* A captured store (the list's capture): where its lanes' addresses
     * and then its values, a row of WS_WARP_SIZE per vector element, lie
     * in the list's rows; UINT32_MAX: none, the registers are read when it
     * is done. */
    uint32_t rows;
    /* Its first row holds, instead of addresses, where each lane's bytes
     * lie in host memory, found when it issued (exec_mem.c: host_lanes). */
    bool hosted;
} ws_deferred;

/* With capture set (a timed launch's windows, timing.h), a store takes its
 * addresses and values with it when it issues: it is done at the end of a
 * window of cycles, when its registers may hold other values. */
typedef struct ws_deferred_list {
    ws_deferred *a;
    uint32_t n, cap;
    bool capture;
    uint64_t *rows;
    uint32_t nrows, rowcap;     /* in rows of WS_WARP_SIZE */
    /* With several threads: the lines its SM's stores claim in a window
     * (write_claims.h), sm its SM's index, last_claim the last it claimed;
     * NULL: none kept. */
    struct ws_write_claims *claims;
    int32_t sm;
    uint64_t last_claim;
    /* A launch whose loads read back what its stores wrote, in windows:
     * the bytes its SM's stores of the window wrote, which its later loads
     * read (own_writes.h); NULL for any other. */
    struct ws_own_writes *own;
    /* A launch run apart whose record lends it its timing (launch.c): its
     * stores write no byte twice, and no byte one of them writes is read
     * after it (launch_reuse.c, "exchanged").  A store of zeros whose lanes
     * lie in pages not made writes those lanes here: the bytes read as
     * zeros already, and no other store of the launch writes them. */
    bool zeros_to_sink;
    uint8_t sink[8];
} ws_deferred_list;

/* One launch of a kernel. */
typedef struct ws_exec {
    const ws_program *p;
    const ws_kernel *k;
    const ws_launch *l;
    ws_launch_stats *stats;
    ws_error *err;
    FILE *out;              /* device printf */
    uint64_t clock;         /* %clock: the cycle of the step running (ws_warp_step's) */
    uint32_t smid;          /* the SM of the step running (its block's) */
    /* l->pc_counts is this executor's own for the launch (a timed launch's
     * thread's): a pc's stride is that of its earliest access by cycle,
     * then SM (ws_pc_counts), not of the first this executor meets. */
    bool pc_counts_own;
    /* The watchdog (exec.c): warp instructions issued at the last sign of
     * progress of any warp (a store, an atomic that changed memory, a
     * barrier completed, a thread exited, device printf), and the wall-clock
     * deadline in ns of CLOCK_MONOTONIC (0 = none). */
    uint64_t progress_at;
    uint64_t deadline_ns;
    /* The watchdog's limits as ws_watchdog_start resolves them for the
     * test every step makes (watchdog_ok): the stretch without progress,
     * the instruction cap (UINT64_MAX: none), and the steps n at which the
     * clock or the progress line is polled (n & poll_mask == 0;
     * UINT64_MAX: only the first). */
    uint64_t spin_limit, step_cap, poll_mask;
    ws_check_log *checks;   /* findings of the launch's checks; NULL when none is on */
    /* Non-NULL (a timed launch's SM): its findings are kept here till the
     * end of its cycle or window (window_order.h), not shown at once */
    ws_check_buffer *findings;
    /* Blocks of the grid, and how many have started and ended: the blocks
     * start in linear order, so blocks_started on wait for a slot, which
     * only the end of a resident block frees (the watchdog's message). */
    uint64_t grid_blocks, blocks_started, blocks_done;
    uint32_t nsmid, nwarpid;        /* %nsmid, %nwarpid */
    /* The watchdog's count of warp instructions: stats->warp_insts in a
     * functional launch; in a timed one, the launch's count when the cycle
     * began plus the instructions of the SM being simulated in it, so that
     * it does not depend on how the SMs are spread over threads. */
    uint64_t steps;
    /* Non-NULL: writes to global memory are put off to the end of the
     * cycle, into this list (ws_deferred).  applying: doing them. */
    ws_deferred_list *defer;
    bool applying;
    /* Functional: each warp of a block stepped until it waits at a barrier
     * or ends, then the next, instead of a step each in turn.  For a
     * launch whose values cannot depend on the order its warps run in (a
     * launch run apart whose record lends it its timing, and whose shared
     * memory is ordered by barriers: launch.c): a warp's registers and
     * code stay in the host's caches. */
    bool warps_through;
    /* In a window: the fault just met is a put-off write's, found as it
     * issued, which a run cycle by cycle finds at its cycle's end (the
     * issue trace of the cycle is then not written: trace_window.h). */
    bool fault_put_off;
    /* A launch in windows whose loads may follow its stores in the code
     * (timing_window.h): the allocations its stores write, which its
     * stores must stay in and its loads out of; NULL for any other. */
    const struct ws_apart *apart;
    /* Each shared-memory access site's last bank evaluation (the counters
     * evaluate every access; a site's warps mostly repeat one pattern),
     * WS_BANK_MEMOS of them, made at the executor's first shared access
     * (NULL till then, or when there was no memory: every access is then
     * evaluated) and freed by its owner.  The executor's own: SMs on
     * other threads have theirs. */
    ws_bank_memo *bank_memo;
    /* The pages its warp-wide loads read last (device_memory.h); the
     * executor's own, as bank_memo. */
    ws_span_memo span_memo;
    /* A timed launch's issue trace is on: the steps' records
     * (ws_step_info) keep every lane's address for it.  Without a trace
     * the timing model reads a full warp's shared-word or global-word
     * access by its resolved banks or sectors alone, and the record holds
     * lanes 0 and 16's (exec_mem.c, every_address_read). */
    bool trace_addrs;
} ws_exec;

/* The allocations a launch's stores write, [lo[i], hi[i]) each, when it
 * runs in windows although its loads may follow its stores in the code
 * (timing_window.h, ws_window_cycles). */
#define WS_APART_MAX 8
typedef struct ws_apart {
    uint32_t n;
    uint64_t lo[WS_APART_MAX], hi[WS_APART_MAX];
} ws_apart;

/* Does a put-off access's data movement (exec_mem.c).  False on a fault. */
bool ws_exec_apply_deferred(ws_exec *x, const ws_deferred_list *l, const ws_deferred *d);
/* Does every put-off access of l, in its order, when each is a captured
 * store whose host bytes were found when it issued (a window whose lines
 * no two SMs share, write_claims.h): bytes moved, nothing else.  May run
 * on several threads at once for lists that write apart. */
void ws_exec_apply_hosted_stores(const ws_deferred_list *l);

/* Sets up the watchdog of a launch (exec.c). */
void ws_watchdog_start(ws_exec *x);

typedef enum ws_step_result {
    WS_STEP_OK, WS_STEP_BLOCKED, WS_STEP_DONE, WS_STEP_FAULT
} ws_step_result;

/* The most warp-wide accesses one step makes (a wmma.load or wmma.store:
 * one per fragment element or pair of elements). */
#define WS_STEP_MAX_ACCESSES 8

/* What one step did, for a timing model or a trace. */
typedef struct ws_step_info {
    int32_t pc;
    uint32_t active;        /* lanes of the path that issued */
    uint32_t mask;          /* lanes that executed (guard applied) */
    bool mem;               /* a memory access: naccess, addr[], size, space, store */
    bool store;
    uint8_t space;          /* ws_space as resolved (generic resolved per lane is not kept) */
    uint32_t size;          /* bytes per lane of each access */
    uint32_t naccess;       /* warp-wide accesses: 1 (ld, st, atom, red) or more (wmma) */
    /* access k of lane l at addr[k * WS_WARP_SIZE + l] (so addr[l] is the
     * first access's); of a full warp's shared-word or global-word access
     * (WS_IF_SHARED_WORD, WS_IF_GLOBAL_WORD) only lanes 0 and 16's unless
     * ws_exec.trace_addrs: read the rest from resolved */
    uint64_t addr[WS_STEP_MAX_ACCESSES * WS_WARP_SIZE];
    ws_mem_resolved resolved;   /* the first access's banks and sectors (mem_access.h) */
} ws_step_info;

/* Storage for blocks of nthreads threads of k with smem bytes of shared
 * memory: warps, register windows, shared, local and parameter memory.
 * False on out of memory (b then holds nothing to free). */
bool ws_block_alloc(ws_block *b, const ws_kernel *k, uint32_t nthreads, uint32_t smem);
void ws_block_free(ws_block *b);

/* Starts block number linear of the launch (x fastest) in b's storage:
 * memory zeroed, the checks' shadows cleared, every warp at the kernel's
 * first instruction; %smid reads smid, warp i's %warpid warpid0 + i.
 * False on out of memory. */
bool ws_block_begin(ws_exec *x, ws_block *b, uint64_t linear, uint32_t smid, uint32_t warpid0);

/* The pc the warp's running group issues next, or -1 when it has none
 * (the next step retires the group or the warp). */
int32_t ws_warp_next_pc(ws_warp *w);

/* Executes the next instruction of w as issued at cycle clock (what
 * %clock reads: the timed SM's cycle; the functional launcher counts warp
 * steps).  info may be NULL. */
ws_step_result ws_warp_step(ws_exec *x, ws_block *b, ws_warp *w, uint64_t clock, ws_step_info *info);

/* The grid, the block and the parameter buffer of a launch are ones any
 * GPU would take; if not, false with *err filled (launch_check.c: the
 * launchers' own check; ws_launch_check_limits adds a GPU's limits). */
bool ws_launch_check(const ws_program *p, const ws_kernel *k, const ws_launch *l, ws_error *err);

#endif
