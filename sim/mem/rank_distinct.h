/* The distinct values of a warp's lanes in ascending order, by rank: the
 * sectors of a coalesced access (coalescer.c), the words of a shared
 * access (shared_banks.c), when the lanes come out of order. */
#ifndef WARPSIM_RANK_DISTINCT_H
#define WARPSIM_RANK_DISTINCT_H

#include <stdbool.h>
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

/* The distinct units (address / unit: a sector, a bank's word) of the
 * lanes in mask, each reading or writing size bytes at addr[lane],
 * ascending, into out: how many, where WS_RANK_FROM_LANES lanes or more
 * come out of order, each inside one unit; else UINT32_MAX, and the caller
 * lists them its own way. */
static inline uint32_t ws_rank_lanes(const uint64_t addr[32], uint32_t mask, uint32_t size, uint32_t unit,
                                     uint64_t *out)
{
    if (__builtin_popcount(mask) < WS_RANK_FROM_LANES) return UINT32_MAX;
    uint64_t v[32];
    uint32_t k = 0;
    bool across = false, down = false;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        v[k] = a / unit;
        across |= (a + size - 1) / unit != v[k];
        down |= k > 0 && v[k] < v[k - 1];
        k++;
    }
    return across || !down ? UINT32_MAX : ws_rank_distinct(v, k, out);
}

#endif
