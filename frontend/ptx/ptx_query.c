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
