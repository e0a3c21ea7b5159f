/* The trace and the checks' findings of a window in the order of a run
 * cycle by cycle (window_order.h). */
#include "window_order.h"

#include <stdlib.h>
#include <string.h>

#include "executor.h"
#include "../trace/trace.h"

typedef struct order_key {
    uint64_t cycle;
    int32_t sm;
    uint32_t index;         /* in its SM's list: the order it was recorded in */
} order_key;

static int key_order(const void *pa, const void *pb)
{
    const order_key *a = pa, *b = pb;
    if (a->cycle != b->cycle) return a->cycle < b->cycle ? -1 : 1;
    if (a->sm != b->sm) return a->sm < b->sm ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static bool before_cut(uint64_t cycle, int32_t sm, uint64_t cut_cycle, int32_t cut_sm)
{
    return cycle < cut_cycle || (cycle == cut_cycle && sm < cut_sm);
}

/* Room for n keys in m. */
static bool keys_room(ws_window_order *m, size_t n)
{
    if (n <= m->cap) return true;
    order_key *k = realloc(m->keys, sizeof *k * n);
    if (!k) return false;
    m->keys = k;
    m->cap = n;
    return true;
}

/* How many of sm's events, which are in cycle order, come before the cut. */
static uint32_t events_before(const ws_sm *sm, uint64_t cut_cycle, int32_t cut_sm)
{
    uint32_t n = 0;
    while (n < sm->ntrace_ev && before_cut(sm->trace_ev[n].cycle, sm->id, cut_cycle, cut_sm)) n++;
    return n;
}

/* Drops sm's first n events; the queue's entries point past them. */
static void drop_events(ws_sm *sm, uint32_t n)
{
    if (!n) return;
    memmove(sm->trace_ev, sm->trace_ev + n, sizeof *sm->trace_ev * (sm->ntrace_ev - n));
    sm->ntrace_ev -= n;
    ws_lsu_queue *q = &sm->lsu_q;
    for (uint32_t k = 0; k < q->n; k++) q->a[k].trace = q->a[k].trace > n ? q->a[k].trace - n : 0;
}

bool ws_trace_window_write(struct ws_trace *trace, ws_sm *sms, int32_t nsm, uint64_t cut_cycle, int32_t cut_sm,
                           ws_window_order *m)
{
    size_t total = 0;
    for (int32_t i = 0; i < nsm; i++) total += events_before(&sms[i], cut_cycle, cut_sm);
    if (!total) return true;
    if (!keys_room(m, total)) return false;
    size_t n = 0;
    for (int32_t i = 0; i < nsm; i++) {
        uint32_t own = events_before(&sms[i], cut_cycle, cut_sm);
        for (uint32_t e = 0; e < own; e++)
            m->keys[n++] = (order_key){.cycle = sms[i].trace_ev[e].cycle, .sm = i, .index = e};
    }
    qsort(m->keys, n, sizeof *m->keys, key_order);
    for (size_t e = 0; e < n; e++) ws_trace_issue(trace, &sms[m->keys[e].sm].trace_ev[m->keys[e].index]);
    for (int32_t i = 0; i < nsm; i++) drop_events(&sms[i], events_before(&sms[i], cut_cycle, cut_sm));
    return true;
}

bool ws_checks_window_take(struct ws_exec *x, ws_sm *sms, int32_t nsm, uint64_t cut_cycle, int32_t cut_sm,
                           ws_window_order *m)
{
    size_t total = 0;
    bool ok = true;
    for (int32_t i = 0; i < nsm; i++) {
        total += sms[i].findings.n;
        ok = ok && !sms[i].findings.oom;
    }
    if (!total) return ok;
    if (!keys_room(m, total)) return false;
    size_t n = 0;
    for (int32_t i = 0; i < nsm; i++) {
        const ws_check_buffer *b = &sms[i].findings;
        for (uint32_t e = 0; e < b->n; e++)
            if (before_cut(b->a[e].cycle, i, cut_cycle, cut_sm))
                m->keys[n++] = (order_key){.cycle = b->a[e].cycle, .sm = i, .index = e};
    }
    qsort(m->keys, n, sizeof *m->keys, key_order);
    for (size_t e = 0; e < n; e++) ws_check_take(x, &sms[m->keys[e].sm].findings, m->keys[e].index);
    for (int32_t i = 0; i < nsm; i++) ws_check_buffer_clear(&sms[i].findings);
    return ok;
}

void ws_window_order_free(ws_window_order *m)
{
    free(m->keys);
    m->keys = NULL;
    m->cap = 0;
}
