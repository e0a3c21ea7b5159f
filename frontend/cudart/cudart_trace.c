/* The runtime's issue trace: see cudart_trace.h. */
#include "cudart_trace.h"
#include "exec_env.h"
#include "sim/trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* The filter from the environment; exec checked the values, so a bad one
 * (set by hand) is said and left out. */
static void filter_from_env(ws_trace_filter *f)
{
    static const struct { const char *var, *option; } opts[] = {
        {WS_ENV_TRACE_KERNEL, "kernel"}, {WS_ENV_TRACE_LAUNCH, "launch"}, {WS_ENV_TRACE_BLOCK, "block"},
        {WS_ENV_TRACE_WARP, "warp"},     {WS_ENV_TRACE_PC, "pc"},         {WS_ENV_TRACE_CYCLES, "cycles"},
        {WS_ENV_TRACE_LIMIT, "limit"},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        const char *v = env(opts[i].var);
        char err[256];
        if (v && !ws_trace_parse_option(f, opts[i].option, v, err, sizeof err))
            fprintf(stderr, "warpsim: error: %s (from %s); tracing without it\n", err, opts[i].var);
    }
}

void cr_trace_open(cr_context *c)
{
    const char *path = env(WS_ENV_TRACE);
    if (!path) return;
    ws_trace_format fmt = WS_TRACE_TEXT;
    const char *tf = env(WS_ENV_TRACE_FORMAT);
    if (tf && !ws_trace_parse_format(tf, &fmt))
        fprintf(stderr, "warpsim: unknown trace format '%s'; writing text\n", tf);
    ws_trace_filter f = WS_TRACE_FILTER_ALL;
    filter_from_env(&f);
    bool to_stdout = !strcmp(path, "-");
    c->trace_out = to_stdout ? stdout : fopen(path, "w");
    if (c->trace_out) c->trace = ws_trace_open(c->trace_out, fmt, &f);
    if (!c->trace) {
        fprintf(stderr, "warpsim: cannot write the trace to %s\n", path);
        if (c->trace_out && !to_stdout) fclose(c->trace_out);
        c->trace_out = NULL;
        return;
    }
    if (c->gpu_ok) ws_trace_set_clock(c->trace, c->gpu.clockRate);
}

void cr_trace_close(cr_context *c)
{
    if (c->trace) ws_trace_close(c->trace);
    if (c->trace_out && c->trace_out != stdout) fclose(c->trace_out);
    else if (c->trace_out) fflush(stdout);
    c->trace = NULL;
    c->trace_out = NULL;
}
