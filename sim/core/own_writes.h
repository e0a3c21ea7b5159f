/* An SM's own writes of a window of cycles, as its loads read them.
 *
 * In a window (timing_window.h) an SM's global stores wait in its list
 * until the window ends, and a load reads memory as it was when the window
 * began.  A kernel that reads back what it wrote (a reduction in place,
 * `y[i] += a` twice in a row) would then miss its own stores; cycle by
 * cycle a store is seen from the next cycle on.  So for such a kernel each
 * SM keeps the bytes its stores of the window wrote, line by line, and a
 * load of a later cycle takes those bytes from here: the SM reads its own
 * writes exactly as it would cycle by cycle.  Other SMs see them when the
 * window ends (docs/THREADS.md says what that means for a kernel whose
 * blocks read each other's writes).
 *
 * One SM's: written and read only by the thread that runs the SM's window,
 * emptied at the window's end. */
#ifndef WARPSIM_OWN_WRITES_H
#define WARPSIM_OWN_WRITES_H

#include <stdbool.h>
#include <stdint.h>

#include "alu.h"    /* WS_WARP_SIZE */

typedef struct ws_own_writes ws_own_writes;

ws_own_writes *ws_own_writes_create(void);
void ws_own_writes_free(ws_own_writes *o);
/* Forgets every write (the window's end). */
void ws_own_writes_clear(ws_own_writes *o);

/* A store of cycle `cycle`: each lane of mask writes nv elements of es
 * bytes (es * nv <= 64) at addrs[lane], element k's value the low es bytes
 * of values[k * WS_WARP_SIZE + lane], little-endian; lanes in lane order
 * (the last wins).  False when out of memory. */
bool ws_own_writes_add(ws_own_writes *o, uint64_t cycle, const uint64_t *addrs, const uint64_t *values,
                       uint32_t nv, uint32_t es, uint32_t mask);

/* Whether any store before cycle now wrote a byte of [lo, hi): a warp's
 * span, asked before its lanes one by one. */
bool ws_own_writes_touch(ws_own_writes *o, uint64_t now, uint64_t lo, uint64_t hi);

/* buf holds the size bytes at addr as memory has them; the bytes that
 * stores before cycle now wrote are put over them, *any: whether there was
 * one.  False when out of memory. */
bool ws_own_writes_overlay(ws_own_writes *o, uint64_t now, uint64_t addr, uint8_t *buf, uint32_t size,
                           bool *any);

#endif
