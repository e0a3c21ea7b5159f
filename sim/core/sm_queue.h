/* SMs by a cycle, then their index: a binary min-heap of copied keys.  The
 * timed launch's main loop keeps its busy SMs in one by their next cycle
 * (timing.c, through ws_sm_agenda), and a window's end its due SMs by
 * their next cycle with put-off work (sm_team.c). */
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

/* The timed launch's SMs by their next cycle, cycle by cycle: those due
 * within WS_AGENDA_CYCLES of the cycle last taken in a ring of sets (a
 * bit per SM, so that a cycle's SMs come out by index), the rest in a
 * heap.  Most of a busy launch's SMs come back within a few cycles; the
 * heap alone had been a sixth of a launch's time run cycle by cycle on
 * one thread. */
#define WS_AGENDA_CYCLES 256u
#define WS_AGENDA_WORDS(nsm) (((size_t)(nsm) + 63) / 64)
typedef struct ws_sm_agenda {
    ws_sm_queue later;      /* due WS_AGENDA_CYCLES or more after taken */
    uint64_t *ring;         /* WS_AGENDA_CYCLES sets of nw words, the caller's (zeroed) */
    uint32_t nw;
    uint64_t occupied[WS_AGENDA_CYCLES / 64];  /* the ring's sets that are not empty */
    uint32_t nring;         /* SMs in the ring */
    uint64_t taken;         /* the cycle last taken */
} ws_sm_agenda;

static inline bool ws_sm_agenda_empty(const ws_sm_agenda *a)
{
    return a->later.n == 0 && a->nring == 0;
}

/* The earliest cycle an SM is due (the agenda not empty). */
static inline uint64_t ws_sm_agenda_first(const ws_sm_agenda *a)
{
    uint64_t t = a->later.n > 0 ? a->later.heap[0].next : UINT64_MAX;
    if (a->nring == 0) return t;
    /* the ring's first set after taken, 64 of its cycles at a time (its
     * SMs are due within WS_AGENDA_CYCLES - 1 of it, so a set past that
     * would be one of the first, already seen empty) */
    uint32_t from = (uint32_t)((a->taken + 1) % WS_AGENDA_CYCLES);
    for (uint32_t step = 0; step < WS_AGENDA_CYCLES; step += 64) {
        uint32_t at = (from + step) % WS_AGENDA_CYCLES, w = at / 64, b = at % 64;
        uint64_t bits = a->occupied[w] >> b;
        if (b) bits |= a->occupied[(w + 1) % (WS_AGENDA_CYCLES / 64)] << (64 - b);
        if (bits) {
            uint64_t c = a->taken + 1 + step + (uint64_t)__builtin_ctzll(bits);
            return c < t ? c : t;
        }
    }
    return t;
}

/* Takes the SMs due at now, the earliest, into due by index; returns how
 * many. */
static inline int32_t ws_sm_agenda_take(ws_sm_agenda *a, uint64_t now, int32_t *due)
{
    uint32_t slot = (uint32_t)(now % WS_AGENDA_CYCLES);
    uint64_t *set = &a->ring[(size_t)slot * a->nw];
    for (ws_sm_queue *q = &a->later; q->n > 0 && q->heap[0].next == now; ws_sm_queue_pop(q)) {
        set[q->heap[0].id / 64] |= UINT64_C(1) << (q->heap[0].id % 64);
        a->nring++;
    }
    int32_t n = 0;
    for (uint32_t w = 0; w < a->nw; w++) {
        for (uint64_t m = set[w]; m; m &= m - 1) due[n++] = (int32_t)(w * 64 + (uint32_t)__builtin_ctzll(m));
        set[w] = 0;
    }
    a->occupied[slot / 64] &= ~(UINT64_C(1) << (slot % 64));
    a->nring -= (uint32_t)n;
    a->taken = now;
    return n;
}

/* Files SM id, due at next, after the cycle last taken. */
static inline void ws_sm_agenda_put(ws_sm_agenda *a, int32_t id, uint64_t next)
{
    if (next - a->taken < WS_AGENDA_CYCLES) {
        uint32_t slot = (uint32_t)(next % WS_AGENDA_CYCLES);
        a->ring[(size_t)slot * a->nw + (uint32_t)id / 64] |= UINT64_C(1) << (id % 64);
        a->occupied[slot / 64] |= UINT64_C(1) << (slot % 64);
        a->nring++;
    } else {
        ws_sm_queue_push(&a->later, (ws_sm_entry){.next = next, .id = id});
    }
}

#endif
