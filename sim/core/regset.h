/* Sets of a function's registers as bit words, nw 64-bit words a set, and
 * tables of them (one set per instruction or per register): the load-time
 * dataflow analyses' storage (reg_init.c, reg_rows.c). */
#ifndef WARPSIM_REGSET_H
#define WARPSIM_REGSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Set i of a table of sets of nw words. */
static inline uint64_t *ws_regset_at(uint64_t *table, uint32_t nw, int32_t i)
{
    return table + (size_t)i * nw;
}

static inline bool ws_regset_has(const uint64_t *set, int32_t r)
{
    return set[r / 64] >> (r % 64) & 1;
}

static inline void ws_regset_add(uint64_t *set, int32_t r)
{
    set[r / 64] |= UINT64_C(1) << (r % 64);
}

#endif
