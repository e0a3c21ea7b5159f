/* SASS-informed counters: where ptxas made one wide access of several PTX
 * accesses (four ld.shared.f32 of consecutive addresses into one LDS.128),
 * the memory counters count the group as that one access, as the GPU's
 * counters do.  The listing is read by frontend/sass; see docs/SASS.md. */
#ifndef WARPSIM_SASS_GROUPS_H
#define WARPSIM_SASS_GROUPS_H

#include <stdint.h>
#include "sim.h"
#include "../../frontend/sass/sass_listing.h"

/* ws_program's sass_group[pc]: 0 the access counts as itself, n > 1 it
 * leads a group of n (counted and timed as one access of n times its
 * bytes), WS_SASS_MERGED it is counted with its group's leader and makes
 * no request of its own; its registers are ready with the leader's.
 * sass_lead[pc] is the leader's pc for both; a leader issues before its
 * followers. */
#define WS_SASS_MERGED 0xff

typedef struct ws_sass_applied {
    uint32_t kernels;       /* kernels of the program the listing has */
    uint32_t groups;        /* wide SASS accesses matched to groups of PTX accesses */
    uint32_t unmatched;     /* wide SASS accesses no group of PTX accesses was found for */
} ws_sass_applied;

/* Marks p's groups from listing l.  False with *err filled when the listing has none of p's
 * kernels (most likely a listing of another PTX file). */
bool ws_program_apply_sass(ws_program *p, const ws_sass_listing *l, ws_sass_applied *out, ws_error *err);

/* The listing's path when p counts SASS-informed, else NULL. */
const char *ws_program_sass_source(const ws_program *p);

#endif
