/* Which SM writes which 128-byte lines of global memory in a window of
 * cycles (sm_team.c), so that the window's end may do its SMs' put-off
 * stores on several threads at once.
 *
 * A window's writes take effect at its end in the order of one thread's
 * run: by cycle, then SM.  That order matters only where two SMs write the
 * same bytes; where no line is written by two SMs, each SM's list done in
 * its own order, the lists on any threads, leaves the same bytes.  Each
 * store, on its SM's thread as it issues, claims its lines for its SM in
 * a table shared by the threads; a line another SM claimed, a store that
 * spreads over many lines, the table full, or a put-off write of another
 * kind (an atomic, a store whose host bytes were not found ahead) marks
 * the window clashed, and its writes go one by one as before.
 *
 * Entries carry the window's generation, so a new window starts without
 * clearing the table; the table is cleared when the generations wrap. */
#ifndef WARPSIM_WRITE_CLAIMS_H
#define WARPSIM_WRITE_CLAIMS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ws_write_claims {
    _Atomic uint64_t *slots;    /* line << 24 | generation << 12 | SM; 0: empty */
    uint64_t mask;              /* slots - 1 (a power of two) */
    uint64_t gen;               /* this window's, 1 .. 4095 */
    _Atomic uint64_t clashed;   /* the generation of the last window found clashed */
} ws_write_claims;

/* A table for SMs numbered below 4,096; false on out of memory. */
bool ws_write_claims_init(ws_write_claims *c);
void ws_write_claims_free(ws_write_claims *c);

/* Before a window's SMs run (on one thread): a new generation. */
void ws_write_claims_next_window(ws_write_claims *c);

/* On SM sm's thread: a store of the window that writes bytes
 * [lo, end) of global memory, by lanes at most 64 bytes apart or not,
 * to be done with its SM's other writes in their order.  *last is the
 * caller's memo of its SM's last line claimed (0: none). */
void ws_write_claims_store(ws_write_claims *c, int32_t sm, uint64_t lo, uint64_t end, uint64_t *last);

/* On any thread: the window's writes must go one by one. */
void ws_write_claims_clash(ws_write_claims *c);

/* After the window's SMs ran: whether their writes may go SM by SM on
 * several threads. */
bool ws_write_claims_apart(const ws_write_claims *c);

#endif
