/* Sorting 64-bit keys: a window's L2 requests by slice (l2_split.c) and
 * the reuse recorder's notes (launch_reuse.c). */
#ifndef WARPSIM_SORT_KEYS_H
#define WARPSIM_SORT_KEYS_H

#include <stdint.h>
#include <string.h>

/* Lists up to this long are sorted by comparisons (a merge sort), longer
 * ones by their bytes (a radix sort): on the build machine a list of 256
 * keys (a window's blocks, as the set-aside once sorted them) took 2.3 us
 * to merge and 7.0 us by bytes, one of 4,096 176 and 100 us. */
#define WS_SORT_KEYS_MERGE_MAX 1024

/* a[0..n) by the bits from bit from up: runs of 16 sorted in place, then
 * merged in rounds between a and tmp; stable. */
static inline void ws_sort_keys_merge(uint64_t *a, uint64_t *tmp, uint32_t n, uint32_t from)
{
    for (uint32_t lo = 0; lo < n; lo += 16) {
        uint32_t hi = n - lo < 16 ? n : lo + 16;
        for (uint32_t i = lo + 1; i < hi; i++) {
            uint64_t v = a[i];
            uint32_t j = i;
            for (; j > lo && a[j - 1] >> from > v >> from; j--) a[j] = a[j - 1];
            a[j] = v;
        }
    }
    uint64_t *src = a, *dst = tmp;
    for (uint32_t w = 16; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = n - lo < w ? n : lo + w, hi = n - lo < 2 * w ? n : lo + 2 * w;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = src[j] >> from < src[i] >> from ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, sizeof *a * n);
}

/* Sorts a[0..n) ascending by the bits from bit from up, tmp as room for
 * n more.  Long lists: eight bits at a time from there, each pass counted
 * and placed, eight bits every key shares skipped (the high bytes of
 * cycles and block numbers nearly always).  Keys equal in those bits keep
 * the order they came in (each way is stable), so a list whose keys are
 * in order within each value of those bits comes out in the order of the
 * whole keys.  The lists sorted at a window's end are short and on
 * threads the others wait for: no comparison callbacks. */
static inline void ws_sort_keys_from(uint64_t *a, uint64_t *tmp, uint32_t n, uint32_t from)
{
    if (n < 2) return;
    if (n <= WS_SORT_KEYS_MERGE_MAX) {
        ws_sort_keys_merge(a, tmp, n, from);
        return;
    }
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
