/* Lines of global memory claimed by the SMs of a window (write_claims.h). */
#include "write_claims.h"

#include <stdlib.h>
#include <string.h>

/* 2^17 slots (1 MiB): a window of 132 SMs stores to a few thousand lines
 * in the course's programs; a fuller table only makes the window go one
 * by one. */
#define CLAIM_SLOTS_LOG2 17
#define CLAIM_PROBES 32
/* A store over more lines than this goes one by one (a column of a matrix:
 * 32 lines, each a few bytes). */
#define CLAIM_MAX_LINES 8
#define GEN_BITS 12
#define SM_BITS 12
#define LINE_SHIFT 7

bool ws_write_claims_init(ws_write_claims *c)
{
    size_t n = (size_t)1 << CLAIM_SLOTS_LOG2;
    c->slots = calloc(n, sizeof *c->slots);
    c->mask = n - 1;
    c->gen = 0;
    atomic_init(&c->clashed, 0);
    return c->slots != NULL;
}

void ws_write_claims_free(ws_write_claims *c)
{
    free((void *)c->slots);
    c->slots = NULL;
}

void ws_write_claims_next_window(ws_write_claims *c)
{
    if (++c->gen == (UINT64_C(1) << GEN_BITS)) {
        /* the generations wrap: old entries would look current */
        memset((void *)c->slots, 0, sizeof *c->slots * (c->mask + 1));
        c->gen = 1;
    }
}

void ws_write_claims_clash(ws_write_claims *c)
{
    if (atomic_load_explicit(&c->clashed, memory_order_relaxed) != c->gen)
        atomic_store_explicit(&c->clashed, c->gen, memory_order_relaxed);
}

bool ws_write_claims_apart(const ws_write_claims *c)
{
    return atomic_load_explicit(&c->clashed, memory_order_relaxed) != c->gen;
}

static uint64_t line_hash(uint64_t line, uint64_t mask)
{
    return (line * UINT64_C(0x9e3779b97f4a7c15)) >> 20 & mask;
}

/* Claims line for the entry want (its line, this generation, its SM):
 * false when another SM holds it or no slot is free near its place.  An
 * entry of an older generation counts as free; two threads after one free
 * slot both try it, and the loser reads the winner's entry. */
static bool claim_line(ws_write_claims *c, uint64_t line, uint64_t want)
{
    uint64_t i = line_hash(line, c->mask);
    for (int probe = 0; probe < CLAIM_PROBES; probe++, i = (i + 1) & c->mask) {
        uint64_t e = atomic_load_explicit(&c->slots[i], memory_order_relaxed);
        while (e == 0 || (e >> SM_BITS & ((UINT64_C(1) << GEN_BITS) - 1)) != c->gen)
            if (atomic_compare_exchange_weak_explicit(&c->slots[i], &e, want, memory_order_relaxed,
                                                      memory_order_relaxed))
                return true;
        if (e >> (GEN_BITS + SM_BITS) == line) return e == want;
    }
    return false;
}

void ws_write_claims_store(ws_write_claims *c, int32_t sm, uint64_t lo, uint64_t end, uint64_t *last)
{
    if (!ws_write_claims_apart(c)) return;      /* clashed already: nothing more to learn */
    uint64_t first = lo >> LINE_SHIFT, final = (end - 1) >> LINE_SHIFT;
    if (final - first >= CLAIM_MAX_LINES) {
        ws_write_claims_clash(c);
        return;
    }
    uint64_t tag = c->gen << SM_BITS | (uint64_t)sm;
    for (uint64_t line = first; line <= final; line++) {
        uint64_t want = line << (GEN_BITS + SM_BITS) | tag;
        if (want == *last) continue;
        if (!claim_line(c, line, want)) {
            ws_write_claims_clash(c);
            return;
        }
        *last = want;
    }
}
