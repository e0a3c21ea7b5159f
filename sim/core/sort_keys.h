/* Sorting 64-bit keys: the team's lists at a window's edges. */
#ifndef WARPSIM_SORT_KEYS_H
#define WARPSIM_SORT_KEYS_H

#include <stdint.h>
#include <string.h>

/* Sorts a[0..n) ascending by the bits from bit from up, tmp as room for
 * n more: eight bits at a time from there, each pass counted and placed,
 * eight bits every key shares skipped (the high bytes of cycles and block
 * numbers nearly always).  Keys equal in those bits keep the
 * order they came in (each pass is stable), so a list whose keys are in
 * order within each value of those bits comes out in the order of the
 * whole keys.  The lists sorted at a window's edges are short and on the
 * thread the others wait for: no comparison callbacks. */
static inline void ws_sort_keys_from(uint64_t *a, uint64_t *tmp, uint32_t n, uint32_t from)
{
    if (n < 2) return;
    uint64_t all_or = 0, all_and = ~UINT64_C(0);
    for (uint32_t i = 0; i < n; i++) all_or |= a[i], all_and &= a[i];
    for (uint32_t shift = from; shift < 64; shift += 8) {
        if ((((all_or ^ all_and) >> shift) & 0xff) == 0) continue;     /* every key has this byte */
        uint32_t count[257] = {0};
        for (uint32_t i = 0; i < n; i++) count[((a[i] >> shift) & 0xff) + 1]++;
        for (uint32_t d = 0; d < 256; d++) count[d + 1] += count[d];
        for (uint32_t i = 0; i < n; i++) tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
        memcpy(a, tmp, sizeof *a * n);
    }
}

/* Sorts a[0..n) ascending by the whole keys. */
static inline void ws_sort_keys(uint64_t *a, uint64_t *tmp, uint32_t n)
{
    ws_sort_keys_from(a, tmp, n, 0);
}

#endif
