/* A window's L2 requests on several threads (l2_split.h). */
#define _GNU_SOURCE
#include "l2_split.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../base/prefetch.h"
#include "sm_queue.h"
#include "sort_keys.h"

/* A key: the cycle within the window, the SM's place in due, the
 * request's index in its SM's list.  Below WS_L2_PENDING, as a ticket must
 * be. */
#define KEY_REQ_BITS 32
#define KEY_DUE_BITS 12
#define KEY_CYCLE_BITS 16
#define KEY_DUE_SHIFT KEY_REQ_BITS
#define KEY_CYCLE_SHIFT (KEY_REQ_BITS + KEY_DUE_BITS)

typedef struct keys {
    uint64_t *a;
    uint32_t n, cap;
} keys;

/* Channel work in the window's order. */
typedef struct chan_item {
    uint64_t key;
    ws_l2_part part;
} chan_item;

typedef struct chan_items {
    chan_item *a;
    uint32_t n, cap;
} chan_items;

/* A hit that waits: its request, and the fill's. */
typedef struct wait_item {
    uint64_t key, ticket;
} wait_item;

typedef struct wait_items {
    wait_item *a;
    uint32_t n, cap;
} wait_items;

/* A request of a thread's slices as the atomics' check reads it. */
typedef struct seen_request {
    uint64_t sector;
    uint32_t slice;
    bool atomic;
} seen_request;

/* One thread's lists, on lines of its own. */
typedef struct split_thread {
    _Alignas(64) keys *to;      /* per owner: the route's keys for its slices */
    keys mine, tmp;             /* its slices' keys, and room to sort them */
    chan_items *work;           /* per owner: channel work for its channels */
    wait_items waits;
    keys fills;                 /* the keys of its misses */
    seen_request *seen;         /* its slices' requests in order, for check_atomics */
    uint32_t seen_cap;
    ws_l2_tally tally;
    bool routed_atomic;         /* the route gave an atomic to some thread */
    bool atomic;                /* not split: an atomic the check could not vouch for, or a request with no key */
    bool lost;                  /* an atomic found its sector other than the check said (a fault of the check) */
    bool oom;
} split_thread;

struct ws_l2_split {
    int32_t nthreads;
    split_thread *th;
    ws_sm *sms;
    const int32_t *due;
    int32_t ndue;
    uint64_t start, end;
    ws_l2_dram *l2;
    _Alignas(64) atomic_int arrived;
    atomic_uint phase;
    _Alignas(64) atomic_bool stop;  /* the route met a request with no key: every thread stops after it */
    atomic_bool refuse;             /* the check could not vouch for an atomic: every thread stops after it */
};

/* Room for one more in a list of element size bytes; false on out of
 * memory. */
static bool room(void **a, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap) return true;
    uint32_t c = *cap ? *cap * 2 : 1024;
    void *p = realloc(*a, size * c);
    if (!p) return false;
    *a = p;
    *cap = c;
    return true;
}

/* Room for n in all. */
static bool reserve(keys *k, uint32_t n)
{
    if (n <= k->cap) return true;
    uint64_t *p = realloc(k->a, sizeof *p * n);
    if (!p) return false;
    k->a = p;
    k->cap = n;
    return true;
}

static bool push_key(keys *k, uint64_t key)
{
    if (!room((void **)&k->a, k->n, &k->cap, sizeof *k->a)) return false;
    k->a[k->n++] = key;
    return true;
}

ws_l2_split *ws_l2_split_create(int32_t nthreads)
{
    if (nthreads < 1 || nthreads > WS_L2_SPLIT_MAX_THREADS) return NULL;
    ws_l2_split *sp = calloc(1, sizeof *sp);
    if (!sp) return NULL;
    sp->nthreads = nthreads;
    sp->th = aligned_alloc(_Alignof(split_thread), sizeof *sp->th * (size_t)nthreads);
    if (!sp->th) {
        free(sp);
        return NULL;
    }
    memset(sp->th, 0, sizeof *sp->th * (size_t)nthreads);
    bool ok = true;
    for (int32_t i = 0; i < nthreads; i++) {
        sp->th[i].to = calloc((size_t)nthreads, sizeof *sp->th[i].to);
        sp->th[i].work = calloc((size_t)nthreads, sizeof *sp->th[i].work);
        ok = ok && sp->th[i].to && sp->th[i].work;
    }
    if (!ok) {
        ws_l2_split_free(sp);
        return NULL;
    }
    return sp;
}

