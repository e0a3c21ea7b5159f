/* The packed layout of a kernel's .param list: each parameter at the next
 * multiple of its alignment (its .align when written, else the natural
 * alignment of its element type), sized count * vec * sizeof(type). */
#include <stdlib.h>

#include "program.h"
#include "../../frontend/ptx/ptx_query.h"

static uint32_t param_bytes(const ptx_var *v)
{
    ptx_var one = *v;
    if (!one.count) one.count = 1;      /* a parameter is never an unsized array */
    return (uint32_t)ptx_var_size(&one);
}

static uint32_t align_up32(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

uint32_t ws_param_offset(const ptx_function *f, int i)
{
    if (i < 0 || i >= f->nparams)
        return 0;
    uint32_t off = 0;
    for (int j = 0; j < i; j++)
        off = align_up32(off, ptx_var_align(&f->params[j])) + param_bytes(&f->params[j]);
    return align_up32(off, ptx_var_align(&f->params[i]));
}

uint32_t ws_param_size(const ptx_function *f, int i)
{
    if (i < 0 || i >= f->nparams)
        return 0;
    return param_bytes(&f->params[i]);
}

uint32_t ws_params_total_size(const ptx_function *f)
{
    if (f->nparams == 0)
        return 0;
    int last = f->nparams - 1;
    return ws_param_offset(f, last) + ws_param_size(f, last);
}

bool ws_kernel_layout_params(ws_kernel *k, const ptx_function *f)
{
    size_t n = (size_t)f->nparams;
    k->param_off = calloc(n + 1, sizeof *k->param_off);
    k->param_size = calloc(n + 1, sizeof *k->param_size);
    if (!k->param_off || !k->param_size) return false;
    uint32_t off = 0;
    for (int32_t i = 0; i < f->nparams; i++) {
        k->param_off[i] = align_up32(off, ptx_var_align(&f->params[i]));
        k->param_size[i] = param_bytes(&f->params[i]);
        off = k->param_off[i] + k->param_size[i];
    }
    k->nparams = f->nparams;
    k->params_size = off;
    return true;
}
