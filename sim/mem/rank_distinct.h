/* The distinct values of a warp's lanes in ascending order, by rank: the
 * sectors of a coalesced access (coalescer.c), the words of a shared
 * access (shared_banks.c), when the lanes come out of order. */
#ifndef WARPSIM_RANK_DISTINCT_H
#define WARPSIM_RANK_DISTINCT_H

#include <stdint.h>

/* Lanes out of order from this many on are ranked; fewer insert into a
 * sorted list about as fast (a gather at random, on the build machine: 32
 * lanes 640 ns a warp inserted, 216 ranked; 16 lanes 275 and 103; 9 lanes
 * 120 and 66; 8 lanes 99 and 85; 4 lanes 42 and 71). */
#define WS_RANK_FROM_LANES 9

/* The distinct values among v[0..k) (k <= 32), ascending, into out;
 * returns how many, or UINT32_MAX where they lie 2^31 or more apart.
 * Each value goes to its rank, the number of values below it, counted
 * with compares that do not branch on the values, where inserting the
 * lanes one by one into a sorted list costs a mispredicted branch and a
 * shift of half the list for each lane.  Equal values share a rank. */
static inline uint32_t ws_rank_distinct(const uint64_t *v, uint32_t k, uint64_t *out)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < k; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    if (k == 0) return 0;
    if (hi - lo >= UINT64_C(1) << 31) return UINT32_MAX;
    int32_t rel[32], rank[32];      /* from the lowest */
    for (uint32_t i = 0; i < k; i++) {
        rel[i] = (int32_t)(v[i] - lo);
        rank[i] = 0;
    }
    for (uint32_t j = 0; j < k; j++) {
        int32_t x = rel[j];
        for (uint32_t i = 0; i < k; i++) rank[i] += x < rel[i];
    }
    uint64_t slot[32];
    uint32_t used = 0;
    for (uint32_t i = 0; i < k; i++) {
        slot[rank[i]] = v[i];
        used |= UINT32_C(1) << rank[i];
    }
    uint32_t n = 0;
    for (; used; used &= used - 1) out[n++] = slot[__builtin_ctz(used)];
    return n;
}

#endif
