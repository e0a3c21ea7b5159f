/* Counting set bits without a library call. */
#ifndef WARPSIM_BITS_H
#define WARPSIM_BITS_H

#include <stdint.h>

/* The set bits of x.  Without -mpopcnt GCC makes __builtin_popcount a call
 * into libgcc; lane masks are counted in the hot loop, so the bit-parallel
 * sum is written out instead. */
static inline uint32_t ws_popcount32(uint32_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
#endif
}

static inline uint32_t ws_popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcountll(x);
#else
    return ws_popcount32((uint32_t)x) + ws_popcount32((uint32_t)(x >> 32));
#endif
}

#endif
