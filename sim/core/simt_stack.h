/* The per-warp reconvergence (SIMT) stack.
 *
 * Each entry is a path: the pc it runs next, the pc where it reconverges
 * with its sibling paths, and its lanes.  The top entry is the path the warp
 * runs.  A divergent branch turns the top entry into the reconvergence
 * point and pushes both paths; a path is popped when it reaches its
 * reconvergence pc or has no lanes left. */
#ifndef WARPSIM_SIMT_STACK_H
#define WARPSIM_SIMT_STACK_H

#include <stdbool.h>
#include <stdint.h>

#define WS_NO_RPC (-1)

typedef struct ws_stack_entry {
    int32_t pc, rpc;
    uint32_t mask;
} ws_stack_entry;

/* The first entries live in the stack itself, next to the warp's other
 * state, so the hot loop's look at the top (every step, and every cycle
 * the timing model asks where a warp is) touches no other cache line;
 * deeper nesting spills to a heap buffer the stack owns. */
#define WS_STACK_INLINE 4

typedef struct ws_simt_stack {
    int32_t n;              /* entries */
    int32_t cap;            /* entries more has room for */
    ws_stack_entry first[WS_STACK_INLINE];
    ws_stack_entry *more;   /* entries WS_STACK_INLINE on */
} ws_simt_stack;

bool ws_stack_init(ws_simt_stack *s, int32_t pc, uint32_t mask);
void ws_stack_free(ws_simt_stack *s);
bool ws_stack_push(ws_simt_stack *s, int32_t pc, int32_t rpc, uint32_t mask);

/* Entry i (0 the bottom, n - 1 the top). */
static inline ws_stack_entry *ws_stack_at(ws_simt_stack *s, int32_t i)
{
    return i < WS_STACK_INLINE ? &s->first[i] : &s->more[i - WS_STACK_INLINE];
}
static inline const ws_stack_entry *ws_stack_at_c(const ws_simt_stack *s, int32_t i)
{
    return i < WS_STACK_INLINE ? &s->first[i] : &s->more[i - WS_STACK_INLINE];
}
static inline ws_stack_entry *ws_stack_top(ws_simt_stack *s) { return ws_stack_at(s, s->n - 1); }

/* Pops finished paths (pc at their rpc, or no lanes).  Returns false when
 * the stack is empty: the warp has no lanes left.  The common case, a top
 * that runs on, is tested inline; ws_stack_pop_finished does the popping. */
bool ws_stack_pop_finished(ws_simt_stack *s);
static inline bool ws_stack_settle(ws_simt_stack *s)
{
    if (s->n > 0) {
        const ws_stack_entry *t = ws_stack_top(s);
        if (t->mask != 0 && t->pc != t->rpc) return true;
    }
    return ws_stack_pop_finished(s);
}

/* Removes lanes (they exited) from every entry. */
void ws_stack_remove_lanes(ws_simt_stack *s, uint32_t lanes);

/* A branch of the top path: lanes in taken go to target, the rest to
 * fallthrough; both reconverge at rpc.  Returns 1 when it diverged, 0 when
 * not, -1 when out of memory. */
int ws_stack_branch(ws_simt_stack *s, uint32_t taken, int32_t target,
                     int32_t fallthrough, int32_t rpc);

/* The lanes of every path on the stack. */
uint32_t ws_stack_lanes(const ws_simt_stack *s);

/* Moves lanes to dst (which must be empty): dst gets every entry that holds
 * some of them, restricted to them, so those lanes keep their paths and
 * reconvergence points; s keeps the rest. */
bool ws_stack_split(ws_simt_stack *s, uint32_t lanes, ws_simt_stack *dst);

/* Whether an entry below the top has this pc and rpc: the lanes of s will
 * reach that point later. */
bool ws_stack_holds(const ws_simt_stack *s, int32_t pc, int32_t rpc);

/* Joins src's lanes into dst when both stand at the same point: equal tops,
 * and every entry of src matched (pc and rpc) by an entry of dst, in order.
 * Each lane then follows exactly the path it would have followed alone.
 * Returns false (nothing changed) when they do not match. */
bool ws_stack_merge(ws_simt_stack *dst, const ws_simt_stack *src);

#endif
