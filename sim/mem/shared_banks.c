/* The shared-memory bank rule; see shared_banks.h. */
#include "shared_banks.h"
#include "rank_distinct.h"

#include <stdbool.h>
#include <stddef.h>

/* Words one part can touch: 32 lanes x 3 words (a paired 8-byte load, not
 * aligned) at most. */
#define PART_WORDS 96

/* The conflict-free case in one sweep: no bank of the part holds two
 * distinct words (broadcast, conflict-free strides, lanes that share words,
 * 8- and 16-byte lanes side by side).  Then the part is one pass touching
 * the banks of its words, which *banks gets.  Returns false when a bank
 * holds two words: the general rule below then counts the passes. */
static bool one_pass(const uint64_t *addr, uint32_t pm, uint32_t size, uint32_t *banks)
{
    uint64_t word_of[WS_SMEM_BANKS];    /* bank -> its word; read only where seen has the bank */
    uint32_t seen = 0;
    for (; pm; pm &= pm - 1) {
        uint64_t a = addr[__builtin_ctz(pm)], last = (a + size - 1) / WS_SMEM_BANK_BYTES;
        for (uint64_t word = a / WS_SMEM_BANK_BYTES; word <= last; word++) {
            uint32_t bank = (uint32_t)(word % WS_SMEM_BANKS), bit = UINT32_C(1) << bank;
            if (!(seen & bit)) {
                seen |= bit;
                word_of[bank] = word;
            } else if (word_of[bank] != word) {
                return false;
            }
        }
    }
    *banks = seen;
    return true;
}

/* one_pass for the most common accesses, lanes of at most 4 bytes each
 * inside one word, in one sweep without a branch per lane: each lane
 * compares its word with the one its bank already holds, if any. */
static bool one_pass_words(const uint64_t *addr, uint32_t pm, uint32_t size, uint32_t *banks)
{
    uint64_t word_of[WS_SMEM_BANKS];    /* read only at banks written before */
    uint64_t across = 0, differ = 0;
    uint32_t seen = 0;
    for (uint32_t m = pm; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)], word = a / WS_SMEM_BANK_BYTES;
        uint32_t bank = (uint32_t)(word % WS_SMEM_BANKS), bit = UINT32_C(1) << bank;
        uint64_t held = seen & bit ? word_of[bank] : word;
        differ |= held ^ word;
        word_of[bank] = word;
        seen |= bit;
        across |= a % WS_SMEM_BANK_BYTES + size > WS_SMEM_BANK_BYTES;
    }
    if (across) return one_pass(addr, pm, size, banks);
    if (differ) return false;
    *banks = seen;
    return true;
}

/* Whether every pair of active lanes (n, n ^ dist) has one address. */
static bool pairs_share(const uint64_t *addr, uint32_t mask, uint32_t dist)
{
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m), other = lane ^ dist;
        if (other > lane && (mask >> other & 1) && addr[other] != addr[lane]) return false;
    }
    return true;
}

void ws_bank_access_eval(const uint64_t addr[32], uint32_t mask, uint32_t size, bool load,
                         ws_bank_access *out)
{
    out->wavefronts = out->conflicts = out->degree = 0;     /* pass_banks: filled as passes are made */
    if (size == 0) size = 1;
    if (size > 16) size = 16;
    uint32_t parts = size <= 4 ? 1 : size <= 8 ? 2 : 4;
    if (parts > 1 && load && (pairs_share(addr, mask, 1) || pairs_share(addr, mask, 2)))
        parts /= 2;     /* paired loads: see shared_banks.h */
    uint32_t lanes = WS_SMEM_BANKS / parts;
    uint32_t part_mask = lanes == 32 ? UINT32_MAX : (UINT32_C(1) << lanes) - 1;
    uint32_t used = 0;
    out->parts = parts;
    for (uint32_t p = 0; p < parts; p++) {
        uint32_t pm = (mask >> (p * lanes)) & part_mask;
        if (!pm) continue;
        uint32_t *banks = &out->pass_banks[out->wavefronts];
        if (size <= WS_SMEM_BANK_BYTES ? one_pass_words(addr + p * lanes, pm, size, banks)
                                       : one_pass(addr + p * lanes, pm, size, banks)) {
            out->wavefronts++;
            if (out->degree < 1) out->degree = 1;
            used++;
            continue;
        }
        /* The part's words, sorted by insertion: lanes usually come in
         * ascending (or equal) address order, so this is linear then;
         * many lanes of a word each, out of order (a sort's scatter), by
         * rank instead. */
        uint64_t w[PART_WORDS];
        uint32_t n = ws_rank_lanes(addr + p * lanes, pm, size, WS_SMEM_BANK_BYTES, w);
        if (n != UINT32_MAX) pm = 0;
        else n = 0;
        for (; pm; pm &= pm - 1) {
            uint64_t a = addr[p * lanes + (uint32_t)__builtin_ctz(pm)];
            uint64_t last = (a + size - 1) / WS_SMEM_BANK_BYTES;
            for (uint64_t word = a / WS_SMEM_BANK_BYTES; word <= last && n < PART_WORDS; word++) {
                uint32_t i = n++;
                for (; i > 0 && w[i - 1] > word; i--) w[i] = w[i - 1];
                w[i] = word;
            }
        }
        /* The k-th distinct word of a bank is served in pass k. */
        uint8_t count[WS_SMEM_BANKS] = {0};
        uint32_t passes = 0, base = out->wavefronts;
        for (uint32_t i = 0; i < n; i++) {
            if (i > 0 && w[i] == w[i - 1]) continue;    /* the same word: one access serves all */
            uint32_t bank = (uint32_t)(w[i] % WS_SMEM_BANKS);
            if (count[bank] == passes) out->pass_banks[base + passes] = 0;     /* a new pass */
            out->pass_banks[base + count[bank]] |= UINT32_C(1) << bank;
            if (++count[bank] > passes) passes = count[bank];
        }
        out->wavefronts += passes;
        if (passes > out->degree) out->degree = passes;
        used++;
    }
    out->conflicts = out->wavefronts - used;
}

