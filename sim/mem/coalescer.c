/* The global-memory coalescing rule; see coalescer.h. */
#include "coalescer.h"
#include "rank_distinct.h"

#include <stdbool.h>

/* Whether all 32 lanes make one run, lane l at addr[0] + l * step (a full
 * warp's consecutive words).  The first and last lanes rule most others
 * out at once; the rest, with xor and or, the compiler vectorizes. */
static bool lanes_run(const uint64_t addr[32], uint64_t step)
{
    if (addr[1] - addr[0] != step || addr[31] - addr[0] != 31 * step) return false;
    uint64_t diff = 0, want = addr[0];
    for (int lane = 0; lane < 32; lane++, want += step) diff |= addr[lane] ^ want;
    return diff == 0;
}

/* Adds sector sec to the sorted, duplicate-free list s of *n: lanes
 * usually come in ascending address order, so an insertion compares once. */
static inline void insert(uint64_t *s, uint32_t *n, uint64_t sec)
{
    uint32_t i = *n;
    while (i > 0 && s[i - 1] > sec) i--;
    if ((i > 0 && s[i - 1] == sec) || *n == WS_COALESCE_MAX_SECTORS) return;
    for (uint32_t j = *n; j > i; j--) s[j] = s[j - 1];
    s[i] = sec;
    (*n)++;
}

/* The sectors of two half-warps, lane l of half h at a[h] + l * step[h]
 * with steps of at most size: two runs of sectors, [f0, l0] and [f1, l1],
 * and their union, ascending, into s.  Returns how many. */
static uint32_t two_runs(uint64_t a0, uint64_t step0, uint64_t a1, uint64_t step1, uint32_t size, uint64_t *s)
{
    uint64_t f0 = a0 / WS_SECTOR_BYTES, l0 = (a0 + 15 * step0 + size - 1) / WS_SECTOR_BYTES;
    uint64_t f1 = a1 / WS_SECTOR_BYTES, l1 = (a1 + 15 * step1 + size - 1) / WS_SECTOR_BYTES;
    uint32_t n = 0;
    if (f1 < f0) {
        uint64_t t = f0; f0 = f1; f1 = t;
        t = l0; l0 = l1; l1 = t;
    }
    if (f1 <= l0 + 1) {         /* they overlap or touch: one run */
        for (uint64_t sec = f0; sec <= (l1 > l0 ? l1 : l0); sec++) s[n++] = sec;
    } else {
        for (uint64_t sec = f0; sec <= l0; sec++) s[n++] = sec;
        for (uint64_t sec = f1; sec <= l1; sec++) s[n++] = sec;
    }
    return n;
}

/* The lines of n ascending, distinct sectors. */
static uint32_t lines_of(const uint64_t *s, uint32_t n)
{
    uint32_t per_line = WS_LINE_BYTES / WS_SECTOR_BYTES, lines = n > 0;
    for (uint32_t i = 1; i < n; i++)        /* no branch on the sectors */
        lines += s[i] / per_line != s[i - 1] / per_line;
    return lines;
}

/* Whether a full warp's lanes come in ascending order of address. */
static bool ascending(const uint64_t addr[32])
{
    bool down = false;
    for (int lane = 1; lane < 32; lane++) down |= addr[lane] < addr[lane - 1];
    return !down;
}

void ws_coalesce_halves(uint64_t a0, uint64_t a16, uint64_t step, uint32_t size, ws_coalesce *out)
{
    out->requests = 1;
    out->sectors = two_runs(a0, step, a16, step, size, out->sector);
    out->lines = lines_of(out->sector, out->sectors);
}

void ws_coalesce_eval(const uint64_t addr[32], uint32_t mask, uint32_t size, ws_coalesce *out)
{
    out->requests = mask != 0;
    out->sectors = out->lines = 0;
    if (!mask) return;
    if (size == 0) size = 1;
    if (size > 16) size = 16;
    uint64_t *s = out->sector;
    uint32_t n = 0;
    uint64_t step0, step1;
    if (mask == UINT32_MAX) {
        /* a full warp whose lanes step by their size (consecutive words,
         * the common case): its sectors are one run, found without sorting */
        if (lanes_run(addr, size)) {
            uint64_t first = addr[0] / WS_SECTOR_BYTES, last = (addr[0] + 32 * size - 1) / WS_SECTOR_BYTES;
            for (uint64_t sec = first; sec <= last; sec++) s[n++] = sec;
            mask = 0;
        } else if (ws_half_run(addr, size, &step0) && ws_half_run(addr + 16, size, &step1)) {
            n = two_runs(addr[0], step0, addr[16], step1, size, s);
            mask = 0;
        } else if (!(size & (size - 1)) && ascending(addr)) {
            uint64_t bits = 0;
            for (int lane = 0; lane < 32; lane++) bits |= addr[lane];
            if (!(bits & (size - 1))) {     /* every lane aligned: in one sector */
                uint64_t prev = UINT64_MAX;
                for (int lane = 0; lane < 32; lane++) {
                    uint64_t sec = addr[lane] / WS_SECTOR_BYTES;
                    if (sec != prev) insert(s, &n, sec);
                    prev = sec;
                }
                mask = 0;
            }
        }
    }
    /* lanes out of order, each in one sector (a gather, a scatter) */
    uint32_t ranked = ws_rank_lanes(addr, mask, size, WS_SECTOR_BYTES, s);
    if (ranked != UINT32_MAX) {
        out->sectors = ranked;
        out->lines = lines_of(s, ranked);
        return;
    }
    uint64_t prev = UINT64_MAX;     /* the one sector of the lane before, if it had one */
    for (; mask; mask &= mask - 1) {
        uint64_t a = addr[__builtin_ctz(mask)];
        uint64_t first = a / WS_SECTOR_BYTES, last = (a + size - 1) / WS_SECTOR_BYTES;
        /* a lane in the one sector of the lane before (the next word of a
         * run, the same address) adds nothing: one compare */
        if (first == last && first == prev) continue;
        prev = first == last ? first : UINT64_MAX;
        for (uint64_t sec = first; sec <= last; sec++) insert(s, &n, sec);
    }
    out->sectors = n;
    out->lines = lines_of(s, n);
}

uint32_t ws_distinct_addresses(const uint64_t addr[32], uint32_t mask)
{
    if (!mask) return 0;
    /* every lane on one address (a filter's weight, a loop bound): the
     * common case, in a loop the compiler vectorizes */
    uint64_t first = addr[__builtin_ctz(mask)], differ = 0;
    if (mask == UINT32_MAX)
        for (int lane = 0; lane < 32; lane++) differ |= addr[lane] ^ first;
    else
        for (uint32_t m = mask; m; m &= m - 1) differ |= addr[__builtin_ctz(m)] ^ first;
    if (!differ) return 1;
    uint64_t at[32];
    uint32_t lanes[32];
    return ws_distinct_lanes(addr, mask, at, lanes);
}
