/* Errors as values: what went wrong, in words for the user, and its kind,
 * which the runtime maps to a CUDA error through error_kinds.def. */
#ifndef WARPSIM_ERROR_H
#define WARPSIM_ERROR_H

#include <stdbool.h>

/* What went wrong, formatted for the user: a load error names the PTX
 * file:line:col; a kernel fault names kernel, block, thread, PC and source
 * line, in the manner of compute-sanitizer. */
typedef enum ws_error_kind {
#define X(kind, cuda_code, cuda_name) kind,
#include "error_kinds.def"
#undef X
} ws_error_kind;

typedef struct ws_error {
    char msg[1024];
    ws_error_kind kind;     /* what the runtime reports (error_kinds.def maps it) */
} ws_error;

/* The CUDA runtime error a kind is reported as (error_kinds.def): its
 * cudaError value and its name ("cudaErrorInvalidConfiguration"). */
int ws_error_cuda_code(ws_error_kind kind);
const char *ws_error_cuda_name(ws_error_kind kind);
/* The launch was refused by its limits (launch_check.h): nothing ran. */
bool ws_error_launch_refused(ws_error_kind kind);

/* Sets e's message (printf-style) and kind. */
void ws_error_set(ws_error *e, ws_error_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
