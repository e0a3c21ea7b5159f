/* The global-memory coalescing rule (docs/ARCHITECTURE.md, "Global coalescing").
 *
 * The active lanes' byte ranges [addr, addr + size) are mapped to 32-byte
 * sectors and 128-byte lines; a range that crosses a boundary counts every
 * sector and line it touches.  sectors is what Nsight Compute counts as
 * l1tex__t_sectors_pipe_lsu_mem_global_op_*; lines is what the course
 * calls "transactions".
 *
 * Requests: Nsight Compute counts one request per executed warp-level
 * memory instruction.  warpsim counts one when at least one lane performs
 * the access; an instruction whose guard turns every lane off moves no
 * data and counts none (the same holds for wavefronts in shared memory). */
#ifndef WARPSIM_COALESCER_H
#define WARPSIM_COALESCER_H

#include <stdbool.h>
#include <stdint.h>

#define WS_SECTOR_BYTES 32
#define WS_LINE_BYTES 128
/* 32 lanes of at most 16 bytes touch at most 2 sectors each. */
#define WS_COALESCE_MAX_SECTORS 64

typedef struct ws_coalesce {
    uint32_t requests;      /* 0 or 1 */
    uint32_t sectors, lines;
    /* The distinct sectors, ascending, as sector numbers (address / 32):
     * what a cache model or a transaction trace takes next. */
    uint64_t sector[WS_COALESCE_MAX_SECTORS];
} ws_coalesce;

/* Whether the 16 lanes from addr step by 0 (one address) or by size
 * (consecutive words): each warp of a 16x16 block is two such halves,
 * two rows of a tile reading a row or a column.  *step gets the step.
 * The loop is one the compiler vectorizes. */
static inline bool ws_half_run(const uint64_t addr[16], uint64_t size, uint64_t *step)
{
    uint64_t d = addr[1] - addr[0];
    if ((d != 0 && d != size) || addr[15] - addr[0] != 15 * d) return false;
    uint64_t diff = 0, want = addr[0];
    for (int lane = 0; lane < 16; lane++, want += d) diff |= addr[lane] ^ want;
    *step = d;
    return diff == 0;
}

/* Coalesces one warp-level access: addr[lane] for the lanes in mask, size
 * bytes per lane (1 to 16; larger sizes are treated as 16). */
void ws_coalesce_eval(const uint64_t addr[32], uint32_t mask, uint32_t size, ws_coalesce *out);

/* ws_coalesce_eval of a full warp whose halves each step by step bytes, lane
 * l at a0 + l * step and lane 16 + l at a16 + l * step (as ws_half_run
 * found them), for a size of at most 16 and a step of at most size: the
 * same result without reading the lanes again. */
void ws_coalesce_halves(uint64_t a0, uint64_t a16, uint64_t step, uint32_t size, ws_coalesce *out);

/* The distinct addresses among the lanes in mask: the passes a constant-
 * memory access takes (one per address), and what its counter adds. */
uint32_t ws_distinct_addresses(const uint64_t addr[32], uint32_t mask);

/* The same, each address once in at in the order its first lane comes,
 * with how many lanes of mask share it in lanes (an atomic's serialized
 * operations a sector, sm_lsu.c). */
static inline uint32_t ws_distinct_lanes(const uint64_t addr[32], uint32_t mask, uint64_t at[32],
                                         uint32_t lanes[32])
{
    /* neighbouring lanes on one address are found at the last one kept */
    uint32_t n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        uint32_t j = n && at[n - 1] == a ? n - 1 : 0;
        while (j < n && at[j] != a) j++;
        if (j == n) {
            at[n] = a;
            lanes[n++] = 0;
        }
        lanes[j]++;
    }
    return n;
}

#endif
