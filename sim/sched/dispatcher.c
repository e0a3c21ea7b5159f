/* Block placement by the occupancy rule, in linear block order. */
#include "dispatcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ws_dispatcher_init(ws_dispatcher *d, const ws_gpu_config *g, const ws_occ_input *in,
                        uint64_t nblocks, char *err, size_t errsize)
{
    d->nblocks = nblocks;
    d->next = 0;
    d->nsm = g->multiProcessorCount;
    d->resident = NULL;
    d->backlog = NULL;
    d->head = d->nbacklog = d->backlogcap = 0;
    ws_occupancy(g, in, WS_OCC_HARDWARE, &d->occ);
    if (d->occ.error != WS_OCC_OK || d->occ.blocks_per_sm < 1) {
        snprintf(err, errsize, "%s: %s (limited by %s)", ws_occ_error_cuda_name(d->occ.error),
                 ws_occ_error_cuda_string(d->occ.error), ws_occ_resource_name(d->occ.limiter));
        return false;
    }
    d->resident = calloc((size_t)d->nsm, sizeof *d->resident);
    if (!d->resident) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    return true;
}

void ws_dispatcher_free(ws_dispatcher *d)
{
    free(d->resident);
    free(d->backlog);
    d->resident = NULL;
    d->backlog = NULL;
}

int64_t ws_dispatcher_take(ws_dispatcher *d)
{
    if (d->head < d->nbacklog) return (int64_t)d->backlog[d->head++];
    return d->next < d->nblocks ? (int64_t)d->next++ : -1;
}

void ws_dispatcher_started(ws_dispatcher *d, int32_t sm)
{
    d->resident[sm]++;
}

bool ws_dispatcher_left(const ws_dispatcher *d)
{
    return d->head < d->nbacklog || d->next < d->nblocks;
}

bool ws_dispatcher_give_back(ws_dispatcher *d, const uint64_t *blocks, uint64_t n)
{
    if (n == 0) return true;
    /* what is left of the backlog, moved to its start, and the blocks,
     * merged in order from the end (the storage is kept from call to call) */
    uint64_t left = d->nbacklog - d->head, need = left + n;
    if (need > d->backlogcap) {
        uint64_t cap = need > 2 * d->backlogcap ? need : 2 * d->backlogcap;
        uint64_t *b = realloc(d->backlog, sizeof *b * (size_t)cap);
        if (!b) return false;
        d->backlog = b;
        d->backlogcap = cap;
    }
    memmove(d->backlog, d->backlog + d->head, sizeof *d->backlog * (size_t)left);
    for (uint64_t i = left, j = n, k = need; j > 0;)
        d->backlog[--k] = i > 0 && d->backlog[i - 1] > blocks[j - 1] ? d->backlog[--i] : blocks[--j];
    d->head = 0;
    d->nbacklog = need;
    return true;
}

int64_t ws_dispatcher_place(ws_dispatcher *d, int32_t sm)
{
    if (d->resident[sm] >= d->occ.blocks_per_sm) return -1;
    int64_t b = ws_dispatcher_take(d);
    if (b >= 0) d->resident[sm]++;
    return b;
}

void ws_dispatcher_retire(ws_dispatcher *d, int32_t sm)
{
    if (d->resident[sm] > 0) d->resident[sm]--;
}

uint64_t ws_dispatcher_wave_size(const ws_dispatcher *d)
{
    return (uint64_t)d->occ.blocks_per_sm * (uint64_t)d->nsm;
}
