/* The SMs of a timed launch's cycle, spread over threads (timing.c).
 *
 * Each thread owns a run of neighbouring SMs (in a window of cycles,
 * timing_window.h, it takes the window's SMs one by one as it comes free),
 * and keeps its own executor state over the shared launch: statistics,
 * error, clock, the watchdog's count.  The SMs of a cycle issue at once;
 * what they would otherwise share, global memory's data and the L1, L2 and
 * DRAM model, waits in each SM's lists (ws_deferred, ws_lsu_queue) and is
 * done at the end of the cycle on the calling thread: SM by SM in index
 * order, each SM's in the order it issued, which is the order a run on one
 * thread does it in.  So cycles, counters and outputs do not depend on the
 * number of threads (docs/THREADS.md). */
#ifndef WARPSIM_SM_TEAM_H
#define WARPSIM_SM_TEAM_H

#include <pthread.h>
#include <stdatomic.h>

#include "sm.h"
#include "window_order.h"
#include "write_claims.h"

#define WS_SM_TEAM_MAX_THREADS 64

typedef struct ws_sm_worker ws_sm_worker;

/* What the calling thread's loop needs of an SM after its cycle, written by
 * the SM's thread: packed, so that the loop reads a few cache lines, not
 * the SMs' own. */
typedef struct ws_sm_brief {
    uint64_t next;              /* ws_sm.next */
    uint32_t finished;          /* ws_sm.finished: warps to retire (ws_sm_retire) */
    uint32_t pending;           /* work put off to the end of the cycle */
    /* after a window: the cycle of its first put-off write and of its
     * first L2 request (WS_NEVER: none), and how many of each (the
     * requests' atomics apart), for the window's end to pass over the SMs
     * with none without reading their lists */
    uint64_t first_write, first_request;
    uint32_t nwrites, nrequests, natomics;
} ws_sm_brief;

/* A resident block, by when it started: blocks of one kernel take about
 * as long each, so the ones that started first end first (set_aside). */
typedef struct ws_sm_team {
    ws_tsim *s;                 /* the launch's: retiring, and the end of each cycle */
    ws_sm *sms;
    int32_t nthreads;
    ws_sm_worker *w;            /* nthreads of them; w[0] is the calling thread's */
    int32_t *owner;             /* per SM: the thread that runs it */
    ws_sm_brief *brief;         /* per SM */
    /* the cycle being run: its SMs, ascending; or, with window_end, the
     * window of cycles [now, window_end) (timing.h) */
    const int32_t *due;
    int32_t ndue;
    uint64_t now, window_end;
    uint32_t *cursor;           /* per due SM, the end of a window: where its lists are */
    uint64_t *back;             /* the end of a window: blocks set aside and not needed */
    /* the start of a window: its blocks set aside (set_aside): the due SMs'
     * resident blocks as keys, a run per SM (aside_runs), the grid's blocks
     * taken for them; the end: which of those the SMs started (used, a bit
     * per rank) */
    ws_aside aside;
    uint64_t *resident;
    uint32_t *aside_runs;
    uint64_t *taken;
    uint64_t *used;
    struct ws_sm_entry *events; /* the end of a window: a heap of the due SMs by their next cycle with requests */
    struct ws_sm_entry *events_w;   /* ... with writes, when another thread merges them */
    bool prefetch;              /* this window's SMs ask for their state first (sm_team.c, PREFETCH_FROM_SMS) */
    /* A window whose requests a thread with no SM left to run answers
     * while the others still run (sm_team.c: stream_requests): per due
     * SM the last stream_mark read, and whether it is in the heap. */
    bool streaming;             /* this window's may be answered so */
    bool streamed;              /* some were: its end answers the rest one by one */
    uint64_t *stream_marks;
    uint8_t *stream_queued;
    uint32_t last_requests;     /* the last window's requests */
    uint64_t streamed_windows;  /* windows some of whose requests were answered so */
    ws_window_times times;      /* where the windows' host time went (--host-times) */
    int job;                    /* what the other threads do next (sm_team.c) */
    const ws_sm_worker *failed_w;   /* a window's end: the worker whose fault ends the launch, or NULL */
    bool writes_ok;             /* a window's end: the writes on another thread went through */
    bool requests_ok;           /* ... and the requests one by one */
    ws_sm_brief *settled;       /* a window's end: per due SM, its brief for after the window */
    /* Windows: their length and the cycle limit (ws_sm_team_use_windows);
     * per SM its next cycle after the last window; the next window,
     * prepared at the end of the last one, its due SMs in the one of
     * due_lists that the window running does not use. */
    uint32_t window_cycles;     /* halved where blocks end within one (settle_blocks) */
    uint32_t window_longest;    /* what they grow back to (ws_sm_team_use_windows) */
    uint64_t first_end;         /* where the first window of the longest would end (0: not yet known) */
    uint64_t max_cycles;
    uint64_t *next_of;
    int32_t *due_lists[2];
    /* a launch with per-line counters: each thread's own (nthreads arrays of
     * the program's code size), added to the launch's at the end */
    ws_pc_counts *pc_own;
    /* a launch with an issue timeline: each thread's own, added to the
     * launch's at the end (sums of issues per bin) */
    struct ws_issue_timeline **timelines;
    /* the merges of its SMs' trace events and checks' findings */
    ws_window_order order;
    uint64_t write_failed_at;   /* the cycle of a window's write that failed; WS_NEVER: none */
    int32_t *next_due;
    int32_t next_ndue;
    uint64_t next_start, next_end;
    bool prepared;
    struct ws_l2_split *split;  /* with three threads or more: a window's L2 requests on the others */
    struct ws_l2_split *split_beside;   /* with four or more: on all but the second, which does the writes */
    uint64_t split_windows;     /* windows whose requests went on them */
    /* windows with atomics whose requests go one by one before the next
     * tries the split, and how many after the next that the check refuses */
    uint32_t atomic_skip, atomic_gap;
    /* ... and then, where no two SMs' stores meet (write_claims.h), the
     * window's writes too, SM by SM (write_next: the next of due) */
    ws_write_claims claims;
    bool have_claims, writes_apart;
    atomic_int write_next;
    uint64_t apart_windows;     /* windows whose writes went so */
    /* the watchdog's: warp instructions before this cycle, and at the last
     * sign of progress */
    uint64_t steps, progress_at;
    bool started;               /* the other threads exist */
    struct ws_thread_pool *pool;        /* where they come from: the caller's, or the team's own */
    bool own_pool;                      /* the team made pool, and frees it at the end */
    /* each on a cache line of its own: the threads write them while they
     * read the fields above */
    _Alignas(64) atomic_uint gen;       /* moves on to start a cycle on the other threads */
    _Alignas(64) atomic_int done;       /* threads done with the cycle */
    struct ws_team_share *shares;       /* in a window: per thread, the run of due it takes first */
    _Alignas(64) atomic_bool streamer;  /* a thread took the window's stream */
    _Atomic uint64_t stream_reached;    /* it has answered every request before this cycle */
    _Alignas(64) atomic_int sleepers;   /* threads asleep on cv */
    atomic_bool caller_asleep;          /* the calling thread asleep on cv_done */
    atomic_bool stop;
    _Alignas(64) pthread_mutex_t mu;
    pthread_cond_t cv, cv_done;
    /* Whether cycles run on the threads or on the calling thread alone: the
     * faster, as measured in stretches of cycles (the results are the same
     * either way).  ns_per_work: per mode, the last stretch's time per warp
     * instruction and SM-cycle (window) it ran. */
    bool parallel;
    bool every_cycle;           /* no measuring: always on the threads, and the SMs wait for the stream (tests) */
    bool trying;                /* this stretch tries the mode that was slower */
    bool warming;               /* the first stretch: not measured (below) */
    uint32_t stretch_cycles;    /* cycles so far in this stretch */
    uint32_t until_try;         /* stretches before the slower mode is tried again */
    uint32_t try_gap;           /* ... after each try that it loses, twice as many */
    uint64_t stretch_start_ns, stretch_sms, stretch_steps;
    uint64_t stretch_cpu_ns;    /* the threads' CPU time when the stretch began */
    double ns_per_work[2];
} ws_sm_team;

