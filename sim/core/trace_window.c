/* The issue trace in windows of cycles (trace_window.h). */
#include "trace_window.h"

#include <stdlib.h>
#include <string.h>

#include "../trace/trace.h"

typedef struct trace_key {
    uint64_t cycle;
    int32_t sm;
    uint32_t index;         /* in its SM's events: their order of issue */
} trace_key;

static int key_order(const void *pa, const void *pb)
{
    const trace_key *a = pa, *b = pb;
    if (a->cycle != b->cycle) return a->cycle < b->cycle ? -1 : 1;
    if (a->sm != b->sm) return a->sm < b->sm ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* How many of sm's events, which are in cycle order, come before the cut. */
static uint32_t before_cut(const ws_sm *sm, uint64_t cut_cycle, int32_t cut_sm)
{
    uint32_t n = 0;
    while (n < sm->ntrace_ev && (sm->trace_ev[n].cycle < cut_cycle ||
                                 (sm->trace_ev[n].cycle == cut_cycle && sm->id < cut_sm)))
        n++;
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
                           ws_trace_merge *m)
{
    size_t total = 0;
    for (int32_t i = 0; i < nsm; i++) total += before_cut(&sms[i], cut_cycle, cut_sm);
    if (!total) return true;
    if (total > m->cap) {
        trace_key *k = realloc(m->keys, sizeof *k * total);
        if (!k) return false;
        m->keys = k;
        m->cap = total;
    }
    size_t n = 0;
    for (int32_t i = 0; i < nsm; i++) {
        uint32_t own = before_cut(&sms[i], cut_cycle, cut_sm);
        for (uint32_t e = 0; e < own; e++)
            m->keys[n++] = (trace_key){.cycle = sms[i].trace_ev[e].cycle, .sm = i, .index = e};
    }
    qsort(m->keys, n, sizeof *m->keys, key_order);
    for (size_t e = 0; e < n; e++) ws_trace_issue(trace, &sms[m->keys[e].sm].trace_ev[m->keys[e].index]);
    for (int32_t i = 0; i < nsm; i++) drop_events(&sms[i], before_cut(&sms[i], cut_cycle, cut_sm));
    return true;
}

void ws_trace_merge_free(ws_trace_merge *m)
{
    free(m->keys);
    m->keys = NULL;
    m->cap = 0;
}
