/* Filling a ws_error (sim.h). */
#include <stdarg.h>
#include <stdio.h>

#include "sim.h"

void ws_error_set(ws_error *e, ws_error_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->kind = kind;
}