void ws_bank_access_halves4(uint64_t w0, uint64_t w1, bool run, ws_bank_access *out)
{
    uint32_t n = run ? 16 : 1, span = (UINT32_C(1) << n) - 1;
    uint32_t r0 = (uint32_t)(w0 % WS_SMEM_BANKS), r1 = (uint32_t)(w1 % WS_SMEM_BANKS);
    uint32_t b0 = r0 ? span << r0 | span >> (32 - r0) : span;
    uint32_t b1 = r1 ? span << r1 | span >> (32 - r1) : span;
    /* halves nearer than n words make one run of fewer than 32 words */
    uint64_t apart = w1 > w0 ? w1 - w0 : w0 - w1;
    bool two = apart >= n && (b0 & b1);
    out->parts = 1;
    out->wavefronts = out->degree = two ? 2 : 1;
    out->conflicts = two;
    out->pass_banks[0] = b0 | b1;
    if (two) out->pass_banks[1] = b0 & b1;
}

void ws_bank_access_eval_memo(ws_bank_memo memo[WS_BANK_MEMOS], uint32_t site, const uint64_t addr[32],
                              uint32_t mask, uint32_t size, bool load, const ws_bank_halves *halves,
                              ws_bank_access *out)
{
    if (!mask) {
        ws_bank_access_eval(addr, mask, size, load, out);
        return;
    }
    if (mask != UINT32_MAX) halves = NULL;
    ws_bank_memo *m = &memo[site % WS_BANK_MEMOS];
    uint64_t first = addr[__builtin_ctz(mask)], shift = first - m->first;
    if (m->site == site + 1 && m->mask == mask && m->size == size && m->load == load &&
        shift % WS_SMEM_BANK_BYTES == 0) {
        uint64_t differ = 0;
        if (halves && m->halves) {     /* both known as halves: the same pattern when the same two numbers */
            differ = (halves->step ^ m->shape.step) | (halves->jump ^ m->shape.jump);
        } else if (mask == UINT32_MAX) {
            for (uint32_t lane = 0; lane < 32; lane++) differ |= (addr[lane] - first) ^ m->delta[lane];
        } else {
            for (uint32_t k = mask; k; k &= k - 1) {
                uint32_t lane = (uint32_t)__builtin_ctz(k);
                differ |= (addr[lane] - first) ^ m->delta[lane];
            }
        }
        if (!differ) {     /* the memo's passes, their banks turned by the shift (only the passes made) */
            const ws_bank_access *r = &m->result;
            uint32_t n = (uint32_t)(shift / WS_SMEM_BANK_BYTES % WS_SMEM_BANKS);
            out->wavefronts = r->wavefronts;
            out->conflicts = r->conflicts;
            out->degree = r->degree;
            out->parts = r->parts;
            for (uint32_t i = 0; i < r->wavefronts; i++)
                out->pass_banks[i] = n ? r->pass_banks[i] << n | r->pass_banks[i] >> (32 - n) : r->pass_banks[i];
            return;
        }
    }
    ws_bank_access_eval(addr, mask, size, load, out);
    m->site = site + 1;
    m->mask = mask;
    m->size = size;
    m->load = load;
    m->first = first;
    m->halves = halves != NULL;
    if (halves) m->shape = *halves;
    for (uint32_t k = mask; k; k &= k - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(k);
        m->delta[lane] = addr[lane] - first;
    }
    m->result = *out;
}
