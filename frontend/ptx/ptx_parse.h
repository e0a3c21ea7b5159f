/* Parsing PTX text into a ptx_module. */
#ifndef WARPSIM_PTX_PARSE_H
#define WARPSIM_PTX_PARSE_H

#include <stddef.h>
#include <stdio.h>
#include "ptx_ir.h"

/* The most errors one parse reports: after an error in an instruction the
 * parser goes on at the next ';', one error per line, up to this many. */
#define PTX_MAX_ERRORS 20

typedef struct ptx_error {
    char file[256];
    int line, col;          /* 1-based; 0 when the error has no position */
    char msg[512];          /* without the "file:line:col: error: " prefix */
    int nmore;              /* errors found after the first, in order */
    struct { int line, col; char msg[256]; } more[PTX_MAX_ERRORS - 1];
} ptx_error;

/* Parses text (length len, need not be NUL-terminated).  path names the
 * source in messages.  On success returns a module the caller frees with
 * ptx_module_free; on failure returns NULL and fills *err.  Anything the
 * parser does not support (an unknown instruction, modifier or directive)
 * is an error naming it, never skipped.  Reentrant: no global state. */
ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_error *err);
ptx_module *ptx_parse_file(const char *path, ptx_error *err);
void ptx_module_free(ptx_module *m);

/* Formats err (its first error) as "file:line:col: error: msg" into buf. */
void ptx_error_format(const ptx_error *err, char *buf, size_t size);
/* Prints every error in err, one "file:line:col: error: msg" line each. */
void ptx_error_print(const ptx_error *err, FILE *out);

/* Finds a kernel (.entry) by its mangled name or its demangled name
 * ("vecAdd" matches "_Z6vecAddPfS_S_i", as does "vecAdd(float*, float*, float*, int)").
 * For a template kernel "_Z11reduceStageILi256ELi0EEvPfi", the signature
 * "void reduceStage<256, 0>(float*, int)", the name "reduceStage<256, 0>"
 * and the bare "reduceStage" match; in a namespace, "lab::reduceStage"
 * and "reduceStage" alike.  Blanks in name do not count.
 * Returns NULL when none or more than one match. */
const ptx_function *ptx_find_kernel(const ptx_module *m, const char *name);

/* The kernels that name matches as above, into found (up to max of them);
 * returns how many match (an exact mangled name matches alone). */
int ptx_match_kernels(const ptx_module *m, const char *name, const ptx_function **found, int max);

#endif
