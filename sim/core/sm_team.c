/* The SMs of a cycle on several threads, with results that do not depend
 * on how many (sm_team.h). */
#define _GNU_SOURCE
#include "sm_team.h"
#include "sm_queue.h"
#include "l2_split.h"
#include "own_writes.h"
#include "thread_pool.h"
#include "../base/clock.h"
#include "../base/cpu_relax.h"
#include "../trace/issue_timeline.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A thread that runs at least this many SMs a window has them ask the
 * host's caches for their state as each window starts
 * (ws_sm_prefetch_window): with 132 SMs on one thread of a host with 32
 * MiB of last-level cache, whose state does not stay there, a launch took
 * 3.62 s against 3.86; with 8 or 9 a thread (132 SMs on 16 threads of a
 * host with 105 MiB), whose state does, it cost a program 7.3-7.6 s
 * against 6.9-7.3 (bench/HISTORY.md). */
#define PREFETCH_FROM_SMS 16

struct ws_sm_worker {
    _Alignas(64) ws_sm_team *team;     /* workers side by side: each on lines of its own */
    int32_t index;
    ws_tsim s;                  /* the launch's, with the executor state below */
    ws_launch l;                /* the launch's, without the progress line (the caller's loop polls it) */
    ws_launch_stats st;
    ws_timing_stats ts;
    ws_error err;
    int32_t failed_sm;          /* the SM whose cycle failed; -1: none */
    uint64_t failed_at;         /* the cycle it failed in */
    bool failed_put_off;        /* at a put-off write (ws_exec.fault_put_off) */
    ws_error sm_err;            /* in a window: an SM's fault, before it is compared */
    uint64_t progress_at;       /* the latest sign of progress of its SMs */
    uint64_t busy_ns;           /* its CPU time in the windows' jobs (not the caller's) */
    /* a window on the threads (ws_window_times): its longest SM window's
     * wall time, and all of its SMs' windows, summed (two clock reads an
     * SM window, not taken on the calling thread alone) */
    bool time_sms;
    uint64_t longest_ns;
    uint64_t sm_windows_ns;
};

/* A thread's run of a window's due SMs, [next, end): it takes them first,
 * one at a time, then the other threads' (each on a cache line of its
 * own: every thread takes from it). */
typedef struct ws_team_share {
    _Alignas(64) atomic_int next;
    int32_t end;
} ws_team_share;

/* What the other threads do when t->gen moves on: run their share of the
 * cycle's (window's) SMs; (the second thread) a window's put-off writes
 * while the calling thread answers its L2 requests; (the second and the
 * third thread) a window's writes and its L2 requests one by one while the
 * calling thread settles its blocks; (all of them) a window's L2 requests
 * while the calling thread does its writes; (the second) the writes and
 * (the others) the L2 requests while the calling thread settles its
 * blocks. */
enum { JOB_SMS, JOB_WRITES, JOB_MERGES, JOB_L2, JOB_L2_BESIDE };

static bool merge_window(ws_sm_team *t, const ws_sm_worker *failed, bool writes, ws_sm_entry *heap, uint32_t *k);
static uint32_t *requests_cursor(const ws_sm_team *t);
static void team_go(ws_sm_team *t, int job);
static void team_wait(ws_sm_team *t);

/* Cycles in a stretch measured for the choice between running a cycle's
 * SMs on the threads and on the calling thread; a stretch that tries the
 * mode found slower is shorter, and after each try it loses, the next comes
 * twice as many stretches later (up to MAX_TRY_GAP), so that a machine with
 * no free cores loses little to the tries.  A stretch also ends once it
 * has lasted its time: a window of a big grid takes milliseconds, and 256
 * of them on the slower mode were half of a launch. */
#define STRETCH_CYCLES 2048
#define TRY_CYCLES 256
#define STRETCH_NS 50000000u
#define TRY_NS 5000000u
/* Cycle by cycle, a stretch's time is read every CLOCK_EVERY cycles: a
 * cycle may take under a microsecond, a tenth of it the clock's read. */
#define CLOCK_EVERY 16
#define FIRST_TRY_GAP 2
#define MAX_TRY_GAP 256

/* This thread's CPU time: what a thread that spins or waits for the
 * others does not add to. */
static uint64_t thread_cpu_ns(void) { return ws_clock_ns_of(CLOCK_THREAD_CPUTIME_ID); }

int32_t ws_machine_cores(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int32_t)n : 1;
}

int32_t ws_threads_or_cores(int32_t threads)
{
    return threads > 0 ? threads : ws_machine_cores();
}

/* How a thread waits for the others: it spins a while (some
 * microseconds), then gives its core away (sched_yield) until YIELD_NS
 * have passed since it began to wait, then sleeps.  A window's end on the
 * calling thread takes tens of microseconds to a millisecond, and waking a
 * sleeping thread costs tens of microseconds: on 16 threads, histogram
 * 4194304's threads slept in 38,896 of their 44,550 waits when they slept
 * after the spins alone, and its windows' SM cycles took 0.33 s against
 * 0.23 s with threads that stayed awake.  Yielding rather than spinning
 * keeps a machine with fewer free cores than threads from losing them to
 * the waiting. */
#define SPINS_BEFORE_YIELD 2000
#define YIELD_NS 1000000u

/* Whether a thread that has waited spins times (its first wait_start)
 * keeps waiting awake (after a pause or a yield); false: it should sleep. */
static bool keep_awake(int spins, uint64_t *wait_start)
{
    if (spins < SPINS_BEFORE_YIELD) {
        ws_cpu_relax();
        return true;
    }
    uint64_t now = ws_clock_ns();
    if (spins == SPINS_BEFORE_YIELD) *wait_start = now;
    if (now - *wait_start >= YIELD_NS) return false;
    sched_yield();
    return true;
}

/* SM sm's progress in a window for the thread that answers its requests
 * meanwhile (stream_requests): its list holds every entry of the cycles
 * before upto (done: it has finished the window, or stopped at a fault at
 * upto), as one word: done, upto from the window's start, the entries. */
static void publish(const ws_sm_team *t, ws_sm *sm, uint64_t upto, bool done)
{
    upto = upto > t->window_end ? t->window_end : upto < t->now ? t->now : upto;
    uint64_t mark = (uint64_t)done << 63 | (upto - t->now) << 32 | sm->lsu_q.n;
    atomic_store_explicit(&sm->stream_mark, mark, memory_order_release);
}

/* Cycles between an SM's marks: each mark is a cache line the answering
 * thread reads and the SM's core then takes back (histogram 4194304 on 2
 * threads, the SMs' part of its first kernel: 0.275 and 0.351 s in two
 * runs with a mark every cycle, 0.274-0.279 s every 32 cycles and 0.263-
 * 0.279 s with none). */
#define STREAM_MARK_CYCLES 32

static bool mark_done(uint64_t mark) { return mark >> 63; }
static uint32_t mark_entries(uint64_t mark) { return (uint32_t)mark; }
static uint64_t mark_upto(const ws_sm_team *t, uint64_t mark) { return t->now + (mark >> 32 & 0x7fffffff); }

/* A wait that must not sleep (an SM still runs, or the stream does):
 * spins, then gives its core away. */
static void wait_awake(int spins)
{
    if (spins < SPINS_BEFORE_YIELD) ws_cpu_relax();
    else sched_yield();
}

/* Tests (every_cycle): once a thread answers the window's requests, an SM
 * that has marked upto waits until they are answered up to there (or as
 * far as the others' marks let them be), so that the tests see requests
 * answered while SMs run whatever the machine's cores do. */
static void wait_for_stream(ws_sm_team *t, uint64_t upto)
{
    if (upto > t->window_end) upto = t->window_end;
    for (int spins = 0; atomic_load_explicit(&t->streamer, memory_order_relaxed) &&
                        atomic_load_explicit(&t->stream_reached, memory_order_acquire) < upto;
         spins++)
        wait_awake(spins);
}

/* sm's cycles of the window on s (a worker's), each retiring first; false
 * on a fault, at cycle *at. */
