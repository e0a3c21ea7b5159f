/* The runtime's entry points that warpsim does not implement (listed in
 * cudart_stubs.def).  A program linked against the CUDA runtime may call
 * any of them; it gets cudaErrorNotSupported and one line on stderr, and
 * goes on.  The arguments are ignored, so one signature serves all. */
#include "cudart_ctx.h"

#define X(name)                                                 \
    CR_EXPORT int name(void);                                   \
    CR_EXPORT int name(void) { return (int)cr_unsupported(#name); }
#include "cudart_stubs.def"
#undef X