/* A team of nthreads (1 or more) for s's SMs, for a grid of nblocks;
 * threads other than the caller's start with the first cycle that has SMs
 * for them, taken from pool (thread_pool.h) or, where it is NULL, started
 * for the team alone.  False on out of memory. */
bool ws_sm_team_init(ws_sm_team *t, ws_tsim *s, ws_sm *sms, int32_t nthreads, uint64_t nblocks, bool every_cycle,
                     struct ws_thread_pool *pool);

/* Cycle now of the SMs in due (ascending, retired already): they issue,
 * then the cycle's put-off work is done.  False on a fault (s->x.err
 * filled: the fault the lowest SM met first). */
bool ws_sm_team_cycle(ws_sm_team *t, const int32_t *due, int32_t ndue, uint64_t now);

/* The team runs in windows of window cycles (timing_window.h), up to
 * cycle max_cycles (0: no limit). */
void ws_sm_team_use_windows(ws_sm_team *t, uint32_t window, uint64_t max_cycles);

/* The next window [*start, *end): from the earliest cycle any SM has
 * something to do, window cycles (up to max_cycles + 1); false when no
 * SM has.  Its due SMs (those with a cycle in it) and the blocks the
 * dispatcher sets aside for them are ready: the end of the last window
 * prepared them. */
bool ws_sm_team_next_window(ws_sm_team *t, uint64_t *start, uint64_t *end);

/* The window ws_sm_team_next_window gave: each of its SMs runs its cycles
 * of the window, retiring and issuing, on its thread (a slot that frees
 * takes one of the blocks set aside for the SM); then the window's
 * put-off work is done in the order a cycle-by-cycle run does it, cycle by
 * cycle and in each SM by SM in index order, the dispatcher hears of the
 * blocks that ended and started, and the next window is prepared.  False
 * on a fault (s->x.err filled: the earliest, by cycle then SM). */
bool ws_sm_team_window(ws_sm_team *t);

/* A traced launch in windows, at its end (after the last window, or when
 * one would pass max_cycles): the events its SMs still keep, their
 * accesses finished, written.  False when out of memory (s->x.err set). */
bool ws_sm_team_trace_rest(ws_sm_team *t);

/* Stops the threads and adds their counters to st and ts. */
void ws_sm_team_free(ws_sm_team *t, ws_launch_stats *st, ws_timing_stats *ts);

/* The cores this process may run on. */
int32_t ws_machine_cores(void);

/* The threads a timed launch asked for (--threads N), or the machine's
 * cores when it asked for none (threads <= 0). */
int32_t ws_threads_or_cores(int32_t threads);

#endif
