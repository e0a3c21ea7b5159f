/* The global-memory coalescing rule; see coalescer.h. */
#include "coalescer.h"

void ws_coalesce_eval(const uint64_t addr[32], uint32_t mask, uint32_t size, ws_coalesce *out)
{
    out->requests = mask != 0;
    out->sectors = out->lines = 0;
    if (!mask) return;
    if (size == 0) size = 1;
    if (size > 16) size = 16;
    uint64_t *s = out->sector;
    uint32_t n = 0;
    uint32_t per_line = WS_LINE_BYTES / WS_SECTOR_BYTES;
    if (mask == UINT32_MAX) {
        /* The two commonest warps, found by one plain sweep: lane l at
         * a0 + l * size (the 32 ranges make one) or every lane at a0 (one
         * range); the sectors are then those of that one range. */
        uint64_t a0 = addr[0], run = 0, same = 0;
        for (uint32_t lane = 0; lane < 32; lane++) {
            run |= addr[lane] ^ (a0 + (uint64_t)lane * size);
            same |= addr[lane] ^ a0;
        }
        if (!run || !same) {
            uint64_t first = a0 / WS_SECTOR_BYTES, last = (a0 + (same ? 32 : 1) * (uint64_t)size - 1) / WS_SECTOR_BYTES;
            if (last >= first && last - first < WS_COALESCE_MAX_SECTORS) {
                for (uint64_t sec = first; sec <= last; sec++) s[n++] = sec;
                out->sectors = n;
                out->lines = (uint32_t)(last / per_line - first / per_line + 1);
                return;
            }
        }
    }
    /* Insertion into a sorted, duplicate-free list: lanes usually come in
     * ascending address order, so each insertion compares once. */
    for (; mask; mask &= mask - 1) {
        uint64_t a = addr[__builtin_ctz(mask)];
        uint64_t last = (a + size - 1) / WS_SECTOR_BYTES;
        for (uint64_t sec = a / WS_SECTOR_BYTES; sec <= last; sec++) {
            uint32_t i = n;
            while (i > 0 && s[i - 1] > sec) i--;
            if (i > 0 && s[i - 1] == sec) continue;
            if (n == WS_COALESCE_MAX_SECTORS) break;
            for (uint32_t j = n; j > i; j--) s[j] = s[j - 1];
            s[i] = sec;
            n++;
        }
    }
    out->sectors = n;
    for (uint32_t i = 0; i < n; i++)
        out->lines += i == 0 || s[i] / per_line != s[i - 1] / per_line;
}
