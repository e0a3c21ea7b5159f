/* --kernel NAME: finding the kernel and saying why when it cannot. */
#include "kernel_lookup.h"

#include <stdio.h>
#include <stdlib.h>
#include "frontend/ptx/ptx_demangle.h"
#include "frontend/ptx/ptx_parse.h"

/* "  void f<1>(int*)  [_Z1fILi1EEvPi]", or "  name" for a C name. */
static void print_kernel_line(const ptx_function *f, ptx_demangled *d)
{
    if (ptx_demangle_parts(f->name, d))
        fprintf(stderr, "  %s  [%s]\n", d->sig, f->name);
    else
        fprintf(stderr, "  %s\n", f->name);
}

const ptx_function *cli_find_kernel(const char *cmd, const ptx_module *m, const char *name)
{
    enum { MAX_LISTED = 64 };
    const ptx_function *found[MAX_LISTED];
    int n = ptx_match_kernels(m, name, found, MAX_LISTED);
    if (n == 1)
        return found[0];
    ptx_demangled *d = malloc(sizeof *d);
    if (!d) {
        fprintf(stderr, "warpsim %s: error: out of memory\n", cmd);
        return NULL;
    }
    if (n > 1) {
        fprintf(stderr, "warpsim %s: error: kernel name '%s' is ambiguous in %s: it names %d kernels; "
                "name one with its template arguments, its signature or its mangled name:\n", cmd, name, m->path, n);
        for (int i = 0; i < n && i < MAX_LISTED; i++)
            print_kernel_line(found[i], d);
    } else {
        fprintf(stderr, "warpsim %s: error: no kernel named '%s' in %s\n", cmd, name, m->path);
        int nk = 0;
        for (int32_t i = 0; i < m->nfuncs; i++)
            nk += m->funcs[i].is_entry && !m->funcs[i].is_decl;
        if (nk == 0)
            fprintf(stderr, "  (%s has no kernels)\n", m->path);
        else
            fprintf(stderr, "kernels in %s:\n", m->path);
        for (int32_t i = 0; i < m->nfuncs; i++)
            if (m->funcs[i].is_entry && !m->funcs[i].is_decl)
                print_kernel_line(&m->funcs[i], d);
    }
    free(d);
    return NULL;
}

void cli_kernel_display_name(const ptx_function *f, char *buf, size_t size)
{
    ptx_demangled *d = malloc(sizeof *d);
    if (d && ptx_demangle_parts(f->name, d))
        snprintf(buf, size, "%s", d->name);
    else
        snprintf(buf, size, "%s", f->name);
    free(d);
}
