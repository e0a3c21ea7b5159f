/* One SM of the timed simulation, and the state the SMs share.
 *
 * Internal to the timed launch (timing.c): the SM issues, the LSU path
 * (sm_lsu.c) times memory instructions.  A sub-partition owns the warp
 * slots s with s % subPartitions == its index, one warp scheduler and one
 * of each execution pipe; the L1 data stage (shared-memory banks and L1
 * tags, one wavefront per cycle) and the L1 belong to the whole SM. */
#ifndef WARPSIM_SM_H
#define WARPSIM_SM_H

#include <stdatomic.h>

#include "insn_deps.h"
#include "timing.h"
#include "executor.h"
#include "../mem/coalescer.h"
#include "../mem/l1_cache.h"
#include "../mem/l2_dram.h"
#include "../sched/dispatcher.h"
#include "../sched/warp_scheduler.h"

#define WS_NEVER UINT64_MAX

/* In a window of cycles (timing.h), the time of what waits for the
 * window's end: a register a load's L2 requests will fill, a warp's
 * memory in flight.  Later than any real cycle, before WS_NEVER. */
#define WS_WINDOW_PENDING (UINT64_C(1) << 61)

/* The state every SM reads: the config's numbers resolved per pipe class,
 * the functional executor, the memory side beyond the SMs, the dispatcher
 * and the statistics being gathered. */
typedef struct ws_tsim {
    const ws_gpu_config *g;
    ws_exec x;
    ws_insn_deps *deps;                 /* per pc of the program */
    uint32_t latency[WS_PIPE_COUNT];   /* issue to result, cycles */
    uint32_t interval[WS_PIPE_COUNT];  /* cycles a warp instruction holds its pipe */
    uint32_t lat_shared, lat_const, lat_branch, lsu_queue;
    ws_sched_policy policy;
    uint32_t two_level_active;
    ws_l2_dram *l2;                     /* the launch's L2 and DRAM */
    struct ws_sm_shelf *sm_kept;        /* what the SMs keep between launches (sm_shelf.h), NULL: nothing */
    ws_dispatcher disp;
    uint32_t nthreads, nwarps;          /* per block */
    uint32_t smem;                      /* bytes of shared memory per block */
    uint64_t grid_warps;
    uint64_t end;                       /* the last block's finish so far */
    ws_timing_stats *ts;
    struct ws_trace *trace;             /* NULL: no issue trace */
    struct ws_issue_timeline *timeline; /* NULL: no issue timeline */
    bool own_writes;                    /* in windows, each SM reads its own writes (own_writes.h) */
} ws_tsim;

/* A warp slot.  The fields a cycle's evaluation reads come first, on the
 * slot's first cache line (slots are line-aligned): 132 SMs' warps do not
 * stay in the host's caches from one SM-cycle to the next, so an
 * evaluation that touches one line instead of two is most of its cost. */
typedef struct ws_sm_warp {
    _Alignas(64) ws_warp *w;            /* NULL: free slot */
    uint64_t *ready;                    /* per register: cycle its value is ready */
    uint64_t next_issue;                /* earliest next issue (one per cycle; branches) */
    uint64_t opnd_ready;                /* its registers at opnd_pc are ready then */
    int32_t opnd_pc;                    /* the pc opnd_ready is for; -1 = none */
    int32_t stall_pc;                   /* the pc that reason is about: next to issue, or last issued; -1 = none */
    bool at_pipe;                       /* found ready but for its pipe (sm.c can_issue) */
    bool lsu;                           /* at_pipe: a memory instruction (the L1 stage too) */
    uint8_t pipe, throttle;             /* at_pipe: its pipe, and the reason while that is busy */
    uint8_t reason;                     /* ws_stall of the current evaluation */
    uint8_t fetch_reason;               /* why next_issue is in the future */
    uint8_t opnd_why;                   /* ws_stall while waiting for those operands */
    uint8_t spi, bit;                   /* its sub-partition, and its bit in that one's masks */
    bool live;                          /* resident and not retired */
    bool finished;                      /* exited; counted in ws_sm.finished */
    uint8_t wstate;                     /* w->state as of its last step or barrier release */
    int32_t npc;                        /* ws_warp_next_pc(w) then: the pc it issues next */
    /* the second line: read on issue and retirement */
    uint8_t *kind;                      /* per register: ws_stall while waiting for it */
    int32_t block;                      /* block slot */
    uint64_t age;                       /* dispatch order (gto: smaller = older) */
    uint64_t gwarp;                     /* grid-wide warp number (local memory layout) */
    /* With per-line counters: its stall_pc and reason have held since this
     * cycle, not yet added to stall_pc's counters (sm.c credit_line) */
    uint64_t pc_since;
} ws_sm_warp;