static bool run_window(ws_sm_team *t, ws_tsim *s, ws_sm *sm, uint64_t *at)
{
    /* the blocks placed since its last window, then that window's answers */
    if (!ws_sm_begin_placed(s, sm)) return false;
    if (t->prefetch) ws_sm_prefetch_window(s, sm);
    if (sm->lsu_q.n) ws_sm_window_finish(s, sm);
    *at = sm->next;
    if (!ws_sm_run_storage(s, sm) || !ws_sm_waits_for_something(s, sm)) return false;
    sm->window_end = t->window_end;
    sm->data.capture = true;
    if (s->own_writes && !sm->data.own && !(sm->data.own = ws_own_writes_create())) {
        ws_error_set(s->x.err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    uint64_t mark_at = t->now + STREAM_MARK_CYCLES;
    while (sm->next < t->window_end) {
        uint64_t now = sm->next;
        *at = now;
        ws_sm_catch_up(s, sm, now);
        if (sm->finished && now >= sm->retire_at && !ws_sm_retire(s, sm, now)) return false;
        if (!ws_sm_cycle(s, sm, now)) return false;
        if (t->streaming && sm->next >= mark_at) {
            publish(t, sm, sm->next, false);
            mark_at = sm->next + STREAM_MARK_CYCLES;
            if (t->every_cycle) wait_for_stream(t, sm->next);
        }
    }
    return true;
}

/* Whether a fault of SM i at cycle at comes before worker w's (if any):
 * by cycle, then SM, the order a run on one thread meets them in. */
static bool fault_before(uint64_t at, int32_t i, const ws_sm_worker *w)
{
    return w->failed_sm < 0 || at < w->failed_at || (at == w->failed_at && i < w->failed_sm);
}

/* Notes SM i's fault at cycle at, in w->sm_err, where it is the earliest
 * of w's SMs. */
static void note_fault(ws_sm_worker *w, int32_t i, uint64_t at)
{
    bool put_off = w->s.x.fault_put_off;
    w->s.x.fault_put_off = false;
    if (!fault_before(at, i, w)) return;
    w->err = w->sm_err;
    w->failed_sm = i;
    w->failed_at = at;
    w->failed_put_off = put_off;
}

/* An SM's brief between cycles (windows): nothing put off, no lists. */
static ws_sm_brief brief_between(uint64_t next, uint32_t finished)
{
    return (ws_sm_brief){.next = next, .finished = finished, .pending = 0,
                         .first_write = WS_NEVER, .first_request = WS_NEVER};
}

/* One SM's cycle (window) on worker w's state. */
static bool run_sm(ws_sm_team *t, ws_sm_worker *w, int32_t i)
{
    ws_exec *x = &w->s.x;
    const ws_exec *launch = &t->s->x;
    ws_sm *sm = &t->sms[i];
    x->steps = t->steps;
    x->progress_at = t->progress_at;
    x->blocks_started = launch->blocks_started;
    x->blocks_done = launch->blocks_done;
    x->defer = &sm->data;
    x->findings = x->checks ? &sm->findings : NULL;
    bool ok;
    if (t->window_end) {
        /* the earliest fault of the worker's SMs, by cycle then SM, is its */
        uint64_t at = 0;
        x->err = &w->sm_err;
        uint64_t start = w->time_sms ? ws_clock_ns() : 0;
        ok = run_window(t, &w->s, sm, &at);
        if (w->time_sms) {
            uint64_t ns = ws_clock_ns() - start;
            if (ns > w->longest_ns) w->longest_ns = ns;
            w->sm_windows_ns += ns;
        }
        x->err = &w->err;
        if (!ok) note_fault(w, i, at);
        if (t->streaming) publish(t, sm, ok ? t->window_end : at, true);
    } else {
        ok = ws_sm_run_storage(&w->s, sm) && ws_sm_cycle(&w->s, sm, t->now);
    }
    if (x->progress_at > w->progress_at) w->progress_at = x->progress_at;
    const ws_deferred_list *dl = &sm->data;
    const ws_lsu_queue *q = &sm->lsu_q;
    t->brief[i] = (ws_sm_brief){.next = sm->next, .finished = sm->finished,
                                .pending = dl->n || q->n || sm->ntrace_ev || sm->findings.n,
                                .first_write = dl->n ? dl->a[0].cycle : WS_NEVER,
                                .first_request = q->n ? q->a[0].cycle : WS_NEVER,
                                .nwrites = dl->n, .nrequests = q->nreq, .natomics = q->natomic};
    return ok;
}

/* An SM's queue as the stream reads it (mark: the SM's last stream_mark
 * read): under its lock while the SM runs, whose storage may move. */
static void lock_if_running(ws_lsu_queue *q, uint64_t mark)
{
    if (!mark_done(mark)) ws_lsu_queue_lock(q);
}

static void unlock_if_running(ws_lsu_queue *q, uint64_t mark)
{
    if (!mark_done(mark)) ws_lsu_queue_unlock(q);
}

/* Due SM j's next entry's cycle from its cursor k; WS_NEVER: none its
 * mark counts yet. */
static uint64_t streamed_next(const ws_sm_team *t, int32_t j, uint32_t k, uint64_t mark)
{
    if (k >= mark_entries(mark)) return WS_NEVER;
    ws_lsu_queue *q = &t->sms[t->due[j]].lsu_q;
    lock_if_running(q, mark);
    uint64_t c = q->a[k].cycle;
    unlock_if_running(q, mark);
    return c;
}

/* While the window's SMs still run, on the first thread that has none left
 * to start: their L2 requests of the cycles every due SM has passed (each
 * SM's stream_mark), in the window's order as merge_window answers them,
 * into the same cursors; it stops once every SM is done, and the window's
 * end answers the rest one by one from there.  No SM reaches the L2 in a
 * window, so only the lists' storage is shared, under each queue's lock.
 * Where one SM runs long (histogram's SM whose new block's warps start in
 * the window), most of the window's requests are answered by its end. */
static void stream_requests(ws_sm_team *t)
{
    uint32_t *k = requests_cursor(t);
    uint64_t *mark = t->stream_marks;
    ws_sm_queue q = {.heap = t->events, .n = 0};
    memset(k, 0, sizeof *k * (size_t)t->ndue);
    memset(t->stream_queued, 0, (size_t)t->ndue);
    bool any = false;       /* t->streamed once at the end: the SMs read its line */
    for (int idle = 0;;) {
        /* cap: the earliest fault's cycle, past which nothing is answered */
        uint64_t horizon = t->window_end, cap = t->window_end;
        bool all_done = true;
        for (int32_t j = 0; j < t->ndue; j++) {
            mark[j] = atomic_load_explicit(&t->sms[t->due[j]].stream_mark, memory_order_acquire);
            all_done = all_done && mark_done(mark[j]);
            uint64_t upto = mark_upto(t, mark[j]);
            if (upto < horizon) horizon = upto;
            if (mark_done(mark[j]) && upto < cap) cap = upto;
            uint64_t c;
            if (!t->stream_queued[j] && (c = streamed_next(t, j, k[j], mark[j])) != WS_NEVER) {
                ws_sm_queue_push(&q, (ws_sm_entry){.next = c, .id = j});
                t->stream_queued[j] = 1;
            }
        }
        /* the rest is the end's, beside the calling thread's blocks */
        if (all_done) break;
        bool moved = false;
        uint64_t reached = atomic_load_explicit(&t->stream_reached, memory_order_relaxed);
        while (q.n && q.heap[0].next < horizon) {
            uint64_t c = q.heap[0].next;
            int32_t j = q.heap[0].id;
            ws_sm_queue_pop(&q);
            ws_sm *sm = &t->sms[t->due[j]];
            lock_if_running(&sm->lsu_q, mark[j]);
            uint64_t n = ws_sm_answer_of(t->s, sm, &k[j], c, mark_entries(mark[j]));
            unlock_if_running(&sm->lsu_q, mark[j]);
            if (n != WS_NEVER) ws_sm_queue_push(&q, (ws_sm_entry){.next = n, .id = j});
            else t->stream_queued[j] = 0;
            moved = any = true;
        }
        /* (tests) past a fault no SM waits for it */
        uint64_t to = horizon >= cap ? t->window_end : horizon;
        if (to > reached) atomic_store_explicit(&t->stream_reached, to, memory_order_release);
        if (moved) idle = 0;
        else wait_awake(++idle);
    }
    t->streamed = any;
}

/* Worker w's SMs of the cycle (all of them: every SM of the cycle), in
 * ascending order, up to the first that fails; in a window, every one (a
 * later SM may fail at an earlier cycle). */
static void run_share(ws_sm_team *t, ws_sm_worker *w, bool all)
{
    /* a worker that sits a cycle out keeps older figures: no failure (that
     * ends the launch), and a progress mark no later than the team's */
    w->failed_sm = -1;
    w->progress_at = t->progress_at;
    w->longest_ns = w->sm_windows_ns = 0;
    w->time_sms = !all;
    if (t->window_end && !all) {
        /* a window's SMs differ in work: each thread takes its own run of
         * them first (the same SMs window after window while the same SMs
         * are due, their state then staying in its core's caches; runs by
         * SM index, kept whatever is due, measured no faster), then
         * whatever the others have not started (an SM's results do not
         * depend on the thread).  A run is read before it is taken from:
         * at a window's end every thread looks at every run, and a take
         * from one already empty would still claim its line, which the
         * others then wait for (histogramPrivatized, 64 SMs a window on
         * 16 threads: 0.037 -> 0.032 s on one host, no change on a noisier
         * one; bench/HISTORY.md, runs BR and BS) */
        for (int32_t d = 0; d < t->nthreads; d++) {
            ws_team_share *sh = &t->shares[(w->index + d) % t->nthreads];
            for (int32_t j; atomic_load_explicit(&sh->next, memory_order_relaxed) < sh->end &&
                            (j = atomic_fetch_add(&sh->next, 1)) < sh->end;)
                run_sm(t, w, t->due[j]);
        }
        if (t->streaming && !atomic_exchange_explicit(&t->streamer, true, memory_order_relaxed)) stream_requests(t);
        return;
    }
    for (int32_t j = 0; j < t->ndue; j++) {
        int32_t i = t->due[j];
        if (!all && t->owner[i] != w->index) continue;
        if (!run_sm(t, w, i) && !t->window_end) {
            w->failed_sm = i;
            w->failed_at = t->now;
            return;
        }
    }
}

/* Due SMs' put-off writes, an SM's list at a time, for as long as some
 * are left: a window whose SMs write apart (write_claims.h), every write a
 * store whose host bytes were found. */
static void take_writes(ws_sm_team *t)
{
    for (int32_t j; (j = atomic_fetch_add_explicit(&t->write_next, 1, memory_order_relaxed)) < t->ndue;)
        if (t->brief[t->due[j]].nwrites) ws_exec_apply_hosted_stores(&t->sms[t->due[j]].data);
}

static void *worker_main(void *arg)
{
    ws_sm_worker *w = arg;
    ws_sm_team *t = w->team;
    unsigned seen = 0;
    for (;;) {
        unsigned g;
        uint64_t wait_start = 0;
        for (int spins = 0; (g = atomic_load(&t->gen)) == seen && !atomic_load(&t->stop); spins++) {
            if (keep_awake(spins, &wait_start)) continue;
            pthread_mutex_lock(&t->mu);
            atomic_fetch_add(&t->sleepers, 1);
            while (atomic_load(&t->gen) == seen && !atomic_load(&t->stop)) pthread_cond_wait(&t->cv, &t->mu);
            atomic_fetch_sub(&t->sleepers, 1);
            pthread_mutex_unlock(&t->mu);
            spins = 0;
        }
        if (atomic_load(&t->stop)) return NULL;
        seen = g;
        /* windows are long enough to time (choose_mode) */
        uint64_t cpu = t->window_end ? thread_cpu_ns() : 0;
        if (t->job == JOB_SMS) run_share(t, w, false);
        else if (t->job == JOB_L2) {
            ws_l2_split_run(t->split, w->index - 1);
            if (t->writes_apart) take_writes(t);
        }
        else if (t->job == JOB_L2_BESIDE && w->index > 1) ws_l2_split_run(t->split_beside, w->index - 2);
        else if (w->index == 1) t->writes_ok = merge_window(t, t->failed_w, true, t->events_w, t->cursor);
        else if (w->index == 2 && t->job == JOB_MERGES)
            t->requests_ok = merge_window(t, t->failed_w, false, t->events, requests_cursor(t));
        if (t->window_end) w->busy_ns += thread_cpu_ns() - cpu;
        if (atomic_fetch_add(&t->done, 1) == t->nthreads - 2 && atomic_load(&t->caller_asleep)) {
            pthread_mutex_lock(&t->mu);
            pthread_cond_signal(&t->cv_done);
            pthread_mutex_unlock(&t->mu);
        }
    }
}

static void wake_all(ws_sm_team *t)
{
    if (atomic_load(&t->sleepers) == 0) return;
    pthread_mutex_lock(&t->mu);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

static bool start_threads(ws_sm_team *t)
{
    if (!t->pool) {     /* none kept by the caller: one of the team's own */
        t->pool = ws_thread_pool_create();
        t->own_pool = t->pool != NULL;
    }
    int32_t k = 1 + (t->pool ? ws_thread_pool_run(t->pool, t->nthreads - 1, worker_main, &t->w[1], sizeof *t->w) : 0);
    if (k < t->nthreads) {
        /* run on the threads that started: the results are the same */
        for (int32_t i = 0; i < t->s->g->multiProcessorCount; i++) t->owner[i] %= k;
        t->nthreads = k;
    }
    t->started = true;
    /* the L2 on the other threads when there are two or more of them (else
     * as the writes, on one) */
    if (t->nthreads > 2) t->split = ws_l2_split_create(t->nthreads - 1);
    if (t->nthreads > 3) t->split_beside = ws_l2_split_create(t->nthreads - 2);
    if (t->split && ws_write_claims_init(&t->claims)) {
        t->have_claims = true;
        for (int32_t i = 0; i < t->s->g->multiProcessorCount; i++) {
            t->sms[i].data.claims = &t->claims;
            t->sms[i].data.sm = i;
        }
    }
    return t->nthreads > 1;
}

/* What ws_sm_team_init allocates (NULL where it could not). */
static void free_arrays(ws_sm_team *t)
{
    for (int32_t k = 0; t->timelines && k < t->nthreads; k++) ws_issue_timeline_free(t->timelines[k]);
    free(t->timelines);
    free(t->w);
    free(t->pc_own);
    free(t->owner);
    free(t->brief);
    free(t->cursor);
    free(t->back);
    free(t->resident);
    free(t->aside_runs);
    free(t->taken);
    free(t->used);
    free(t->shares);
    free(t->events);
    free(t->events_w);
    free(t->settled);
    free(t->next_of);
    free(t->stream_marks);
    free(t->stream_queued);
    free(t->due_lists[0]);
    free(t->due_lists[1]);
}

bool ws_sm_team_init(ws_sm_team *t, ws_tsim *s, ws_sm *sms, int32_t nthreads, uint64_t nblocks, bool every_cycle,
                     struct ws_thread_pool *pool)
{
    memset(t, 0, sizeof *t);
    t->s = s;
    t->pool = pool;
    t->sms = sms;
    t->nthreads = nthreads;
    t->steps = s->x.steps;
    t->progress_at = s->x.progress_at;
    int32_t nsm = s->g->multiProcessorCount;
    t->w = aligned_alloc(_Alignof(ws_sm_worker), sizeof *t->w * (size_t)nthreads);
    t->owner = malloc(sizeof *t->owner * (size_t)nsm);
    t->cursor = aligned_alloc(64, (sizeof *t->cursor * 2 * (size_t)nsm + 64 + 63) / 64 * 64);
    size_t slots = (size_t)nsm * (size_t)(s->disp.occ.blocks_per_sm > 0 ? s->disp.occ.blocks_per_sm : 1);
    t->back = malloc(sizeof *t->back * slots);
    t->resident = malloc(sizeof *t->resident * slots);
    t->aside_runs = malloc(sizeof *t->aside_runs * ((size_t)nsm + 1));
    t->taken = malloc(sizeof *t->taken * slots);
    t->used = malloc(sizeof *t->used * (slots / 64 + 1));
    t->shares = aligned_alloc(_Alignof(ws_team_share), sizeof *t->shares * (size_t)nthreads);
    /* the two merges' heaps, which two threads may use at once, on lines of their own */
    size_t heap_bytes = (sizeof *t->events * (size_t)nsm + 63) / 64 * 64;
    t->events = aligned_alloc(64, heap_bytes);
    t->events_w = aligned_alloc(64, heap_bytes);
    t->brief = aligned_alloc(64, (sizeof *t->brief * (size_t)nsm + 63) / 64 * 64);
    t->settled = malloc(sizeof *t->settled * (size_t)nsm);
    t->next_of = malloc(sizeof *t->next_of * (size_t)nsm);
    t->stream_marks = malloc(sizeof *t->stream_marks * (size_t)nsm);
    t->stream_queued = malloc((size_t)nsm);
    t->due_lists[0] = malloc(sizeof *t->due_lists[0] * (size_t)nsm);
    t->due_lists[1] = malloc(sizeof *t->due_lists[1] * (size_t)nsm);
    /* per-line counters and an issue timeline: each thread its own */
    size_t npc = ws_program_code_size(s->x.p);
    if (s->x.l->pc_counts) t->pc_own = calloc((size_t)nthreads * (npc ? npc : 1), sizeof *t->pc_own);
    bool timelines = true;
    if (s->timeline && (t->timelines = calloc((size_t)nthreads, sizeof *t->timelines)))
        for (int32_t k = 0; k < nthreads; k++)
            timelines &= (t->timelines[k] = ws_issue_timeline_create(s->timeline->nsm, s->timeline->slots)) != NULL;
    if ((s->x.l->pc_counts && !t->pc_own) || (s->timeline && (!t->timelines || !timelines)) ||
        !t->w || !t->owner || !t->brief || !t->cursor || !t->back || !t->resident || !t->aside_runs || !t->taken ||
        !t->used || !t->shares || !t->events || !t->events_w || !t->settled || !t->next_of || !t->due_lists[0] || !t->due_lists[1] ||
        !t->stream_marks || !t->stream_queued) {
        free_arrays(t);
        return false;
    }
    for (int32_t i = 0; i < nsm; i++) {
        t->brief[i] = brief_between(sms[i].next, sms[i].finished);
        t->next_of[i] = sms[i].next;
    }
    memset(t->w, 0, sizeof *t->w * (size_t)nthreads);
    /* Each thread a run of neighbouring SMs, among those the grid keeps
     * busy (the first wave deals blocks to SMs 0, 1, ... in order): their
     * state stays in one core's caches. */
    int64_t busy = nblocks < (uint64_t)nsm ? (int64_t)nblocks : nsm;
    for (int32_t i = 0; i < nsm; i++)
        t->owner[i] = i < busy ? (int32_t)((int64_t)i * nthreads / busy) : i % nthreads;
    atomic_init(&t->gen, 0);
    atomic_init(&t->done, 0);
    atomic_init(&t->sleepers, 0);
    for (int32_t k = 0; k < nthreads; k++) {
        atomic_init(&t->shares[k].next, 0);
        t->shares[k].end = 0;
    }
    atomic_init(&t->stop, false);
    atomic_init(&t->streamer, false);
    atomic_init(&t->stream_reached, 0);
    atomic_init(&t->caller_asleep, false);
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    pthread_cond_init(&t->cv_done, NULL);
    /* the first two stretches, short, try the threads, then this thread alone */
    t->parallel = nthreads > 1;
    t->trying = true;
    t->warming = true;
    t->every_cycle = every_cycle;
    t->try_gap = FIRST_TRY_GAP;
    t->until_try = FIRST_TRY_GAP;
    for (int32_t k = 0; k < nthreads; k++) {
        ws_sm_worker *w = &t->w[k];
        w->team = t;
        w->index = k;
        w->failed_sm = -1;
        w->s = *s;
        w->l = *s->x.l;
        w->l.progress = NULL;
        w->s.x.l = &w->l;
        if (t->pc_own) {
            w->l.pc_counts = t->pc_own + (size_t)k * npc;
            w->s.x.pc_counts_own = true;
        }
        if (t->timelines) w->s.timeline = t->timelines[k];
        w->s.x.stats = &w->st;
        w->s.x.err = &w->err;
        w->s.x.bank_memo = NULL;    /* its own, made at its first shared access */
        w->s.ts = &w->ts;
        /* the dispatcher is the launch's alone (ws_sm_retire), and so is
         * the L2, which the SMs' queues reach at the end of the cycle */
        memset(&w->s.disp, 0, sizeof w->s.disp);
    }
    return true;
}

/* After the threads' part of a cycle (window): their progress marks into
 * the team's, and the worker whose fault comes first, or NULL. */
static ws_sm_worker *gather(ws_sm_team *t)
{
    ws_sm_worker *failed = NULL;
    for (int32_t k = 0; k < t->nthreads; k++) {
        ws_sm_worker *w = &t->w[k];
        if (w->failed_sm >= 0 && (!failed || fault_before(w->failed_at, w->failed_sm, failed))) failed = w;
        if (w->progress_at > t->progress_at) t->progress_at = w->progress_at;
    }
    return failed;
}

/* The end of a cycle (window) that went through: atomics done just now may
 * have changed memory (progress), and the watchdog's count moves on. */
static void count_steps(ws_sm_team *t)
{
    ws_exec *x = &t->s->x;
    if (x->progress_at > t->progress_at) t->progress_at = x->progress_at;
    uint64_t steps = x->stats->warp_insts;
    for (int32_t k = 0; k < t->nthreads; k++) steps += t->w[k].st.warp_insts;
    t->steps = steps;
}

/* The end of the cycle, on the calling thread: each SM's put-off data
 * movement and L1/L2 accesses, and its checks' findings, SM by SM in index
 * order, up to the lowest SM that failed, whose error is the launch's.  A
 * write that fails ends the cycle, the findings of the SMs after it taken
 * too (they met them before the writes). */
static bool end_cycle(ws_sm_team *t)
{
    ws_sm_worker *failed = gather(t);
    ws_exec *x = &t->s->x;
    for (int32_t j = 0; j < t->ndue; j++) {
        int32_t i = t->due[j];
        if (failed && i > failed->failed_sm) break;
        ws_sm *sm = &t->sms[i];
        if (!t->brief[i].pending && !(failed && i == failed->failed_sm)) continue;
        for (uint32_t k = 0; k < sm->data.n; k++)
            if (!ws_exec_apply_deferred(x, &sm->data, &sm->data.a[k])) {
                for (; j < t->ndue; j++) ws_checks_window_take(x, &t->sms[t->due[j]], 1, WS_NEVER, 0, &t->order);
                return false;
            }
        sm->data.n = 0;
        ws_sm_end_cycle(t->s, sm);
        if (!ws_checks_window_take(x, sm, 1, WS_NEVER, 0, &t->order)) {
            ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory for the checks' findings");
            return false;
        }
        if (failed && i == failed->failed_sm) {
            *x->err = failed->err;
            return false;
        }
    }
    count_steps(t);
    return true;
}

/* Where the requests' merge keeps its place in each due SM's list: after
 * the writes' (t->cursor), on a line of its own, as the two merges may run
 * on two threads. */
static uint32_t *requests_cursor(const ws_sm_team *t)
{
    return t->cursor + ((size_t)t->ndue + 15) / 16 * 16;
}

/* Due SM j's next cycle with put-off writes (data) or L2 requests from
 * where its cursor k[j] stands (WS_NEVER: none). */
static uint64_t next_write(const ws_sm_team *t, int32_t j, const uint32_t *k)
{
    const ws_deferred_list *dl = &t->sms[t->due[j]].data;
    return k[j] < dl->n ? dl->a[k[j]].cycle : WS_NEVER;
}

static uint64_t next_request(const ws_sm_team *t, int32_t j, const uint32_t *k)
{
    const ws_lsu_queue *q = &t->sms[t->due[j]].lsu_q;
    return k[j] < q->n ? q->a[k[j]].cycle : WS_NEVER;
}

/* Whether SM i's work at cycle c comes after the fault that ends the
 * launch (failed: its worker, or NULL). */
static bool after_fault(const ws_sm_worker *failed, uint64_t c, int32_t i)
{
    return failed && (c > failed->failed_at || (c == failed->failed_at && i > failed->failed_sm));
}

/* Asks the host's caches for the L2 set due SM j's next request (from its
 * cursor k[j]) will look up: the merge answers it about a due SM's turn
 * later, and the sets of a big L2 lie mostly outside the caches (vecAdd
 * 4M timed on one thread, whose requests are answered here: 0.95-0.96 of
 * the time before, medians of paired runs on the build machine). */
static void prefetch_next_request(const ws_sm_team *t, int32_t j, const uint32_t *k)
{
    const ws_lsu_queue *q = &t->sms[t->due[j]].lsu_q;
    if (k[j] < q->n && q->a[k[j]].nreq) ws_l2_prefetch(t->s->l2, q->req[q->a[k[j]].first_req].sector);
}

/* The due SMs' lists merged cycle by cycle, and in each cycle SM by SM in
 * index order, as a run cycle by cycle makes them (each list holds its
 * SM's in the order they were made), up to the fault that ends the launch:
 * the put-off writes (writes) or the L2 requests.  The writes move global
 * memory's data and the requests the L2 and DRAM model's state, which do
 * not meet: the two merges may run at once, on two threads.  False when a
 * write fails (x's error set). */
static bool merge_window(ws_sm_team *t, const ws_sm_worker *failed, bool writes, ws_sm_entry *heap, uint32_t *k)
{
    ws_exec *x = &t->s->x;
    uint64_t (*next)(const ws_sm_team *, int32_t, const uint32_t *) = writes ? next_write : next_request;
    ws_sm_queue q = {.heap = heap, .n = 0};
    /* the requests go on from where the stream stopped (stream_requests) */
    bool resume = !writes && t->streamed;
    if (!resume) memset(k, 0, sizeof *k * (size_t)t->ndue);
    for (int32_t j = 0; j < t->ndue; j++) {     /* by their place in due, which is by SM index */
        /* next(t, j, k) as the SM's thread left it: an SM's own lists are
         * on its thread's core, most of them empty */
        const ws_sm_brief *b = &t->brief[t->due[j]];
        uint64_t c = resume ? next(t, j, k) : writes ? b->first_write : b->first_request;
        if (c >= t->window_end) continue;
        ws_sm_queue_push(&q, (ws_sm_entry){.next = c, .id = j});
        if (!writes) prefetch_next_request(t, j, k);
    }
    while (q.n) {
        uint64_t c = q.heap[0].next;
        int32_t j = q.heap[0].id, i = t->due[j];
        ws_sm_queue_pop(&q);
        if (after_fault(failed, c, i)) break;
        ws_sm *sm = &t->sms[i];
        if (writes) {
            const ws_deferred_list *dl = &sm->data;
            for (; k[j] < dl->n && dl->a[k[j]].cycle == c; k[j]++)
                if (!ws_exec_apply_deferred(x, dl, &dl->a[k[j]])) {
                    t->write_failed_at = c;
                    return false;
                }
        } else {
            ws_sm_answer(t->s, sm, &k[j], c);
        }
        uint64_t n = next(t, j, k);
        if (n >= t->window_end) continue;
        ws_sm_queue_push(&q, (ws_sm_entry){.next = n, .id = j});
        if (!writes) prefetch_next_request(t, j, k);
    }
    return true;
}

/* Put-off writes in a window below which handing them to a thread of the
 * team costs more than it saves (the threads wait awake between windows,
 * keep_awake: a hand-off costs about a microsecond). */
#define WRITES_FOR_A_THREAD 16

/* Put-off writes in a window below which its SMs' lists are not worth
 * spreading over the threads (the calling thread moves a store's bytes in
 * about 0.3 us on 16 threads: they lie in other cores' caches). */
#define WRITES_APART 64

/* L2 requests in a window below which the other threads are not worth
 * waking to answer them.  One by one a request takes about 0.2 us on 16
 * threads (its SM's list is on another core); the split adds three
 * barriers of a few microseconds.  histogram's second kernel (about 250
 * requests a window): its windows' ends 0.026-0.032 s at 1,024, 0.012-
 * 0.018 s at 256 (device machine, 16 threads); 96 measured the same.
 * Windows with atomics take the same threshold: with theirs at 128, 64
 * or 32 (at 64, 2,862 of histogram's 3,428 windows split, against 281)
 * histogram ran no faster on 16 threads, nor did four other programs
 * with every window's at 128 or 64 (bench/HISTORY.md, run AG). */
#define REQUESTS_FOR_THE_THREADS 256

/* Most windows with atomics answered one by one in a row, after the
 * split's check refused such windows again and again (each refusal costs
 * the route and the check, and then the requests one by one after the
 * blocks rather than beside them). */
#define MAX_ATOMIC_GAP 1024

/* Whether the window's L2 requests go on the other threads (l2_split.h):
 * there are two or more of them and enough requests, no fault cuts the
 * window short and no lines report wants each access's counts, and, for a
 * window with atomics, the split's check has not been refusing them lately
 * (*atomics: it has some). */
static bool split_requests(ws_sm_team *t, const ws_sm_worker *failed, bool *atomics)
{
    *atomics = false;
    if (!t->split || failed || (t->s->x.l && t->s->x.l->pc_counts) ||
        !ws_l2_split_fits(t->ndue, t->now, t->window_end))
        return false;
    uint32_t nreq = 0, natomic = 0;
    for (int32_t j = 0; j < t->ndue; j++) {
        nreq += t->brief[t->due[j]].nrequests;
        natomic += t->brief[t->due[j]].natomics;
    }
    if (nreq < REQUESTS_FOR_THE_THREADS) return false;
    *atomics = natomic > 0;
    if (*atomics && t->atomic_skip) {
        t->atomic_skip--;
        return false;
    }
    return true;
}

/* After a split window with atomics: refused by the check, the next
 * atomic_gap such windows go one by one and the gap doubles; answered, it
 * is back to none. */
static void note_atomic_split(ws_sm_team *t, bool answered)
{
    if (answered) {
        t->atomic_gap = 0;
        return;
    }
    t->atomic_gap = t->atomic_gap ? (t->atomic_gap * 2 < MAX_ATOMIC_GAP ? t->atomic_gap * 2 : MAX_ATOMIC_GAP) : 1;
    t->atomic_skip = t->atomic_gap;
}

/* A resident block as one key that sorts by the cycle it started, then
 * its slot, then its SM: its ws_sm_by_start, then its SM (a config allows
 * at most 1,024 slots and 4,096 SMs, gpu_config.c). */
_Static_assert(WS_SM_STARTED_BITS + WS_SM_SLOT_BITS + WS_ASIDE_SM_BITS <= 64,
               "a resident key holds its start, slot and SM");

static void prepare_window(ws_sm_team *t);

/* The shortest the windows get for blocks that end within one (a window
 * of one cycle is the launch's other loop, cycle by cycle). */
#define WS_SHORTEST_WINDOW 2

/* A window's blocks, on the calling thread, while other threads may still
 * merge its writes and requests (which read the SMs' lists and write data
 * and the L2, not the SMs' blocks or the dispatcher): the dispatcher hears
 * of the blocks that ended and started, takes back the blocks set aside
 * and not needed, and fills the slots still free from the window's end;
 * each due SM's brief for after the window goes to t->settled (the merges
 * read the briefs) and its next cycle to t->next_of; then the next window
 * is prepared.  False on out of memory (the error is set once the merges
 * are done). */
static bool settle_blocks(ws_sm_team *t)
{
    ws_tsim *s = t->s;
    /* the blocks set aside and not started, in the order set_aside took
     * them, which is ascending (the dispatcher hands out its lowest) */
    uint32_t ntaken = t->aside.ntaken;
    memset(t->used, 0, sizeof *t->used * (ntaken / 64 + 1));
    for (int32_t j = 0; ntaken && j < t->ndue; j++) {
        const ws_sm *sm = &t->sms[t->due[j]];
        for (uint32_t k = 0; k < sm->nstarted; k++) t->used[sm->reserved[k] / 64] |= UINT64_C(1) << (sm->reserved[k] % 64);
    }
    uint64_t nback = 0;
    for (uint32_t r = 0; r < ntaken; r++)
        if (!(t->used[r / 64] >> (r % 64) & 1)) t->back[nback++] = t->taken[r];
    t->aside.ntaken = 0;
    bool waited = false;
    for (int32_t j = 0; j < t->ndue; j++) {
        ws_sm *sm = &t->sms[t->due[j]];
        waited |= sm->slot_waited;
        sm->slot_waited = false;
        /* the blocks started before those that ended: a slot may have
         * ended two blocks in the window (its first and the one set aside
         * for it), more than the SM held when the window began */
        for (uint32_t k = 0; k < sm->nstarted; k++) ws_dispatcher_started(&s->disp, sm->id);
        for (uint32_t k = 0; k < sm->nfreed; k++) ws_sm_block_done(s, sm, sm->freed_at[k]);
        s->x.blocks_started += sm->nstarted;
        sm->nfreed = sm->nstarted = 0;
        sm->aside = NULL;
    }
    if (!ws_dispatcher_give_back(&s->disp, t->back, nback)) return false;
    /* A slot that waited for the window's end with blocks still to come
     * would have had one at once cycle by cycle: the kernel's blocks end
     * within a window, two or more in a slot.  The windows start short
     * and double while no slot waits, up to their longest; once one
     * waits, they halve (not below WS_SHORTEST_WINDOW), and their longest
     * is that from then on, so that they do not swing between a length
     * that waits and one that does not.  An empty kernel of 20,000
     * blocks took 539 cycles in windows of 253 throughout, 48 so, and 47
     * cycle by cycle.  As the rest of the window's end, this depends on
     * the simulation alone, not on the threads. */
    if (waited && ws_dispatcher_left(&s->disp)) {
        if (t->window_cycles > WS_SHORTEST_WINDOW) {
            t->window_cycles /= 2;
            if (t->window_cycles < WS_SHORTEST_WINDOW) t->window_cycles = WS_SHORTEST_WINDOW;
            t->times.shortened++;
        }
        t->window_longest = t->window_cycles;
    } else if (t->window_cycles < t->window_longest) {
        t->window_cycles = t->window_cycles > t->window_longest / 2 ? t->window_longest : 2 * t->window_cycles;
    }
    for (int32_t j = 0; j < t->ndue; j++) {
        int32_t i = t->due[j];
        ws_sm *sm = &t->sms[i];
        if (!ws_sm_fill(s, sm, t->window_end)) return false;
        /* an SM with answers to take (ws_sm_window_finish) runs in the next
         * window, which may move its next cycle earlier */
        uint64_t next = sm->next;
        if (sm->lsu_q.n && next > t->window_end) next = t->window_end;
        t->settled[j] = brief_between(next, sm->finished);
        t->next_of[i] = next;
    }
    prepare_window(t);
    return true;
}

/* A traced window that an SM's fault ended: the events up to the fault,
 * as a run cycle by cycle writes them, their accesses answered before it
 * finished.  Cycle by cycle the failing SM's events of that cycle are
 * written, but for a put-off write's fault, which a run cycle by cycle
 * meets at the cycle's end, before it writes them.  The launch ends with
 * the fault's error: out of memory here leaves the trace short. */
static void trace_to_fault(ws_sm_team *t, const ws_sm_worker *failed)
{
    const uint32_t *answered = requests_cursor(t);
    for (int32_t j = 0; j < t->ndue; j++) ws_sm_finish_answered(t->s, &t->sms[t->due[j]], answered[j]);
    ws_trace_window_write(t->s->trace, t->sms, t->s->g->multiProcessorCount, failed->failed_at,
                          failed->failed_sm + !failed->failed_put_off, &t->order);
}

/* The window's findings up to the cycle at which a write failed, or, when
 * an SM's fault ended it, up to the fault, as a run cycle by cycle shows
 * them: every SM's of the failing cycle where the fault is a write's,
 * which a run cycle by cycle meets after every SM's cycle (failed: the
 * SM's worker, or NULL). */
static void findings_to_fault(ws_sm_team *t, const ws_sm_worker *failed)
{
    ws_exec *x = &t->s->x;
    int32_t nsm = t->s->g->multiProcessorCount;
    if (failed && !failed->failed_put_off)
        ws_checks_window_take(x, t->sms, nsm, failed->failed_at, failed->failed_sm + 1, &t->order);
    else if (failed)
        ws_checks_window_take(x, t->sms, nsm, failed->failed_at + 1, 0, &t->order);
    else if (t->write_failed_at != WS_NEVER)
        ws_checks_window_take(x, t->sms, nsm, t->write_failed_at + 1, 0, &t->order);
}

/* The end of a window, on the calling thread: the SMs' put-off global
 * writes and L2 requests (merge_window), up to the earliest fault (by
 * cycle, then SM), whose error is the launch's, and the window's blocks
 * (settle_blocks).  When the threads ran the window the requests go on
 * the other threads (split_requests) while this one does the writes and
 * the blocks, or, where no two SMs wrote one line (write_claims.h), the
 * blocks and then the writes, SM by SM, with the others as they finish
 * their part of the requests, or, with four threads or more and enough
 * writes, the writes on the second thread and the requests on the others
 * while this one does the blocks; else, with three threads or more, the
 * writes and the requests one by one on two others while this one does
 * the blocks; with two, the writes on the other when there are enough of
 * them. */
static bool end_window(ws_sm_team *t, bool threads)
{
    ws_sm_worker *failed = gather(t);
    ws_exec *x = &t->s->x;
    /* the pages the window's stores made (exec_mem.c: host_lanes), before
     * any write looks for one */
    if (!ws_devmem_adopt_ahead(x->p->mem)) {
        ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    uint32_t nwrites = 0;
    t->last_requests = 0;
    t->write_failed_at = WS_NEVER;
    for (int32_t j = 0; threads && j < t->ndue; j++) {
        nwrites += t->brief[t->due[j]].nwrites;
        t->last_requests += t->brief[t->due[j]].nrequests;
    }
    t->streamed_windows += t->streamed;
    bool atomics = false;
    bool split = threads && !t->streamed && split_requests(t, failed, &atomics), ok = true;
    bool merges = !split && threads && t->nthreads > 2;
    bool writes = !split && !merges && threads && nwrites >= WRITES_FOR_A_THREAD;
    /* the writes SM by SM on all threads, after the others' part of the split */
    t->writes_apart = split && t->have_claims && nwrites >= WRITES_APART && ws_write_claims_apart(&t->claims);
    /* else, when there are enough of them, in order on the second thread
     * beside the split on the others, while this one settles the blocks */
    bool beside = split && !t->writes_apart && t->split_beside && nwrites >= WRITES_FOR_A_THREAD;
    ws_l2_split *sp = beside ? t->split_beside : t->split;
    t->failed_w = failed;
    if (split) {
        ws_l2_split_begin(sp, t->sms, t->due, t->ndue, t->now, t->window_end, t->s->l2);
        atomic_store_explicit(&t->write_next, 0, memory_order_relaxed);
        team_go(t, beside ? JOB_L2_BESIDE : JOB_L2);
        if (!t->writes_apart && !beside) ok = merge_window(t, failed, true, t->events, t->cursor);
    } else if (merges) {
        team_go(t, JOB_MERGES);
    } else if (writes) {
        team_go(t, JOB_WRITES);
        ok = merge_window(t, failed, false, t->events, requests_cursor(t));
    } else {
        ok = merge_window(t, failed, true, t->events, t->cursor) &&
             merge_window(t, failed, false, t->events, requests_cursor(t));
    }
    uint64_t settle_start = ws_clock_ns();
    bool settled = ok && !failed && settle_blocks(t);
    if (threads) t->times.settle_ns += ws_clock_ns() - settle_start;
    if (t->writes_apart) take_writes(t);
    if (split || merges || writes) {
        uint64_t wait_start = ws_clock_ns();
        team_wait(t);
        t->times.end_wait_ns += ws_clock_ns() - wait_start;
    }
    t->apart_windows += t->writes_apart;
    if (merges || writes || beside) ok = ok && t->writes_ok && (!merges || t->requests_ok);
    if (split && ok) {
        ws_l2_split_result r = ws_l2_split_end(sp);
        if (r == WS_L2_SPLIT_NO_MEMORY) {
            ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
        if (r == WS_L2_SPLIT_LOST) {
            ws_error_set(x->err, WS_ERR_KERNEL_FAULT,
                         "internal error: an L2 atomic of the window ending at cycle %llu did not find its sector "
                         "as the check of its window said",
                         (unsigned long long)t->window_end);
            return false;
        }
        if (atomics) note_atomic_split(t, r == WS_L2_SPLIT_ANSWERED);
        if (r == WS_L2_SPLIT_NOT_SPLIT) ok = merge_window(t, failed, false, t->events, requests_cursor(t));
        t->split_windows += r == WS_L2_SPLIT_ANSWERED;
    }
    if (!ok) {
        /* a write that failed as the window's end did it (a wmma.store's,
         * checked only then): the events before the window, which its
         * start finished */
        if (t->s->trace)
            ws_trace_window_write(t->s->trace, t->sms, t->s->g->multiProcessorCount, t->now, 0, &t->order);
        if (x->checks) findings_to_fault(t, NULL);
        return false;
    }
    if (failed) {
        *x->err = failed->err;
        if (t->s->trace) trace_to_fault(t, failed);
        if (x->checks) findings_to_fault(t, failed);
        return false;
    }
    if (!settled) {
        ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    for (int32_t j = 0; j < t->ndue; j++) {
        ws_sm *sm = &t->sms[t->due[j]];
        sm->data.n = sm->data.nrows = 0;
        if (sm->data.own) ws_own_writes_clear(sm->data.own);
        t->brief[t->due[j]] = t->settled[j];
    }
    count_steps(t);
    if (x->checks && !ws_checks_window_take(x, t->sms, t->s->g->multiProcessorCount, WS_NEVER, 0, &t->order)) {
        ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory for the checks' findings");
        return false;
    }
    /* the events issued before the window, finished at its start */
    if (t->s->trace && !ws_trace_window_write(t->s->trace, t->sms, t->s->g->multiProcessorCount, t->now, 0,
                                              &t->order)) {
        ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory for the issue trace");
        return false;
    }
    return true;
}

/* The CPU time the team's threads have spent: the calling thread's all,
 * the others' in the windows' jobs. */
static uint64_t team_cpu_ns(const ws_sm_team *t)
{
    uint64_t ns = thread_cpu_ns();
    for (int32_t k = 1; k < t->nthreads; k++) ns += t->w[k].busy_ns;
    return ns;
}

/* How much faster than one thread alone the threads must seem, by their
 * CPU time, for one thread alone to go untried: twice, or, for threads
 * too few to seem so (N threads seem at most N times as fast: their CPU
 * time is at most N times their wall time), three quarters of N (two
 * threads: 1.5). */
#define ALONE_UNTRIED_MARGIN 2.0
#define ALONE_UNTRIED_SHARE 0.75

/* At the end of a stretch of cycles that took ns for work units (alone:
 * its CPU time per unit): its time per unit of work becomes its mode's
 * figure; the next stretch takes the faster mode, or tries the other one
 * when its turn has come.  A stretch of windows on the threads also
 * estimates one thread's figure: the CPU time the threads spent on the
 * stretch, which one thread alone would spend on its own (a machine whose
 * cores are busy makes the threads' wall time longer, not their CPU time).
 * While the threads are clearly faster than that, one thread is not tried:
 * a try lasts at least a window, and a window of a big grid on one thread
 * takes tens of milliseconds. */
static void judge_stretch(ws_sm_team *t, uint64_t ns, uint64_t work, double alone)
{
    t->ns_per_work[t->parallel] = (double)(ns ? ns : 1) / (double)(work ? work : 1);
    double margin = ALONE_UNTRIED_SHARE * t->nthreads;
    if (margin > ALONE_UNTRIED_MARGIN) margin = ALONE_UNTRIED_MARGIN;
    if (t->parallel && t->window_end && alone > margin * t->ns_per_work[1]) {
        t->ns_per_work[0] = alone;
        t->trying = false;
    } else if (t->ns_per_work[!t->parallel] == 0) {      /* the other mode not measured yet */
        t->parallel = !t->parallel;
        t->trying = true;
    } else {
        bool faster = t->ns_per_work[1] < t->ns_per_work[0];
        if (t->trying) {        /* the tried mode lost: try it less often; won: it is the mode now */
            t->try_gap = faster == t->parallel ? FIRST_TRY_GAP
                       : t->try_gap < MAX_TRY_GAP ? 2 * (t->try_gap ? t->try_gap : 1) : MAX_TRY_GAP;
            t->until_try = t->try_gap;
        }
        t->trying = t->until_try-- == 0;
        t->parallel = t->trying ? !faster : faster;
    }
}

/* Whether the stretch has had its cycles or lasted its time. */
static bool stretch_over(const ws_sm_team *t)
{
    if (t->stretch_cycles >= (t->trying ? TRY_CYCLES : STRETCH_CYCLES)) return true;
    if (!t->window_end && t->stretch_cycles % CLOCK_EVERY) return false;
    return ws_clock_ns() - t->stretch_start_ns >= (t->trying ? TRY_NS : STRETCH_NS);
}

/* Before each cycle (window): whether the stretch goes on, or ends and is
 * judged.  The launch's first stretch is not judged: in windows it is
 * often the first window alone, which starts the threads, first touches
 * the SMs' state and sets up the first wave's blocks, so its time says
 * little of either mode (judged by it, histogram 4194304 on 16 threads
 * sometimes ran most of its first launch on one thread alone: 1.8-2.2 s
 * for the program instead of 0.5). */
static void choose_mode(ws_sm_team *t, int32_t ndue)
{
    if (t->stretch_cycles > 0 && !stretch_over(t)) {
        t->stretch_cycles++;
        t->stretch_sms += (uint64_t)ndue;
        return;
    }
    uint64_t now = ws_clock_ns();
    if (t->stretch_cycles > 0) {
        uint64_t ns = now - t->stretch_start_ns;
        /* the stretch's work: its warp instructions, and its SMs' cycles
         * (windows), which count where little issues */
        uint64_t work = t->steps - t->stretch_steps + t->stretch_sms;
        if (!t->warming)
            judge_stretch(t, ns, work, (double)(team_cpu_ns(t) - t->stretch_cpu_ns) / (double)(work ? work : 1));
        t->warming = false;
    }
    /* a stretch starts with this cycle, in the mode just chosen */
    t->stretch_start_ns = now;
    t->stretch_cpu_ns = team_cpu_ns(t);
    t->stretch_cycles = 1;
    t->stretch_sms = (uint64_t)ndue;
    t->stretch_steps = t->steps;
}

/* The other threads start job (they see the fields set before it). */
static void team_go(ws_sm_team *t, int job)
{
    t->job = job;
    atomic_store(&t->done, 0);
    atomic_fetch_add(&t->gen, 1);
    wake_all(t);
}

/* Until the other threads are done with their job. */
static void team_wait(ws_sm_team *t)
{
    uint64_t wait_start = 0;
    for (int spins = 0; atomic_load(&t->done) < t->nthreads - 1; spins++) {
        if (keep_awake(spins, &wait_start)) continue;
        pthread_mutex_lock(&t->mu);
        atomic_store(&t->caller_asleep, true);
        while (atomic_load(&t->done) < t->nthreads - 1) pthread_cond_wait(&t->cv_done, &t->mu);
        atomic_store(&t->caller_asleep, false);
        pthread_mutex_unlock(&t->mu);
    }
}

/* Before a window on the threads: whether a thread with no SM left to
 * run answers its requests meanwhile (stream_requests).  Not where the
 * split would answer them (the last window's were enough for it: it takes
 * a window's requests whole) nor where a lines report counts each
 * access's L2 sectors. */
static void begin_stream(ws_sm_team *t)
{
    t->streaming = t->window_end && !(t->s->x.l && t->s->x.l->pc_counts) &&
                   (!t->split || t->last_requests < REQUESTS_FOR_THE_THREADS);
    if (!t->streaming) return;
    atomic_store_explicit(&t->streamer, false, memory_order_relaxed);
    atomic_store_explicit(&t->stream_reached, t->now, memory_order_relaxed);
    /* nothing yet (a queue still holds its last window's entries until
     * its SM runs) */
    for (int32_t j = 0; j < t->ndue; j++) atomic_store_explicit(&t->sms[t->due[j]].stream_mark, 0, memory_order_relaxed);
}

/* The team's cycle (window): the SMs on the threads, or on this one. */
static bool run_team(ws_sm_team *t)
{
    if (t->nthreads > 1 && !t->every_cycle) choose_mode(t, t->ndue);
    bool parallel = t->parallel && t->ndue > 1;
    if (parallel && !t->started) parallel = start_threads(t);
    t->prefetch = (parallel ? t->ndue / t->nthreads : t->ndue) >= PREFETCH_FROM_SMS;
    t->streaming = t->streamed = false;
    if (t->have_claims && t->window_end) ws_write_claims_next_window(&t->claims);
    if (!parallel) {
        uint64_t start = t->window_end ? ws_clock_ns() : 0;     /* (no clock for a cycle) */
        run_share(t, &t->w[0], true);
        if (!t->window_end) return end_cycle(t);
        bool ok = end_window(t, false);
        t->times.alone_windows++;
        t->times.alone_ns += ws_clock_ns() - start;
        return ok;
    }
    for (int32_t k = 0; t->window_end && k < t->nthreads; k++) {
        atomic_store(&t->shares[k].next, (int32_t)((int64_t)k * t->ndue / t->nthreads));
        t->shares[k].end = (int32_t)((int64_t)(k + 1) * t->ndue / t->nthreads);
    }
    begin_stream(t);
    uint64_t start = ws_clock_ns();
    team_go(t, JOB_SMS);
    run_share(t, &t->w[0], false);
    team_wait(t);
    if (!t->window_end) return end_cycle(t);
    uint64_t ran = ws_clock_ns(), longest = 0;
    ws_window_times *wt = &t->times;
    for (int32_t k = 0; k < t->nthreads; k++) {
        if (t->w[k].longest_ns > longest) longest = t->w[k].longest_ns;
        wt->sm_windows_ns += t->w[k].sm_windows_ns;
    }
    wt->windows++;
    wt->sms_ns += ran - start;
    wt->busiest_ns += longest;
    /* the settling, on this thread inside the end, is counted by end_window */
    bool ok = end_window(t, true);
    wt->ends_ns += ws_clock_ns() - ran;
    return ok;
}

bool ws_sm_team_cycle(ws_sm_team *t, const int32_t *due, int32_t ndue, uint64_t now)
{
    t->due = due;
    t->ndue = ndue;
    t->now = now;
    t->window_end = 0;
    return run_team(t);
}

/* Before a window: for each of its SMs (due, n of them), as many of the
 * grid's next blocks as it holds (each may end in the window), in the
 * order its blocks started, so that, as cycle by cycle, the blocks that
 * end first make room for the grid's next. */
static void set_aside(ws_sm_team *t, const int32_t *due, int32_t ndue)
{
    ws_dispatcher *d = &t->s->disp;
    ws_aside *a = &t->aside;
    a->ntaken = 0;
    if (!ws_dispatcher_left(d)) return;
    /* each SM's run as its list has them (ascending); which SM's key gets
     * which block is worked out when a slot frees (ws_sm_retire), on the
     * SM's thread, from the ranks: no sort of them all here */
    uint32_t n = 0;
    for (int32_t j = 0; j < ndue; j++) {
        ws_sm *sm = &t->sms[due[j]];
        t->aside_runs[j] = n;
        for (uint32_t k = 0; k < sm->nby_start; k++)
            t->resident[n++] = sm->by_start[k] << WS_ASIDE_SM_BITS | (uint64_t)(uint32_t)due[j];
        sm->aside = a;
        sm->aside_run = (uint32_t)j;
    }
    t->aside_runs[ndue] = n;
    *a = (ws_aside){.keys = t->resident, .run_start = t->aside_runs, .nruns = (uint32_t)ndue, .taken = t->taken};
    for (uint32_t k = 0; k < n; k++) {
        int64_t b = ws_dispatcher_take(d);
        if (b < 0) break;
        t->taken[a->ntaken++] = (uint64_t)b;
    }
}

/* The next window from the SMs' next cycles: from the earliest, window
 * cycles (up to max_cycles + 1), its due SMs in the list the window now
 * running does not use, and the blocks set aside for them. */
static void prepare_window(ws_sm_team *t)
{
    int32_t nsm = t->s->g->multiProcessorCount;
    uint64_t start = WS_NEVER;
    for (int32_t i = 0; i < nsm; i++)
        if (t->next_of[i] < start) start = t->next_of[i];
    int32_t *due = t->due_lists[t->due == t->due_lists[0]];
    int32_t ndue = 0;
    uint64_t end = start;
    if (start != WS_NEVER) {
        end = start + t->window_cycles;
        /* the short windows a launch starts with end where its first
         * window of the longest would: from there on the windows begin
         * where they would have, had they all been of the longest */
        if (!t->first_end) t->first_end = start + t->window_longest;
        if (start < t->first_end && end > t->first_end) end = t->first_end;
        if (t->max_cycles && end > t->max_cycles + 1) end = t->max_cycles + 1;
        for (int32_t i = 0; i < nsm; i++)
            if (t->next_of[i] < end) due[ndue++] = i;
        set_aside(t, due, ndue);
    }
    t->next_start = start;
    t->next_end = end;
    t->next_due = due;
    t->next_ndue = ndue;
    t->prepared = true;
}

void ws_sm_team_use_windows(ws_sm_team *t, uint32_t window, uint64_t max_cycles)
{
    t->window_longest = window;
    t->window_cycles = window < WS_SHORTEST_WINDOW ? window : WS_SHORTEST_WINDOW;
    t->first_end = 0;
    t->max_cycles = max_cycles;
}

bool ws_sm_team_next_window(ws_sm_team *t, uint64_t *start, uint64_t *end)
{
    if (!t->prepared) prepare_window(t);
    *start = t->next_start;
    *end = t->next_end;
    return t->next_start != WS_NEVER;
}

bool ws_sm_team_window(ws_sm_team *t)
{
    t->due = t->next_due;
    t->ndue = t->next_ndue;
    t->now = t->next_start;
    t->window_end = t->next_end;
    t->prepared = false;
    return run_team(t);
}

bool ws_sm_team_trace_rest(ws_sm_team *t)
{
    int32_t nsm = t->s->g->multiProcessorCount;
    for (int32_t i = 0; i < nsm; i++)
        if (t->sms[i].lsu_q.n) ws_sm_window_finish(t->s, &t->sms[i]);
    if (ws_trace_window_write(t->s->trace, t->sms, nsm, WS_NEVER, 0, &t->order)) return true;
    ws_error_set(t->s->x.err, WS_ERR_NO_MEMORY, "out of memory for the issue trace");
    return false;
}

void ws_sm_team_free(ws_sm_team *t, ws_launch_stats *st, ws_timing_stats *ts)
{
    if (t->started) {
        atomic_store(&t->stop, true);
        pthread_mutex_lock(&t->mu);
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        if (t->pool) ws_thread_pool_wait(t->pool);      /* NULL: none could be made, no threads */
        if (t->own_pool) ws_thread_pool_free(t->pool);
    }
    ws_devmem_adopt_ahead(t->s->x.p->mem);      /* a window that did not end */
    ts->l2_split_windows += t->split_windows;
    ts->writes_apart_windows += t->apart_windows;
    ts->streamed_windows += t->streamed_windows;
    ts->host = t->times;     /* a launch has one team */
    if (t->have_claims) {
        for (int32_t i = 0; i < t->s->g->multiProcessorCount; i++) t->sms[i].data.claims = NULL;
        ws_write_claims_free(&t->claims);
    }
    if (t->pc_own) {    /* the threads' per-line counters, the earliest stride of each pc */
        size_t npc = ws_program_code_size(t->s->x.p);
        for (int32_t k = 1; k < t->nthreads; k++) ws_pc_counts_add(t->pc_own, t->pc_own + (size_t)k * npc, npc, true);
        ws_pc_counts_add(t->s->x.l->pc_counts, t->pc_own, npc, false);
    }
    for (int32_t k = 0; t->timelines && k < t->nthreads; k++) ws_issue_timeline_merge(t->s->timeline, t->timelines[k]);
    for (int32_t k = 0; k < t->nthreads; k++) {
        ws_launch_stats_add(st, &t->w[k].st);
        ws_timing_stats_add_sm_counts(ts, &t->w[k].ts);
        free(t->w[k].s.x.bank_memo);
    }
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    pthread_cond_destroy(&t->cv_done);
    ws_l2_split_free(t->split);
    ws_l2_split_free(t->split_beside);
    ws_window_order_free(&t->order);
    free_arrays(t);
}