void ws_l2_split_free(ws_l2_split *sp)
{
    if (!sp) return;
    for (int32_t i = 0; i < sp->nthreads; i++) {
        split_thread *th = &sp->th[i];
        for (int32_t k = 0; th->to && k < sp->nthreads; k++) free(th->to[k].a);
        for (int32_t k = 0; th->work && k < sp->nthreads; k++) free(th->work[k].a);
        free(th->to);
        free(th->work);
        free(th->mine.a);
        free(th->tmp.a);
        free(th->waits.a);
        free(th->fills.a);
        free(th->seen);
    }
    free(sp->th);
    free(sp);
}

bool ws_l2_split_fits(int32_t ndue, uint64_t start, uint64_t end)
{
    return ndue <= (1 << KEY_DUE_BITS) && end - start <= (UINT64_C(1) << KEY_CYCLE_BITS);
}

void ws_l2_split_begin(ws_l2_split *sp, ws_sm *sms, const int32_t *due, int32_t ndue, uint64_t start,
                       uint64_t end, ws_l2_dram *l2)
{
    sp->sms = sms;
    sp->due = due;
    sp->ndue = ndue;
    sp->start = start;
    sp->end = end;
    sp->l2 = l2;
    atomic_store(&sp->stop, false);
    atomic_store(&sp->refuse, false);
    for (int32_t i = 0; i < sp->nthreads; i++) {
        split_thread *th = &sp->th[i];
        for (int32_t k = 0; k < sp->nthreads; k++) th->to[k].n = th->work[k].n = 0;
        th->mine.n = th->waits.n = th->fills.n = 0;
        th->tally = (ws_l2_tally){0};
        th->routed_atomic = th->atomic = th->lost = th->oom = false;
    }
}

static ws_l2_request *request_of(const ws_l2_split *sp, uint64_t key)
{
    int32_t j = (int32_t)((key >> KEY_DUE_SHIFT) & ((1u << KEY_DUE_BITS) - 1));
    return &sp->sms[sp->due[j]].lsu_q.req[key & UINT32_MAX];
}

/* Until every thread has come this far (spinning a while, then yielding:
 * the machine may have fewer free cores than threads). */
static void barrier(ws_l2_split *sp)
{
    unsigned phase = atomic_load(&sp->phase);
    if (atomic_fetch_add(&sp->arrived, 1) == sp->nthreads - 1) {
        atomic_store(&sp->arrived, 0);
        atomic_fetch_add(&sp->phase, 1);
        return;
    }
    for (int spins = 0; atomic_load(&sp->phase) == phase; spins++)
        if (spins > 1000) sched_yield();
}

/* The requests of due SMs [index * ndue / n, (index + 1) * ndue / n), to
 * the owners of their slices; a request of an earlier window (no key)
 * stops every thread. */
static void route(ws_l2_split *sp, int32_t index)
{
    split_thread *th = &sp->th[index];
    uint32_t n = (uint32_t)sp->nthreads;
    for (int32_t j = (int32_t)((int64_t)index * sp->ndue / n); j < (int64_t)(index + 1) * sp->ndue / n; j++) {
        const ws_lsu_queue *q = &sp->sms[sp->due[j]].lsu_q;
        for (uint32_t k = 0; k < q->n && q->a[k].cycle < sp->end; k++) {
            const ws_lsu_pending *e = &q->a[k];
            if (e->lead_reg >= 0) continue;
            if (e->cycle < sp->start) {     /* not the window's (no key): one by one */
                th->atomic = true;
                atomic_store(&sp->stop, true);
                return;
            }
            uint64_t base = (e->cycle - sp->start) << KEY_CYCLE_SHIFT | (uint64_t)j << KEY_DUE_SHIFT;
            for (uint32_t r = e->first_req; r < e->first_req + e->nreq; r++) {
                uint8_t op = q->req[r].op;
                if (op != WS_I_LD && op != WS_I_ST && op != WS_I_ATOM) {
                    th->atomic = true;
                    atomic_store(&sp->stop, true);
                    return;
                }
                th->routed_atomic |= op == WS_I_ATOM;
                uint32_t owner = ws_l2_slice_of(sp->l2, q->req[r].sector) % n;
                if (!push_key(&th->to[owner], base | r)) {
                    th->oom = true;
                    atomic_store(&sp->stop, true);
                    return;
                }
            }
        }
    }
}

static bool push_work(chan_items *w, uint64_t key, const ws_l2_part *p)
{
    if (!room((void **)&w->a, w->n, &w->cap, sizeof *w->a)) return false;
    w->a[w->n++] = (chan_item){.key = key, .part = *p};
    return true;
}

