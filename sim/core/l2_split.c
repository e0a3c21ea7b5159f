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

/* One thread's lists, on lines of its own. */
typedef struct split_thread {
    _Alignas(64) keys *to;      /* per owner: the route's keys for its slices */
    keys mine, tmp;             /* its slices' keys, and room to sort them */
    chan_items *work;           /* per owner: channel work for its channels */
    wait_items waits;
    keys fills;                 /* the keys of its misses */
    ws_l2_tally tally;
    bool atomic;                /* the route met an atomic (or a request it has no key for) */
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
    _Alignas(64) atomic_bool stop;  /* an atomic met: every thread stops after the route */
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
    for (int32_t i = 0; i < sp->nthreads; i++) {
        split_thread *th = &sp->th[i];
        for (int32_t k = 0; k < sp->nthreads; k++) th->to[k].n = th->work[k].n = 0;
        th->mine.n = th->waits.n = th->fills.n = 0;
        th->tally = (ws_l2_tally){0};
        th->atomic = th->oom = false;
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
 * the owners of their slices; an atomic stops every thread. */
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
                if (q->req[r].op != WS_I_LD && q->req[r].op != WS_I_ST) {
                    th->atomic = true;
                    atomic_store(&sp->stop, true);
                    return;
                }
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

/* Step 1 for the slices this thread owns, their requests in the window's
 * order. */
static void slices(ws_l2_split *sp, int32_t index)
{
    split_thread *th = &sp->th[index];
    uint32_t total = 0;
    for (int32_t k = 0; k < sp->nthreads; k++) total += sp->th[k].to[index].n;
    keys *mine = &th->mine;
    if (!reserve(mine, total) || !reserve(&th->tmp, total)) {
        th->oom = true;
        return;
    }
    mine->n = 0;
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
    uint32_t n = (uint32_t)sp->nthreads;
    for (uint32_t i = 0; i < mine->n; i++) {
        prefetch_ahead(sp, mine->a, i, mine->n);
        uint64_t key = mine->a[i];
        ws_l2_request *r = request_of(sp, key);
        ws_l2_part p;
        ws_l2_slice_part(sp->l2, &th->tally, r->op == WS_I_ST, r->first, r->sector, r->start, key, &p);
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
    slices(sp, index);
    barrier(sp);
    channels(sp, index);
    barrier(sp);
    settle(sp, index);
}

ws_l2_split_result ws_l2_split_end(ws_l2_split *sp)
{
    bool atomic = false, oom = false;
    for (int32_t i = 0; i < sp->nthreads; i++) atomic |= sp->th[i].atomic, oom |= sp->th[i].oom;
    if (oom) return WS_L2_SPLIT_NO_MEMORY;
    if (atomic) return WS_L2_SPLIT_NOT_SPLIT;
    for (int32_t i = 0; i < sp->nthreads; i++) ws_l2_tally_add(sp->l2, &sp->th[i].tally);
    return WS_L2_SPLIT_ANSWERED;
}
