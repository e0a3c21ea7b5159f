/* Block placement by the occupancy rule, in linear block order. */
#include "dispatcher.h"

#include <stdio.h>
#include <stdlib.h>

bool ws_dispatcher_init(ws_dispatcher *d, const ws_gpu_config *g, const ws_occ_input *in,
                        uint64_t nblocks, char *err, size_t errsize)
{
    d->nblocks = nblocks;
    d->next = 0;
    d->nsm = g->multiProcessorCount;
    d->resident = NULL;
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
    d->resident = NULL;
}

int64_t ws_dispatcher_place(ws_dispatcher *d, int32_t sm)
{
    if (d->next >= d->nblocks || d->resident[sm] >= d->occ.blocks_per_sm) return -1;
    d->resident[sm]++;
    return (int64_t)d->next++;
}

void ws_dispatcher_retire(ws_dispatcher *d, int32_t sm)
{
    if (d->resident[sm] > 0) d->resident[sm]--;
}

uint64_t ws_dispatcher_wave_size(const ws_dispatcher *d)
{
    return (uint64_t)d->occ.blocks_per_sm * (uint64_t)d->nsm;
}