typedef struct ws_sm_block {
    bool used;
    ws_block b;                         /* functional state; b.warps has nwarps */
    uint32_t running;                   /* warps not yet retired */
    uint32_t unfinished;                /* of those, warps not yet exited */
    uint32_t at_work;                   /* of its warps, those whose wstate is WS_WARP_READY */
    uint64_t started;                   /* the cycle it started */
    uint64_t linear;                    /* its linear index in the grid */
    uint64_t *ready;
    uint8_t *kind;
} ws_sm_block;

/* A sub-partition.  Its live warps (bit j: SM slot j * nsp + index) are
 * in one of four sets by what a cycle must do with them, so that a cycle
 * looks only at warps whose state can have changed:
 *   eval      evaluated every cycle: they may issue, or wait on something
 *             other warps change (a pipe, the L1 stage)
 *   blocked   wait on their own registers or fetch until their until
 *   held      in a window, wait on registers whose times its end gives
 *             (until >= WS_WINDOW_PENDING): no cycle of the
 *             window looks at them (ws_sm_window_settled does)
 *   parked    at a barrier, until the block releases one
 *   draining  exited, their memory in flight until mem_done
 * (re-evaluating a blocked, parked or draining warp would give the same
 * reason and wake-up cycle). */
typedef struct ws_subpart {
    ws_warp_scheduler sched;
    uint64_t pipe_free[WS_PIPE_COUNT];
    uint64_t const_free;                /* its constant cache */
    uint64_t eval, blocked, held, parked, draining;
    uint64_t finished;                  /* exited, not yet retired (any set) */
    uint64_t long_wait;                 /* warps whose reason is long_scoreboard */
    uint64_t blocked_min, drain_min;    /* earliest until, mem_done of those sets; WS_NEVER: none */
    /* Warps of eval found ready but for their pipe, per pipe, and those whose
     * reason is a pipe's throttle: such a warp is ready while its pipe is
     * free and throttled while it is busy, whatever else happens, so a
     * cycle takes each pipe's warps as a set (sm.c subpart_cycle). */
    uint64_t at_pipe[WS_PIPE_COUNT];
    uint32_t pipes_used;                /* bit q: at_pipe[q] is not empty */
    uint64_t throttled;
    uint64_t age[WS_SCHED_MAX_WARPS];   /* per bit: the warp's dispatch order */
    /* per bit: the warp waits on its own registers or fetch until then (0:
     * look); side by side, so that a pass over the blocked set reads a
     * few lines, not a line of each warp's slot */
    uint64_t until[WS_SCHED_MAX_WARPS];
    struct ws_sm_warp *slot[WS_SCHED_MAX_WARPS];   /* per bit: its warp slot (sm.c slot_of) */
    /* per bit: the cycle the warp's last memory access completes, and its
     * queue entries waiting for the window's end (ws_sm_drained_at); side
     * by side for the same reason as until: retiring and the drain times
     * pass over every finished warp, which in a kernel waiting on its
     * atomics is most of them, and their slots are cold (histogram
     * 1048576 4 on one thread, callgrind's cache model with a 2 MiB last
     * level: 3.38 M last-level read misses with these in the slots, 3.08 M
     * side by side) */
    uint64_t mem_done[WS_SCHED_MAX_WARPS];
    uint32_t npending[WS_SCHED_MAX_WARPS];
} ws_subpart;

/* A sector request of one SM's cycle for L2: the SM has done the L1 part;
 * a load's miss filled L1 with the time WS_L1_PENDING + its index in the
 * cycle's requests, which the end of the cycle settles. */
typedef struct ws_l2_request {
    uint64_t sector, start;
    uint8_t op;                         /* WS_I_LD, _ST or _ATOM */
    bool first;                         /* a store's first sector of its line */
    uint32_t serial;                    /* an atomic's serialized operations */
    uint64_t done;                      /* the end of the cycle: when L2 answers */
} ws_l2_request;

#define WS_L1_PENDING (UINT64_C(1) << 62)