static bool push_wait(wait_items *w, uint64_t key, uint64_t ticket)
{
    if (!room((void **)&w->a, w->n, &w->cap, sizeof *w->a)) return false;
    w->a[w->n++] = (wait_item){.key = key, .ticket = ticket};
    return true;
}

/* How far ahead of the one it answers a loop over keys asks the host for
 * a request's record (in its SM's list, another core's), and for the L2
 * set the request will look up (ws_l2_prefetch; its sector read from the
 * record asked for before): either would otherwise miss the host's caches
 * on nearly every request of a big window. */
#define AHEAD_RECORD 16
#define AHEAD_SET 8

static void prefetch_ahead(const ws_l2_split *sp, const uint64_t *key, uint32_t i, uint32_t n)
{
    if (i + AHEAD_RECORD < n) ws_prefetch(request_of(sp, key[i + AHEAD_RECORD]));
    if (i + AHEAD_SET < n) ws_l2_prefetch(sp->l2, request_of(sp, key[i + AHEAD_SET])->sector);
}

/* The requests of the slices this thread owns, in the window's order,
 * into th->mine. */
static void gather(ws_l2_split *sp, int32_t index)
{
    split_thread *th = &sp->th[index];
    uint32_t total = 0;
    for (int32_t k = 0; k < sp->nthreads; k++) total += sp->th[k].to[index].n;
    keys *mine = &th->mine;
    mine->n = 0;
    if (!reserve(mine, total) || !reserve(&th->tmp, total)) {
        th->oom = true;
        return;
    }
    for (int32_t k = 0; k < sp->nthreads; k++) {
        const keys *from = &sp->th[k].to[index];
        if (!from->n) continue;     /* (its list may not exist) */
        memcpy(mine->a + mine->n, from->a, sizeof *from->a * from->n);
        mine->n += from->n;
    }
    /* the lists come SM by SM (each thread routes a range of the due SMs
     * in order, and the ranges are joined in order), each SM's requests in
     * its list's order: sorted by cycle alone, stably, they are in key
     * order (one counting pass: a window's cycles fit a byte or two) */
    ws_sort_keys_from(mine->a, th->tmp.a, mine->n, KEY_CYCLE_SHIFT);
}

/* Requests a thread's check looks back over for one atomic before it gives
 * the window up (its cost stays linear in the requests). */
#define CHECK_LOOK_BACK 512

/* Whether each atomic of this thread's slices will find its sector valid
 * with its time known at its turn, so that step 1 can take it whole
 * (ws_l2_slice_atomic): it is so now (the window's start; nothing has
 * changed yet), and its line stays.  A fill never lands on a valid sector,
 * so only an eviction could undo that, and each request to another line
 * of its set moves the line at most one way nearer eviction: the line
 * stays while the requests to other lines of its slice (a bound on its
 * set's) since the window's start, or since the last atomic on the line
 * (which made it the most recent of its set), number no more than the
 * ways older than it then.  Else every thread stops: the window goes one
 * by one, as before any change. */
static void check_atomics(ws_l2_split *sp, int32_t index)
{
    split_thread *th = &sp->th[index];
    const keys *mine = &th->mine;
    if (th->oom) return;
    if (mine->n > th->seen_cap) {
        seen_request *p = realloc(th->seen, sizeof *p * mine->n);
        if (!p) {
            th->oom = true;
            return;
        }
        th->seen = p;
        th->seen_cap = mine->n;
    }
    for (uint32_t i = 0; i < mine->n; i++) {
        const ws_l2_request *r = request_of(sp, mine->a[i]);
        th->seen[i] = (seen_request){.sector = r->sector, .slice = ws_l2_slice_of(sp->l2, r->sector),
                                     .atomic = r->op == WS_I_ATOM};
    }
    for (uint32_t i = 0; i < mine->n; i++) {
        const seen_request *a = &th->seen[i];
        if (!a->atomic) continue;
        uint64_t line = a->sector / WS_SECTORS_PER_LINE;
        uint32_t others = 0, older = 0, k = i, looked = 0;
        bool since_atomic = false;
        for (; k > 0 && looked < CHECK_LOOK_BACK; looked++) {
            const seen_request *b = &th->seen[--k];
            if (b->slice != a->slice) continue;
            if (b->sector / WS_SECTORS_PER_LINE != line) others++;
            else if (b->atomic) {
                since_atomic = true;
                break;
            }
        }
        bool sure = (since_atomic || k == 0) && ws_l2_atomic_known(sp->l2, a->sector, &older) &&
                    others <= (since_atomic ? sp->l2->ways - 1 : older);
        if (!sure) {
            th->atomic = true;
            atomic_store(&sp->refuse, true);
            return;
        }
    }
}

