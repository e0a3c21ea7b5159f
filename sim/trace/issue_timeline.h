/* When each SM issued warp instructions during one timed launch, in a fixed
 * number of time bins: per SM, and per warp slot for the first few SMs.
 * The bins widen (doubling, neighbours merged) as the launch goes on, so
 * the memory and the HTML report's timeline stay small for any length of
 * launch while the counts stay exact. */
#ifndef WARPSIM_ISSUE_TIMELINE_H
#define WARPSIM_ISSUE_TIMELINE_H

#include <stdint.h>

#define WS_TIMELINE_BINS 512        /* bins over the whole launch */
#define WS_TIMELINE_DETAIL_SMS 2    /* SMs whose warp slots get rows of their own */

typedef struct ws_issue_timeline {
    uint32_t nsm, slots;            /* SMs, warp slots per SM */
    uint64_t width;                 /* cycles per bin, a power of two */
    uint64_t last;                  /* the last issue cycle seen */
    uint64_t issues;                /* all issues counted */
    uint64_t *sm;                   /* [nsm][WS_TIMELINE_BINS] */
    uint64_t *slot;                 /* [min(nsm, DETAIL_SMS)][slots][WS_TIMELINE_BINS] */
} ws_issue_timeline;

/* An empty timeline for a GPU of nsm SMs with slots warp slots each; NULL
 * when out of memory. */
ws_issue_timeline *ws_issue_timeline_create(uint32_t nsm, uint32_t slots);
void ws_issue_timeline_free(ws_issue_timeline *t);
/* Empties t for the next launch. */
void ws_issue_timeline_clear(ws_issue_timeline *t);
/* One warp instruction issued by warp slot slot of SM sm at cycle (from
 * the launch's start).  Coordinates outside t's GPU are ignored. */
void ws_issue_timeline_add(ws_issue_timeline *t, uint32_t sm, uint32_t slot, uint64_t cycle);
/* Adds from's issues to to's (the two of one GPU's shape): the bins of
 * the narrower made as wide as the other's first, so that the sum is the
 * timeline of both launches' issues added to one (a timed launch on
 * several threads keeps one a thread). */
void ws_issue_timeline_merge(ws_issue_timeline *to, ws_issue_timeline *from);
/* Bins in use: those up to the last issue. */
uint32_t ws_issue_timeline_used(const ws_issue_timeline *t);
/* SMs that have per-slot rows. */
uint32_t ws_issue_timeline_detail_sms(const ws_issue_timeline *t);

#endif
