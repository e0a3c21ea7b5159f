/* Questions about a parsed module that several commands ask. */
#ifndef WARPSIM_PTX_QUERY_H
#define WARPSIM_PTX_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ptx_ir.h"

/* Bytes of a variable (count * vec * type size); 0 for an unsized extern. */
uint64_t ptx_var_size(const ptx_var *v);

/* Alignment of a variable in bytes: its .align, else its element size. */
uint32_t ptx_var_align(const ptx_var *v);


/* The function named name, preferring a definition over a declaration. */
const ptx_function *ptx_find_function(const ptx_module *m, const char *name);

/* Whether PTX of the module's .target can run on a device of compute
 * capability major.minor, as the driver decides (CUDA C Programming Guide,
 * "Binary Compatibility" / "PTX Compatibility"): PTX for sm_XY runs on
 * compute capability X.Y and later; an arch-specific target (sm_90a) on
 * X.Y alone; a family target (sm_100f) on X.Y and later of the same major.
 * A target that names no sm_ architecture is taken to fit.  When it does
 * not fit, why receives the reason ("the PTX targets sm_90, which needs
 * compute capability 9.0 or later; the device has 8.0"). */
bool ptx_target_fits(const ptx_module *m, int32_t major, int32_t minor, char *why, size_t size);

#endif
