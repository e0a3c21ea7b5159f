/* SMs by a cycle, then their index: a binary min-heap of copied keys.  The
 * timed launch's main loop keeps its busy SMs in one by their next cycle
 * (timing.c), and a window's end its due SMs by their next cycle with
 * put-off work (sm_team.c). */
#ifndef WARPSIM_SM_QUEUE_H
#define WARPSIM_SM_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ws_sm_entry {
    uint64_t next;
    int32_t id;
} ws_sm_entry;

typedef struct ws_sm_queue {
    ws_sm_entry *heap;      /* room for every SM; the caller's */
    int32_t n;
} ws_sm_queue;

static inline bool ws_sm_before(ws_sm_entry a, ws_sm_entry b)
{
    return a.next != b.next ? a.next < b.next : a.id < b.id;
}

static inline void ws_sm_queue_push(ws_sm_queue *q, ws_sm_entry e)
{
    int32_t k = q->n++;
    for (; k > 0 && ws_sm_before(e, q->heap[(k - 1) / 2]); k = (k - 1) / 2)
        q->heap[k] = q->heap[(k - 1) / 2];
    q->heap[k] = e;
}

/* Removes heap[0], the first. */
static inline void ws_sm_queue_pop(ws_sm_queue *q)
{
    ws_sm_entry last = q->heap[--q->n];
    int32_t k = 0;
    for (;;) {
        int32_t c = 2 * k + 1;
        if (c >= q->n) break;
        if (c + 1 < q->n && ws_sm_before(q->heap[c + 1], q->heap[c])) c++;
        if (!ws_sm_before(q->heap[c], last)) break;
        q->heap[k] = q->heap[c];
        k = c;
    }
    q->heap[k] = last;
}

#endif
