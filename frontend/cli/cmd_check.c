/* warpsim check FILE.ptx: parse a module, say whether everything in it is
 * supported, and list its kernels with their parameters and static shared
 * memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "frontend/ptx/ptx_demangle.h"
#include "frontend/ptx/ptx_parse.h"
#include "frontend/ptx/ptx_query.h"
#include "sim/core/sim.h"

static void check_usage(FILE *out)
{
    fprintf(out, "usage: warpsim check FILE.ptx\n\n"
                 "Parses FILE.ptx and lists its kernels, their parameters and their static\n"
                 "shared memory.\n\n"
                 "Exit status: 0 when the file is valid PTX and everything in it is\n"
                 "supported; 2 when it cannot be read, is not valid PTX or uses PTX that\n"
                 "warpsim does not support (each problem is printed as\n"
                 "FILE:LINE:COL: error: ...), or on a usage error.\n");
}

static void print_kernel(const ws_program *prog, const ptx_function *f)
{
    ptx_demangled *d = malloc(sizeof *d);
    if (d && ptx_demangle_parts(f->name, d))
        printf("kernel %s  [%s]\n  signature: %s\n", d->name, f->name, d->sig);
    else
        printf("kernel %s\n", f->name);
    free(d);
    printf("  parameters: %d\n", (int)f->nparams);
    for (int32_t i = 0; i < f->nparams; i++) {
        const ptx_var *p = &f->params[i];
        char type[32];
        if (p->count > 1 || p->vec > 1)
            snprintf(type, sizeof type, "%s%s[%llu]", p->vec > 1 ? (p->vec == 2 ? ".v2" : ".v4") : "",
                     ptx_type_name(p->type), (unsigned long long)p->count);
        else
            snprintf(type, sizeof type, "%s", ptx_type_name(p->type));
        printf("    %2d  %-10s %4llu bytes  %s%s\n", (int)i, type, (unsigned long long)ptx_var_size(p),
               p->name, p->ptr_attr ? "  (pointer)" : "");
    }
    const ws_kernel *k = ws_program_kernel(prog, f->name);
    printf("  static shared memory: %u bytes\n", k ? ws_kernel_static_smem(k) : 0);
    if (f->reqntid[0])
        printf("  .reqntid %u, %u, %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
    if (f->maxntid[0])
        printf("  .maxntid %u, %u, %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
    if (f->minnctapersm)
        printf("  .minnctapersm %u\n", f->minnctapersm);
    if (f->maxnreg)
        printf("  .maxnreg %u\n", f->maxnreg);
    printf("  instructions: %d\n", (int)f->ninsns);
}

int cli_check(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            check_usage(stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "warpsim check: error: unknown option '%s'\n", argv[i]);
            check_usage(stderr);
            return 2;
        }
        if (path) {
            fprintf(stderr, "warpsim check: error: more than one file ('%s' and '%s')\n", path, argv[i]);
            return 2;
        }
        path = argv[i];
    }
    if (!path) {
        check_usage(stderr);
        return 2;
    }
    ptx_error err;
    ptx_module *m = ptx_parse_file(path, &err);
    if (!m) {
        ptx_error_print(&err, stderr);
        return 2;
    }
    /* Parsing accepts the syntax; decoding says whether the simulator can
     * execute every instruction, so check does both. */
    ws_devmem *mem = ws_devmem_create();
    ws_error lerr;
    ws_program *prog = mem ? ws_program_load(m, mem, &lerr) : NULL;
    if (!prog) {
        fprintf(stderr, "%s\n", mem ? lerr.msg : "warpsim check: error: out of memory");
        ws_devmem_destroy(mem);
        ptx_module_free(m);
        return 2;
    }
    printf("%s: PTX %u.%u, target %s, %u-bit addresses\n", path, m->version_major,
           m->version_minor, m->target[0] ? m->target : "?", m->address_size);
    int nkernels = 0;
    for (int32_t i = 0; i < m->nfuncs; i++) {
        if (!m->funcs[i].is_entry || m->funcs[i].is_decl)
            continue;
        print_kernel(prog, &m->funcs[i]);
        nkernels++;
    }
    printf("%d kernel%s; everything is supported\n", nkernels, nkernels == 1 ? "" : "s");
    ws_program_free(prog);
    ws_devmem_destroy(mem);
    ptx_module_free(m);
    return 0;
}