/* An access of one SM's cycle waiting for L2: ready at known at the
 * earliest, and with its requests [first_req, +nreq) and the earlier
 * requests its L1 hits wait for (deps [first_dep, +ndep)); or, with
 * lead_reg >= 0, an access ptxas merged into its leader's, whose registers
 * are ready with lead_reg. */
typedef struct ws_lsu_pending {
    struct ws_sm_warp *sw;
    int32_t pc;                         /* its destination registers get the time */
    int32_t lead_reg;
    uint32_t trace;                     /* its trace event: index + 1 in ws_sm.trace_ev; 0 = none */
    bool wait;                          /* in a window: its registers say WS_WINDOW_PENDING till its end */
    uint64_t cycle;                     /* the cycle it issued */
    uint64_t known;
    uint32_t first_req, nreq, first_dep, ndep;
} ws_lsu_pending;

/* The most entries (accesses), and requests and L1 waits on them, one
 * memory instruction puts in the queue: a wmma.load's accesses, of a full
 * warp's sectors each. */
#define WS_LSU_INSN_ENTRIES WS_STEP_MAX_ACCESSES
#define WS_LSU_INSN_REQUESTS (WS_STEP_MAX_ACCESSES * WS_COALESCE_MAX_SECTORS)
/* Entries per sub-partition: one instruction's most (the accesses ptxas
 * merged into an instruction take one each and wait for room too). */
#define WS_LSU_ENTRIES_PER_SUBPART WS_LSU_INSN_ENTRIES

/* The SM's queue to L2: the only way an SM reaches the L2 and DRAM, which
 * all SMs share.  A cycle's global and local accesses wait here for the
 * end of the cycle (ws_sm_end_cycle), which answers their requests in the
 * order they were made, SM by SM in index order, whatever thread each SM
 * ran on.  Bounded: room for one instruction of each sub-partition's (a
 * sub-partition's LSU pipe takes one a cycle); an instruction that finds
 * no room waits for the next cycle (ws_lsu_room). */
typedef struct ws_lsu_queue {
    ws_lsu_pending *a;
    uint32_t n, cap;
    ws_l2_request *req;
    uint32_t nreq, reqcap;
    uint32_t *dep;                      /* request indexes */
    uint32_t ndep;
    uint32_t natomic;                   /* requests that are atomics */
    bool full;                          /* no room for one more instruction (ws_lsu_room) */
    bool oom;                           /* its storage could not grow: an instruction made no access */
    /* In a window of cycles the queue holds the window's requests, and the
     * bound (cap, reqcap) is on each cycle's: where the cycle's began.  The
     * storage grows with what it holds: each memory instruction first
     * makes room for the most one instruction adds (ws_lsu_storage_room).
     * Room for a whole cycle's most at each cycle's start (four
     * instructions' worst case, 2,048 requests) grew every SM's queue to
     * 4,096 requests, 144 KiB, whatever a window held. */
    uint32_t n0, nreq0, ndep0;
    uint32_t alloc, reqalloc, depalloc;
    /* Held while the storage grows, and by a thread that answers the
     * requests while the SM still runs (sm_team.c: the window's stream),
     * so that neither meets storage the other has moved. */
    atomic_bool lock;
} ws_lsu_queue;

/* A queue for nsp sub-partitions; false on out of memory. */
bool ws_lsu_queue_init(ws_lsu_queue *q, uint32_t nsp);
/* The same on the storage q has (a, req, dep and their alloc sizes, kept
 * from an earlier queue): empty, for nsp sub-partitions. */
void ws_lsu_queue_init_on(ws_lsu_queue *q, uint32_t nsp);
void ws_lsu_queue_free(ws_lsu_queue *q);

/* The queue's storage grown to have room for one more instruction's
 * entries from what it holds; false on out of memory. */
bool ws_lsu_queue_grow(ws_lsu_queue *q);

/* Room in the queue's storage for the most one more memory instruction
 * adds, grown if need be; false on out of memory.  (Before every memory
 * instruction: inline, the growth apart.) */
static inline bool ws_lsu_storage_room(ws_lsu_queue *q)
{
    if (q->n + WS_LSU_INSN_ENTRIES <= q->alloc && q->nreq + WS_LSU_INSN_REQUESTS <= q->reqalloc &&
        q->ndep + WS_LSU_INSN_REQUESTS <= q->depalloc)
        return true;
    return ws_lsu_queue_grow(q);
}

