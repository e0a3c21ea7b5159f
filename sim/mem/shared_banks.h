/* The shared-memory bank rule (DESIGN.md, "Shared memory banks").
 *
 * 32 banks, 4 bytes wide: bank = (byte address / 4) % 32.  A warp-wide
 * access is split into parts: the whole warp for accesses of 4 bytes per
 * lane or less, half a warp (lanes 0-15, 16-31) for 8 bytes, a quarter warp
 * for 16 bytes.  Within a part, lanes that touch the same 32-bit word share
 * it (broadcast on a read; one of them wins on a write); the part takes as
 * many passes as the largest number of distinct words in one bank.
 *
 *   wavefronts = passes summed over the parts
 *   conflicts  = wavefronts - the parts that have an active lane
 *   degree     = the largest pass count of one part (the course's "n-way")
 *
 * The least an access needs is one pass per part, so a full warp needs 1
 * (4 bytes or less), 2 (8 bytes) or 4 (16 bytes) wavefronts; a part with no
 * active lane takes no pass and is not owed one, so a 64-bit access by
 * lanes 0-15 alone is 1 wavefront and no conflict.
 *
 * Atomics and reductions on shared memory use the same rule for now: the
 * same-address serialization of atomics is not modelled here. */
#ifndef WARPSIM_SHARED_BANKS_H
#define WARPSIM_SHARED_BANKS_H

#include <stdint.h>

#define WS_SMEM_BANKS 32
#define WS_SMEM_BANK_BYTES 4
/* At most 32 wavefronts: a part of L lanes of W words each puts at most L
 * distinct words in one bank, and parts * L = 32. */
#define WS_SMEM_MAX_WAVEFRONTS 32

typedef struct ws_bank_access {
    uint32_t wavefronts;
    uint32_t conflicts;
    uint32_t degree;
    uint32_t parts;         /* 1, 2 or 4 for widths up to 4, 8, 16 bytes */
    /* For a bank trace: bit b of pass_banks[i] is set when wavefront i
     * (parts in lane order, passes within a part in order) reads or
     * writes bank b. */
    uint32_t pass_banks[WS_SMEM_MAX_WAVEFRONTS];
} ws_bank_access;

/* Applies the rule to one warp-level shared-memory access.  addr[lane] is
 * the lane's byte address (an offset in shared memory), read only for the
 * lanes in mask; size is the bytes per lane (1, 2, 4, 8 or 16; .v2/.v4
 * accesses count their whole vector).  Sizes above 16 are treated as 16,
 * and a lane whose range crosses a word boundary touches every word it
 * covers (aligned accesses never do). */
void ws_bank_access_eval(const uint64_t addr[32], uint32_t mask, uint32_t size,
                         ws_bank_access *out);

#endif
