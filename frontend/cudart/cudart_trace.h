/* The runtime's issue trace: opened from what `warpsim exec` put in the
 * environment (exec_env.h), closed with the context. */
#ifndef WARPSIM_CUDART_TRACE_H
#define WARPSIM_CUDART_TRACE_H

#include "cudart_ctx.h"

/* Opens c->trace when WARPSIM_TRACE names a file ("-" = stdout); says on
 * stderr why not when it cannot. */
void cr_trace_open(cr_context *c);
void cr_trace_close(cr_context *c);

#endif
