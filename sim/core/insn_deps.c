/* Registers read and written, and the pipe class, of a decoded instruction. */
#include "insn_deps.h"

static void add(int32_t *list, uint8_t *n, int32_t reg)
{
    if (reg < 0 || *n >= WS_DEPS_MAX) return;
    for (uint8_t i = 0; i < *n; i++)
        if (list[i] == reg) return;
    list[(*n)++] = reg;
}

static void add_opnd(const ws_program *p, const ws_opnd *o, int32_t *list, uint8_t *n)
{
    switch (o->kind) {
    case WS_OK_REG: add(list, n, o->reg); add(list, n, o->reg2); break;
    case WS_OK_ADDR: add(list, n, o->reg); break;
    case WS_OK_VEC:
        for (int k = 0; k < o->nelems; k++) add_opnd(p, &p->vec[o->elem0 + k], list, n);
        break;
    default: break;
    }
}

void ws_insn_deps_of(const ws_program *p, const ws_insn *in, ws_insn_deps *d)
{
    d->pipe = in->pipe;
    d->ndst = d->nsrc = 0;
    add(d->src, &d->nsrc, in->guard);
    bool w = in->flags & WS_IF_DST;
    for (int i = 0; i < in->nops; i++) {
        const ws_opnd *o = &in->ops[i];
        if (i == 0 && w && o->kind != WS_OK_ADDR) add_opnd(p, o, d->dst, &d->ndst);
        else add_opnd(p, o, d->src, &d->nsrc);
    }
}
