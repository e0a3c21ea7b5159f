/* Naming kernels on the command line: --kernel by mangled or demangled
 * name (ptx_find_kernel's rules), and the name shown for a kernel. */
#ifndef WARPSIM_CLI_KERNEL_LOOKUP_H
#define WARPSIM_CLI_KERNEL_LOOKUP_H

#include <stddef.h>
#include "frontend/ptx/ptx_ir.h"

/* The kernel of m that name names.  When none or several do, prints to
 * stderr "warpsim CMD: error: ..." with the kernels of the file (or those
 * that name matches, each with its signature and mangled name) and
 * returns NULL. */
const ptx_function *cli_find_kernel(const char *cmd, const ptx_module *m, const char *name);

/* The name to show for f: its demangled name with template arguments
 * ("reduceStage<256, 0>", "lab::scaleAll"), else its PTX name. */
void cli_kernel_display_name(const ptx_function *f, char *buf, size_t size);

#endif