/* Step 1 for the slices this thread owns, their requests in the window's
 * order (gather's). */
static void slices(ws_l2_split *sp, int32_t index)
{
    split_thread *th = &sp->th[index];
    if (th->oom) return;
    keys *mine = &th->mine;
    uint32_t n = (uint32_t)sp->nthreads;
    for (uint32_t i = 0; i < mine->n; i++) {
        prefetch_ahead(sp, mine->a, i, mine->n);
        uint64_t key = mine->a[i];
        ws_l2_request *r = request_of(sp, key);
        ws_l2_part p;
        if (r->op == WS_I_ATOM) {
            if (!ws_l2_slice_atomic(sp->l2, &th->tally, r->sector, r->serial, r->start, &p)) {
                th->lost = true;
                return;
            }
        } else {
            ws_l2_slice_part(sp->l2, &th->tally, r->op == WS_I_ST, r->first, r->sector, r->start, key, &p);
        }
        r->done = p.done;
        bool ok = true;
        if (p.wait != WS_L2_NO_TICKET) ok = push_wait(&th->waits, key, p.wait);
        if (p.chan_cost) ok = ok && push_work(&th->work[p.channel % n], key, &p);
        if (p.read) ok = ok && push_key(&th->fills, key);
        if (!ok) {
            th->oom = true;
            return;
        }
    }
}

/* Step 2 for the channels this thread owns: each slice owner's work is in
 * the window's order already; merged, by key. */
static void channels(ws_l2_split *sp, int32_t index)
{
    ws_sm_entry heap[WS_L2_SPLIT_MAX_THREADS];
    uint32_t at[WS_L2_SPLIT_MAX_THREADS] = {0};
    ws_sm_queue q = {.heap = heap, .n = 0};
    for (int32_t k = 0; k < sp->nthreads; k++)
        if (sp->th[k].work[index].n) ws_sm_queue_push(&q, (ws_sm_entry){.next = sp->th[k].work[index].a[0].key, .id = k});
    while (q.n) {
        int32_t k = q.heap[0].id;
        ws_sm_queue_pop(&q);
        const chan_items *w = &sp->th[k].work[index];
        const chan_item *it = &w->a[at[k]++];
        uint64_t back = ws_l2_channel_part(sp->l2, &it->part);
        if (it->part.read) request_of(sp, it->key)->done = back;
        if (at[k] < w->n) ws_sm_queue_push(&q, (ws_sm_entry){.next = w->a[at[k]].key, .id = k});
    }
}

/* Step 3 for this thread's slices. */
static void settle(ws_l2_split *sp, int32_t index)
{
    split_thread *th = &sp->th[index];
    for (uint32_t i = 0; i < th->waits.n; i++) {
        ws_l2_request *r = request_of(sp, th->waits.a[i].key);
        uint64_t fill = request_of(sp, th->waits.a[i].ticket)->done;
        if (fill > r->done) r->done = fill;
    }
    for (uint32_t i = 0; i < th->fills.n; i++) {
        prefetch_ahead(sp, th->fills.a, i, th->fills.n);
        uint64_t key = th->fills.a[i];
        const ws_l2_request *r = request_of(sp, key);
        ws_l2_settle(sp->l2, r->sector, key, r->done);
    }
}

void ws_l2_split_run(ws_l2_split *sp, int32_t index)
{
    route(sp, index);
    barrier(sp);
    if (atomic_load(&sp->stop)) return;
    gather(sp, index);
    bool atomics = false;
    for (int32_t k = 0; k < sp->nthreads; k++) atomics |= sp->th[k].routed_atomic;
    if (atomics) {      /* every thread sees the same routes: all check, or none */
        check_atomics(sp, index);
        barrier(sp);
        if (atomic_load(&sp->refuse)) return;
    }
    slices(sp, index);
    barrier(sp);
    channels(sp, index);
    barrier(sp);
    settle(sp, index);
}

ws_l2_split_result ws_l2_split_end(ws_l2_split *sp)
{
    bool atomic = false, oom = false, lost = false;
    for (int32_t i = 0; i < sp->nthreads; i++)
        atomic |= sp->th[i].atomic, oom |= sp->th[i].oom, lost |= sp->th[i].lost;
    if (oom) return WS_L2_SPLIT_NO_MEMORY;
    if (lost) return WS_L2_SPLIT_LOST;
    if (atomic) return WS_L2_SPLIT_NOT_SPLIT;
    for (int32_t i = 0; i < sp->nthreads; i++) ws_l2_tally_add(sp->l2, &sp->th[i].tally);
    return WS_L2_SPLIT_ANSWERED;
}