/* A cycle of a window begins: the bound starts again from what the queue
 * holds.  (Every cycle of every SM in a window: inline.) */
static inline void ws_lsu_cycle_begin(ws_lsu_queue *q)
{
    q->n0 = q->n;
    q->nreq0 = q->nreq;
    q->ndep0 = q->ndep;
    q->full = false;
}

/* Whether q has room for one more memory instruction this cycle (kept in
 * q->full as entries are added, for the issue check's sake). */
static inline bool ws_lsu_room(const ws_lsu_queue *q)
{
    return q->n - q->n0 + WS_LSU_INSN_ENTRIES <= q->cap && q->nreq - q->nreq0 + WS_LSU_INSN_REQUESTS <= q->reqcap &&
           q->ndep - q->ndep0 + WS_LSU_INSN_REQUESTS <= q->reqcap;
}

/* Cache-line aligned: SMs next to each other may run on different threads. */
typedef struct ws_sm {
    _Alignas(64) int32_t id;
    bool ready_to_run;                  /* storage allocated */
    bool run_storage;                   /* l1 and lsu_q allocated (ws_sm_run_storage) */
    uint32_t nsp, nslots, nblocks;
    ws_sm_warp *slots;                  /* nblocks * nwarps */
    ws_sm_block *blocks;
    ws_subpart *sp;
    ws_l1_cache l1;
    uint64_t l1_free;                   /* the SM's L1 data stage */
    uint32_t live;                      /* resident warps */
    uint32_t finished;                  /* of those, warps that exited and wait to retire */
    uint64_t retire_at;                 /* none of them drains before this cycle (0: look) */
    uint32_t nreason[WS_STALL_COUNT];   /* resident warps per current reason */
    uint64_t next;                      /* next cycle to evaluate, WS_NEVER when idle */
    uint64_t counted_to;                /* the stall counters hold its cycles before this */
    /* The per-line counters (ws_launch.pc_counts) of the thread running it
     * now (each thread has its own: sm_team.h), or NULL */
    struct ws_pc_counts *pcc;
    /* In a window of cycles [.., window_end) (timing_window.h; 0: cycle by
     * cycle). */
    uint64_t window_end;
    /* In a window the dispatcher, the whole GPU's, is not at hand: the
     * blocks it set aside when the window began (aside; NULL: none), of
     * which a slot that frees takes the next of the SM's at once (its
     * aside_run of them; nstarted so far, reserved: the rank of each's
     * key), and the cycles at which blocks ended (freed_at), which it
     * hears of at the window's end (sm_team.c). */
    const struct ws_aside *aside;
    uint32_t aside_run;
    uint64_t *reserved;
    uint32_t nstarted;
    uint64_t *freed_at;
    uint32_t nfreed;
    /* In the window a slot freed after the SM's blocks set aside were all
     * taken: it waits for the window's end, where cycle by cycle the
     * dispatcher would fill it at once (blocks shorter than a window;
     * sm_team.c shortens the windows) */
    bool slot_waited;
    /* Block slots placed (ws_sm_place_block) whose warps are not set up
     * yet: in a window of cycles the calling thread places blocks and the
     * thread that runs the SM next sets them up (ws_sm_begin_placed). */
    uint32_t *placed;
    uint32_t nplaced;
    /* Its used block slots by when their blocks started, then slot:
     * ws_sm_by_start(started, slot), ascending: what a window's set-aside
     * reads of the SM, 8 bytes a block rather than every slot's record. */
    uint64_t *by_start;
    uint32_t nby_start;
    /* The lists a window's end merges on other threads while the calling
     * thread writes the fields above (sm_team.c): on lines of their own. */
    _Alignas(64) ws_lsu_queue lsu_q;    /* this cycle's (window's) requests for L2 */
    _Alignas(64) ws_deferred_list data; /* this cycle's (window's) global data movement */
    /* In a window: how far the SM has run, for a thread that answers its
     * requests meanwhile (sm_team.c), on a line of its own. */
    _Alignas(64) _Atomic uint64_t stream_mark;
    /* With an issue trace: this cycle's events, written at its end, when
     * the times of their accesses are known; in windows, those not yet
     * written (window_order.h). */
    struct ws_trace_event *trace_ev;
    uint32_t ntrace_ev, trace_evcap;
    /* With checks: the findings of its cycle (window), taken at its end
     * (window_order.h). */
    ws_check_buffer findings;
} ws_sm;

