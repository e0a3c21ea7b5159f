/* The shared-memory bank rule (docs/ARCHITECTURE.md, "Shared memory banks").
 *
 * 32 banks, 4 bytes wide: bank = (byte address / 4) % 32.  A warp-wide
 * access is split into parts: the whole warp for accesses of 4 bytes per
 * lane or less, half a warp (lanes 0-15, 16-31) for 8 bytes, a quarter warp
 * for 16 bytes.  Within a part, lanes that touch the same 32-bit word share
 * it (broadcast on a read; one of them wins on a write); the part takes as
 * many passes as the largest number of distinct words in one bank.
 *
 * Paired loads.  The data path returns 128 bytes (one 32-bit register of
 * the warp) per cycle, which is why 8- and 16-byte accesses are split.  A
 * load whose lanes come in pairs that read the same address needs only
 * half the registers' worth of distinct data, and the hardware packs it:
 * when every pair of active lanes (n, n^1) has one address, or every pair
 * (n, n^2) has one (a pair with one active lane always qualifies), the
 * parts of an 8- or 16-byte load are twice as large: the whole warp for 8
 * bytes, half a warp for 16.  (NVIDIA's description of CC 7.x, forum
 * thread "Unexpected shared memory bank conflict", 2019; on the H200 all
 * 32 lanes loading one 8-byte word take 1 wavefront and one 16-byte word
 * 2, and ptxas's 128-bit loads of the tiled matmul's broadcast A tile 2
 * each: validation/results/h200_counter_probe.csv, h200_sm90_counters.csv.)
 * Stores and atomics are never paired.
 *
 *   wavefronts = passes summed over the parts
 *   conflicts  = wavefronts - the parts that have an active lane
 *   degree     = the largest pass count of one part (the course's "n-way")
 *
 * The least an access needs is one pass per part, so a full warp needs 1
 * (4 bytes or less), 2 (8 bytes) or 4 (16 bytes) wavefronts, 1 and 2 for
 * paired 8- and 16-byte loads; a part with no active lane takes no pass
 * and is not owed one, so a 64-bit access by lanes 0-15 alone is 1
 * wavefront and no conflict.
 *
 * Atomics and reductions on shared memory count by the same rule, lanes on
 * one address included (one wavefront for 32 lanes adding to one word, as
 * the H200's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom counts),
 * and the timing model charges them that many passes. */
#ifndef WARPSIM_SHARED_BANKS_H
#define WARPSIM_SHARED_BANKS_H

#include <stdbool.h>
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
    uint32_t parts;         /* 1, 2 or 4 for widths up to 4, 8, 16 bytes (halved for paired loads) */
    /* For a bank trace: bit b of pass_banks[i] is set when wavefront i
     * (parts in lane order, passes within a part in order) reads or
     * writes bank b.  Entries from wavefronts on are not set. */
    uint32_t pass_banks[WS_SMEM_MAX_WAVEFRONTS];
} ws_bank_access;

/* Applies the rule to one warp-level shared-memory access.  addr[lane] is
 * the lane's byte address (an offset in shared memory), read only for the
 * lanes in mask; size is the bytes per lane (1, 2, 4, 8 or 16; .v2/.v4
 * accesses count their whole vector); load says it is a load (ld), which
 * may be paired, rather than a store or an atomic.  Sizes above 16 are
 * treated as 16, and a lane whose range crosses a word boundary touches
 * every word it covers (aligned accesses never do). */
void ws_bank_access_eval(const uint64_t addr[32], uint32_t mask, uint32_t size, bool load,
                         ws_bank_access *out);

/* ws_bank_access_eval for a full warp of 4-byte lanes in two halves whose
 * lanes read or write consecutive words (run: lanes 0-15 words w0 to
 * w0 + 15, lanes 16-31 words w1 to w1 + 15) or one word each (!run: w0 and
 * w1), as a tiled kernel's row and broadcast reads make them: the same
 * result, passes and their banks included, worked out from the two words
 * alone.  Two distinct words share a bank only between the halves, and
 * then the second word of each such bank takes a second pass. */
void ws_bank_access_halves4(uint64_t w0, uint64_t w1, bool run, ws_bank_access *out);

/* One access site's (an instruction's) last evaluation.  A warp of a lab
 * kernel usually repeats its site's pattern: the same lanes and width, the
 * same distances between the lanes' addresses, the whole pattern moved by
 * whole words (the next k of a tiled loop, the next warp's row).  Moving
 * every address by n words moves every word's bank by n and changes
 * nothing else the rule looks at, so the result is the remembered one with
 * each pass's banks rotated by n. */
/* What a caller may know of a full warp's addresses: two half-warps, lane
 * l at addr[0] + (l & 15) * step, plus jump (addr[16] - addr[0]) for the
 * lanes from 16 on.  Each warp of a 16x16 block reading a tile's row or
 * column is such a warp. */
typedef struct ws_bank_halves {
    uint64_t step, jump;
} ws_bank_halves;

typedef struct ws_bank_memo {
    uint32_t site;                      /* the site + 1; 0: empty */
    uint32_t mask, size;
    bool load;
    bool halves;                        /* the pattern was given as halves (shape) */
    ws_bank_halves shape;
    uint64_t first;                     /* the lowest lane's address */
    uint64_t delta[32];                 /* each lane's address less first (lanes of mask) */
    ws_bank_access result;
} ws_bank_memo;

/* Memos an executor keeps, a site (pc) to each modulo their number: a tiled
 * kernel unrolls its loop over a tile into one shared load per element
 * (matmulTiled32: 64 sites over about 200 instructions), which 32 memos
 * turned into collisions (a sixth of matmul 128's shared accesses missed,
 * each evaluated anew).  About 110 KiB, made when first needed. */
#define WS_BANK_MEMOS 256

/* ws_bank_access_eval with a site's memo (memo[site % WS_BANK_MEMOS]):
 * the same result, from the memo when the pattern repeats.  halves, when
 * not NULL, says the lanes of a full mask make that pattern (the caller
 * has checked it): then the pattern is compared by its two numbers rather
 * than lane by lane. */
void ws_bank_access_eval_memo(ws_bank_memo memo[WS_BANK_MEMOS], uint32_t site, const uint64_t addr[32],
                              uint32_t mask, uint32_t size, bool load, const ws_bank_halves *halves,
                              ws_bank_access *out);

#endif
