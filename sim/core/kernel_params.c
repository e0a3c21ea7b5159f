/* The packed layout of a kernel's .param list: each parameter at the next
 * multiple of its alignment (its .align when written, else the natural
 * alignment of its element type), sized count * vec * sizeof(type). */
#include "sim.h"

static uint32_t param_elem_size(const ptx_var *v)
{
    uint32_t vec = v->vec > 1 ? v->vec : 1;
    return ptx_type_size(v->type) * vec;
}

static uint32_t param_align(const ptx_var *v)
{
    uint32_t a = v->align ? v->align : param_elem_size(v);
    return a ? a : 1;
}

static uint32_t param_bytes(const ptx_var *v)
{
    uint64_t count = v->count ? v->count : 1;
    return (uint32_t)(count * param_elem_size(v));
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
        off = align_up32(off, param_align(&f->params[j])) + param_bytes(&f->params[j]);
    return align_up32(off, param_align(&f->params[i]));
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
