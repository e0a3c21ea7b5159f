/* Module queries (ptx_query.h). */
#include "ptx_query.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ptx_var_size(const ptx_var *v)
{
    return v->count * (v->vec ? v->vec : 1) * ptx_type_size(v->type);
}

uint32_t ptx_var_align(const ptx_var *v)
{
    if (v->align)
        return v->align;
    uint32_t a = ptx_type_size(v->type) * (v->vec ? v->vec : 1);
    return a ? a : 1;
}

const ptx_function *ptx_find_function(const ptx_module *m, const char *name)
{
    for (int32_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name))
            return &m->funcs[i];
    return NULL;
}

static uint64_t place(uint64_t off, const ptx_var *v)
{
    uint32_t a = ptx_var_align(v);
    return (off + a - 1) / a * a + ptx_var_size(v);
}

static const char *operand_symbol(const ptx_operand *o)
{
    if (o->kind == PTX_OPND_SYMBOL)
        return o->name;
    if (o->kind == PTX_OPND_ADDR && o->addr_base == PTX_ADDR_SYMBOL)
        return o->name;
    return NULL;
}

/* Marks module shared variables (used[]) and functions (seen[]) reachable
 * from function fi. */
static void mark_uses(const ptx_module *m, int32_t fi, bool *used, bool *seen)
{
    if (seen[fi])
        return;
    seen[fi] = true;
    const ptx_function *f = &m->funcs[fi];
    for (int32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn *in = &f->insns[i];
        for (int32_t k = 0; k < in->nops; k++) {
            const char *s = operand_symbol(&in->ops[k]);
            if (!s)
                continue;
            for (int32_t g = 0; g < m->nglobals; g++)
                if (m->globals[g].space == PTX_SPACE_SHARED && !strcmp(m->globals[g].name, s))
                    used[g] = true;
            for (int32_t j = 0; j < m->nfuncs; j++)
                if (!strcmp(m->funcs[j].name, s))
                    mark_uses(m, j, used, seen);
        }
    }
}

uint64_t ptx_kernel_static_smem(const ptx_module *m, const ptx_function *kernel)
{
    uint64_t off = 0;
    bool *used = calloc((size_t)m->nglobals + 1, sizeof *used);
    bool *seen = calloc((size_t)m->nfuncs + 1, sizeof *seen);
    if (used && seen) {
        mark_uses(m, (int32_t)(kernel - m->funcs), used, seen);
        /* In the order the simulator lays them out: module scope first,
         * then each function's own (a .shared declared in a function the
         * kernel calls is a block-wide variable too). */
        for (int32_t g = 0; g < m->nglobals; g++)
            if (used[g] && !m->globals[g].is_extern)
                off = place(off, &m->globals[g]);
        for (int32_t j = 0; j < m->nfuncs; j++)
            for (int32_t i = 0; seen[j] && i < m->funcs[j].nlocals; i++)
                if (m->funcs[j].locals[i].space == PTX_SPACE_SHARED && !m->funcs[j].locals[i].is_extern)
                    off = place(off, &m->funcs[j].locals[i]);
    }
    free(used);
    free(seen);
    return off;
}

bool ptx_target_fits(const ptx_module *m, int32_t major, int32_t minor, char *why, size_t size)
{
    const char *t = m->target;
    if (strncmp(t, "sm_", 3) || t[3] < '1' || t[3] > '9')
        return true;
    char *end;
    long arch = strtol(t + 3, &end, 10);
    char kind = *end;                   /* '\0', 'a' (arch-specific) or 'f' (family) */
    if (arch < 10 || arch > 1000 || (kind && kind != 'a' && kind != 'f') || (kind && end[1]))
        return true;
    int32_t tmajor = (int32_t)(arch / 10), tminor = (int32_t)(arch % 10);
    int32_t have = major * 10 + minor;
    bool fits = kind == 'a'   ? have == arch
                : kind == 'f' ? major == tmajor && have >= arch
                              : have >= arch;
    if (!fits && why)
        snprintf(why, size, "the PTX targets %s, which needs compute capability %d.%d%s; the device has %d.%d",
                 t, tmajor, tminor,
                 kind == 'a' ? " exactly" : kind == 'f' ? " or a later one of the same major" : " or later",
                 major, minor);
    return fits;
}