/* Allocates sm's storage (done the first time a block is placed on it),
 * or takes it from s->sm_kept (sm_shelf.h). */
bool ws_sm_init(ws_tsim *s, ws_sm *sm, int32_t id);
/* Makes sm's L1 and its queue to L2 if it has none yet; false (s->x.err
 * set) when out of memory.  Called where an SM runs (sm_team.c), so that a
 * launch's 132 L1s are made on the threads that run their SMs, not before
 * the first cycle on the calling thread: they are a launch's biggest
 * set-up.  The queue is made there too: made on the calling thread, its
 * first growth in a window took the calling thread's malloc arena, which
 * every thread then waited for (16 threads, spmv 20000: 1,055 of a run's
 * 1,353 sleeps were there). */
bool ws_sm_run_storage(ws_tsim *s, ws_sm *sm);
/* Asks the host's caches for what sm's next window reads first, of its
 * blocks with warps still running. */
void ws_sm_prefetch_window(const ws_tsim *s, const ws_sm *sm);
void ws_sm_free(ws_sm *sm);
/* Of that, its warp and block slots, their block storage and its
 * sub-partitions (ws_sm_init's arrays), the pointers left NULL. */
void ws_sm_free_slots(ws_sm *sm);

/* When the memory of sp's warp at bit has drained, as far as is known (in
 * a window, what waits for its end is not). */
static inline uint64_t ws_sm_drained_at(const ws_subpart *sp, uint32_t bit)
{
    return sp->npending[bit] ? WS_WINDOW_PENDING : sp->mem_done[bit];
}

/* After sw finished, or its memory answered: sm's retire_at, the cycle
 * before which none of its finished warps drains, comes down to sw's drain
 * time if that is earlier (nothing else moves a finished warp's drain time
 * earlier, so ws_sm_retire looks no later than it must). */
static inline void ws_sm_note_drain(ws_sm *sm, const ws_sm_warp *sw)
{
    uint64_t t = ws_sm_drained_at(&sm->sp[sw->spi], sw->bit);
    if (sw->finished && t < sm->retire_at) sm->retire_at = t;
}

/* A used slot of an SM in ws_sm.by_start: the cycle its block started (at
 * most 2^42 - 1, weeks of simulation), then its slot (below 1,024). */
#define WS_SM_SLOT_BITS 10
#define WS_SM_STARTED_BITS 42
static inline uint64_t ws_sm_by_start(uint64_t started, uint32_t slot)
{
    uint64_t most = (UINT64_C(1) << WS_SM_STARTED_BITS) - 1;
    return (started < most ? started : most) << WS_SM_SLOT_BITS | slot;
}

/* A window's blocks set aside (sm_team.c, set_aside): the due SMs'
 * resident blocks when the window began, as keys
 * (ws_sm_by_start(started, slot) << WS_ASIDE_SM_BITS | SM), ascending
 * within each SM's run (run_start[j], up to run_start[j + 1]), and the
 * grid's next blocks, taken from the dispatcher in order: the block of the
 * key ranked r among all keys is taken[r], when r < ntaken.  A block
 * started first ends first, so the resident block that started r-th
 * makes room for taken[r]; an SM's slot that frees takes the block of its
 * next key, as soon as it frees (ws_sm_retire). */
#define WS_ASIDE_SM_BITS 12
typedef struct ws_aside {
    const uint64_t *keys;
    const uint32_t *run_start;
    uint32_t nruns;
    const uint64_t *taken;
    uint32_t ntaken;
} ws_aside;

/* Places block (linear index) on sm from cycle now: it takes sm's first
 * free slot at once, as the dispatcher and the blocks set aside for a
 * window see it, and sm's next cycle is now at the latest; its warps and
 * their registers are set up by ws_sm_begin_placed, which must come before
 * sm's next cycle.  False on out of memory. */
bool ws_sm_place_block(ws_tsim *s, ws_sm *sm, uint64_t block, uint64_t now);

/* Sets up the blocks placed on sm, in the order they were placed (their
 * storage, registers, warps).  False on out of memory (s->x.err filled). */
bool ws_sm_begin_placed(ws_tsim *s, ws_sm *sm);

/* Places block on sm at cycle now and sets it up.  False on out of memory. */
bool ws_sm_start_block(ws_tsim *s, ws_sm *sm, uint64_t block, uint64_t now);

