/* Filling a ws_error (error.h). */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

void ws_error_set(ws_error *e, ws_error_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->kind = kind;
}

static const struct { int code; const char *name; } cuda_errors[] = {
#define X(kind, cuda_code, cuda_name) [kind] = {cuda_code, #cuda_name},
#include "error_kinds.def"
#undef X
};

int ws_error_cuda_code(ws_error_kind kind)
{
    return (size_t)kind < sizeof cuda_errors / sizeof cuda_errors[0] ? cuda_errors[kind].code
                                                                      : cuda_errors[WS_ERR_KERNEL_FAULT].code;
}

const char *ws_error_cuda_name(ws_error_kind kind)
{
    return (size_t)kind < sizeof cuda_errors / sizeof cuda_errors[0] ? cuda_errors[kind].name
                                                                      : cuda_errors[WS_ERR_KERNEL_FAULT].name;
}

bool ws_error_launch_refused(ws_error_kind kind)
{
    return kind == WS_ERR_LAUNCH_CONFIG || kind == WS_ERR_LAUNCH_SMEM || kind == WS_ERR_LAUNCH_RESOURCES;
}
