/* Error names and messages, and the last-error queries. */
#include "cudart_ctx.h"

CR_EXPORT const char *cudaGetErrorName(cudaError_t error)
{
    switch ((int)error) {
#define X(value, name, message) case value: return #name;
#include "cudart_errors.def"
#undef X
    default: return "unrecognized error code";
    }
}

CR_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
    switch ((int)error) {
#define X(value, name, message) case value: return message;
#include "cudart_errors.def"
#undef X
    default: return "unrecognized error code";
    }
}

/* A sticky error stays; any other is returned once and cleared. */
CR_EXPORT cudaError_t cudaGetLastError(void)
{
    cr_context *c = cr_ctx();
    if (!c) return cudaErrorMemoryAllocation;
    if (c->sticky_error) return c->sticky_error;
    cudaError_t e = c->last_error;
    c->last_error = cudaSuccess;
    return e;
}

CR_EXPORT cudaError_t cudaPeekAtLastError(void)
{
    cr_context *c = cr_ctx();
    if (!c) return cudaErrorMemoryAllocation;
    return c->sticky_error ? c->sticky_error : c->last_error;
}