/* The start of cycle now of sm: retires warps that are done and drained,
 * and has the dispatcher fill the block slots that frees (in a window:
 * with the blocks set aside for the SM).  False on out of memory (s->x.err
 * filled). */
bool ws_sm_retire(ws_tsim *s, ws_sm *sm, uint64_t now);

/* At the end of a launch with per-line counters: the stall cycles its
 * resident warps (a fault's) have not yet added, added to s's counters. */
void ws_sm_credit_lines(ws_tsim *s, ws_sm *sm);

/* A block of sm ended at cycle at: the dispatcher's and the launch's counts. */
void ws_sm_block_done(ws_tsim *s, ws_sm *sm, uint64_t at);

/* The dispatcher fills sm's free slots with blocks that start at cycle
 * start, placed (ws_sm_place_block).  False on out of memory, with no
 * error set (at a window's end other threads may be setting theirs). */
bool ws_sm_fill(ws_tsim *s, ws_sm *sm, uint64_t start);

/* False, with s->x.err filled, when sm has warps but no next cycle: a
 * model error (every waiting warp waits for a known cycle). */
bool ws_sm_waits_for_something(ws_tsim *s, const ws_sm *sm);

/* Adds the cycles of sm before now that its last cycle did not count (it
 * stopped at a window's end) to the stall counters: call before retiring. */
void ws_sm_catch_up(ws_tsim *s, ws_sm *sm, uint64_t now);

/* The end of a window, after its queue's entries were finished
 * (ws_sm_window_finish): warps that waited for it are looked at again,
 * from the window's end at the earliest; sets sm->next. */
void ws_sm_window_settled(ws_sm *sm, uint64_t end);

/* The rest of cycle now of sm (after ws_sm_retire): one issue per
 * sub-partition; sets sm->next.  False on a kernel fault (s->x.err filled). */
bool ws_sm_cycle(ws_tsim *s, ws_sm *sm, uint64_t now);

/* The end of sm's cycle (after its put-off global writes): its queued
 * requests reach L2, in the order they were made, their warps' registers
 * get their ready times, and the cycle's trace events are written. */
void ws_sm_end_cycle(ws_tsim *s, ws_sm *sm);

/* In a window: the L2's answers to the requests of the queue's entries
 * from *k on made at cycle (the calling thread's part of
 * ws_sm_end_cycle); *k moves past them. */
void ws_sm_answer(ws_tsim *s, ws_sm *sm, uint32_t *k, uint64_t cycle);

/* ws_sm_answer over the queue's first n entries, which an SM still
 * running has made (its queue's lock held where it may grow): the cycle
 * of entry *k after them, WS_NEVER when that is n. */
uint64_t ws_sm_answer_of(ws_tsim *s, ws_sm *sm, uint32_t *k, uint64_t cycle, uint32_t n);

/* Takes and gives back q's lock (ws_lsu_queue.lock). */
void ws_lsu_queue_lock(ws_lsu_queue *q);
void ws_lsu_queue_unlock(ws_lsu_queue *q);

/* After ws_sm_answer has answered a window's entries, the SM's own part,
 * on its thread before its next cycle: the entries' L1 fills and
 * registers, then ws_sm_window_settled; the queue is emptied. */
void ws_sm_window_finish(ws_tsim *s, ws_sm *sm);

/* After a fault ended the launch in a window: the queue's first n entries,
 * those answered before the fault, finished, for their trace events'
 * times (nothing runs after them). */
void ws_sm_finish_answered(ws_tsim *s, ws_sm *sm, uint32_t n);

/* Empties sm's queue at the end of a window. */
void ws_lsu_queue_clear(ws_lsu_queue *q);

/* Times a memory instruction of sw that issued at now (info from the
 * executor): the cycle its destination registers are ready, at the
 * earliest (what waits on L2 is known at the end of the cycle, which
 * moves the registers' times later), and in *kind the stall a warp
 * waiting for them shows.  Moves sw's mem_done.  The caller made sure of
 * ws_lsu_room, and stops the launch out of memory when the queue's
 * storage could not grow (lsu_q.oom: the instruction made no access). */
uint64_t ws_sm_memory(ws_tsim *s, ws_sm *sm, ws_subpart *sp, ws_sm_warp *sw, const ws_insn *in,
                      const ws_step_info *info, uint64_t now, uint8_t *kind);

#endif
