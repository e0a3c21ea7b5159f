/* Warp-scheduling policies of a sub-partition. */
#include "warp_scheduler.h"

void ws_sched_init(ws_warp_scheduler *s, ws_sched_policy policy, uint32_t nslots,
                   uint32_t active_size)
{
    s->policy = policy;
    s->nslots = nslots > WS_SCHED_MAX_WARPS ? WS_SCHED_MAX_WARPS : nslots;
    s->last = -1;
    s->active_size = active_size ? active_size : 1;
    for (uint32_t i = 0; i < s->nslots; i++) s->order[i] = (uint8_t)i;
}

#define BIT(i) (UINT64_C(1) << (i))

static int32_t pick_lrr(const ws_warp_scheduler *s, uint64_t ready)
{
    if (!ready) return -1;
    uint32_t start = (uint32_t)(s->last + 1) % s->nslots;
    uint64_t after = start ? ready & ~(BIT(start) - 1) : ready;    /* slots start.. first */
    return __builtin_ctzll(after ? after : ready);
}

static int32_t pick_gto(const ws_warp_scheduler *s, uint64_t ready, const uint64_t *age)
{
    if (s->last >= 0 && (ready & BIT(s->last))) return s->last;
    int32_t best = -1;
    for (uint64_t m = ready; m; m &= m - 1) {
        int32_t i = __builtin_ctzll(m);
        if (best < 0 || age[i] < age[best]) best = i;
    }
    return best;
}

/* Moves the warp at list position k to the end. */
static void demote(ws_warp_scheduler *s, uint32_t k)
{
    uint8_t w = s->order[k];
    for (uint32_t j = k; j + 1 < s->nslots; j++) s->order[j] = s->order[j + 1];
    s->order[s->nslots - 1] = w;
}

static int32_t pick_two_level(ws_warp_scheduler *s, uint64_t ready, uint64_t long_wait)
{
    uint32_t n = s->active_size < s->nslots ? s->active_size : s->nslots;
    /* demote active warps that wait on memory; each demotion lets the
     * first pending warp move up into the active set */
    for (uint32_t k = 0, moved = 0; k < n && moved < s->nslots; moved++) {
        if (long_wait & BIT(s->order[k])) demote(s, k);
        else k++;
    }
    /* round-robin within the active set, starting after the last issued */
    uint32_t start = 0;
    for (uint32_t k = 0; k < n; k++)
        if ((int32_t)s->order[k] == s->last) start = k + 1;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t k = (start + j) % n;
        if (ready & BIT(s->order[k])) return s->order[k];
    }
    /* nothing in the active set can go: the first ready pending warp */
    for (uint32_t k = n; k < s->nslots; k++)
        if (ready & BIT(s->order[k])) return s->order[k];
    return -1;
}

int32_t ws_sched_pick_mask(ws_warp_scheduler *s, uint64_t ready, const uint64_t *age,
                           uint64_t long_wait)
{
    if (s->nslots < 64) ready &= BIT(s->nslots) - 1;
    int32_t w;
    switch (s->policy) {
    case WS_SCHED_GTO: w = pick_gto(s, ready, age); break;
    case WS_SCHED_TWO_LEVEL: w = pick_two_level(s, ready, long_wait); break;
    default: w = pick_lrr(s, ready); break;
    }
    if (w >= 0) s->last = w;
    return w;
}

int32_t ws_sched_pick(ws_warp_scheduler *s, const bool *ready, const uint64_t *age,
                      const bool *long_wait)
{
    uint64_t r = 0, lw = 0;
    for (uint32_t i = 0; i < s->nslots; i++) {
        if (ready[i]) r |= BIT(i);
        if (long_wait && long_wait[i]) lw |= BIT(i);
    }
    return ws_sched_pick_mask(s, r, age, lw);
}

const char *ws_sched_policy_name(ws_sched_policy p)
{
    switch (p) {
    case WS_SCHED_GTO: return "gto";
    case WS_SCHED_TWO_LEVEL: return "two_level";
    default: return "lrr";
    }
}
