/* Streams and events.  Every operation completes before its call returns,
 * so a stream is only a handle and synchronizing is a no-op (it still
 * reports a sticky kernel fault).
 *
 * Event times are simulated time.  Until the timing model gives cycles, a
 * launch counts as issue-bound: its warp instructions spread over every
 * SM sub-partition, one per cycle, at the config's clockRate (see
 * cudart_launch.c); copies take no time.  The first cudaEventElapsedTime
 * says so on stderr. */
#include <stdlib.h>
#include "cudart_ctx.h"

struct CUstream_st { unsigned int flags; int priority; };
struct CUevent_st { bool recorded; double ms; };

CR_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!pStream) return cr_ret(c, cudaErrorInvalidValue);
    if (!c->noted_streams) {
        /* a lab that overlaps copies and kernels on streams sees none of it */
        c->noted_streams = true;
        cr_note("note: streams run one after another here: kernels and copies on different streams do not "
                "overlap, and copies take no simulated time");
    }
    cudaStream_t s = malloc(sizeof *s);
    if (!s) return cr_ret(c, cudaErrorMemoryAllocation);
    s->flags = flags;
    s->priority = priority;
    *pStream = s;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

CR_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, 0, 0);
}

CR_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!stream) return cr_ret(c, cudaErrorInvalidResourceHandle);
    free(stream);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    (void)stream;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    return c ? cudaSuccess : e;
}

CR_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    return cudaStreamSynchronize(stream);
}

CR_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return cudaStreamSynchronize(stream);
}

CR_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
    return cudaStreamSynchronize(stream);
}

CR_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)stream; (void)event; (void)flags;
    return cudaStreamSynchronize(stream);
}

CR_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return cudaStreamWaitEvent(stream, event, flags);
}

CR_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    (void)flags;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!event) return cr_ret(c, cudaErrorInvalidValue);
    cudaEvent_t ev = calloc(1, sizeof *ev);
    if (!ev) return cr_ret(c, cudaErrorMemoryAllocation);
    *event = ev;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

CR_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)stream;
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!event) return cr_ret(c, cudaErrorInvalidResourceHandle);
    event->recorded = true;
    event->ms = c->sim_ms;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecord(event, stream);
}

CR_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    (void)flags;
    return cudaEventRecord(event, stream);
}

CR_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                    unsigned int flags)
{
    return cudaEventRecordWithFlags(event, stream, flags);
}

CR_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return event ? cudaSuccess : cr_ret(c, cudaErrorInvalidResourceHandle);
}

CR_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return cudaEventSynchronize(event);
}

CR_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!ms) return cr_ret(c, cudaErrorInvalidValue);
    if (!start || !end) return cr_ret(c, cudaErrorInvalidResourceHandle);
    if (!start->recorded || !end->recorded) return cr_ret(c, cudaErrorInvalidResourceHandle);
    if (!c->noted_event_time) {
        c->noted_event_time = true;
        if (c->functional)
            cr_note("note: cudaEventElapsedTime reports simulated time: with --functional, each launch "
                    "as its warp instructions issued one per cycle per SM sub-partition at %d MHz",
                    c->gpu.clockRate / 1000);
        else
            cr_note("note: cudaEventElapsedTime reports simulated time: the timing model's cycles "
                    "on %s at %d MHz", c->gpu.name, c->gpu.clockRate / 1000);
    }
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!event) return cr_ret(c, cudaErrorInvalidResourceHandle);
    free(event);
    return cudaSuccess;
}
