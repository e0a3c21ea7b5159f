/* Questions about a parsed module that several commands ask. */
#ifndef WARPSIM_PTX_QUERY_H
#define WARPSIM_PTX_QUERY_H

#include <stdint.h>
#include "ptx_ir.h"

/* Bytes of a variable (count * vec * type size); 0 for an unsized extern. */
uint64_t ptx_var_size(const ptx_var *v);

/* Alignment of a variable in bytes: its .align, else its element size. */
uint32_t ptx_var_align(const ptx_var *v);

/* Static shared memory of a kernel: the module-scope .shared variables
 * that it, or a function it calls (transitively), names, then the .shared
 * variables those functions declare; each placed at its alignment, in the
 * order the simulator lays them out.  Extern (dynamic) shared memory is not
 * counted. */
uint64_t ptx_kernel_static_smem(const ptx_module *m, const ptx_function *kernel);

/* The function named name, preferring a definition over a declaration. */
const ptx_function *ptx_find_function(const ptx_module *m, const char *name);

#endif
