/* Registers read and written, and the pipe class, of a decoded instruction. */
#include "insn_deps.h"

static void add(int32_t *list, uint8_t *n, int32_t reg)
{
    if (reg < 0 || *n >= WS_DEPS_MAX) return;
    for (uint8_t i = 0; i < *n; i++)
        if (list[i] == reg) return;
    list[(*n)++] = reg;
}

/* Row's units (narrow: one; wide: two) into d's list, where there is room. */
static void add_units(ws_insn_deps *d, int32_t row, bool narrow)
{
    for (int32_t u = row; row >= 0 && u <= row + !narrow; u++) {
        if (d->nunits >= WS_DEPS_UNITS) return;
        bool seen = false;
        for (uint8_t i = 0; i < d->nunits; i++) seen |= d->units[i] == u;
        if (!seen) d->units[d->nunits++] = u;
    }
}

/* Register reg into list (n of them), and the units of its row into d's. */
static void add_reg(ws_insn_deps *d, int32_t *list, uint8_t *n, int32_t reg, int32_t row, bool narrow)
{
    add(list, n, reg);
    add_units(d, row, narrow);
}

static void add_opnd(const ws_program *p, const ws_opnd *o, ws_insn_deps *d, int32_t *list, uint8_t *n)
{
    switch (o->kind) {
    case WS_OK_REG:
        add_reg(d, list, n, o->reg, o->row, o->narrow);
        add_reg(d, list, n, o->reg2, o->row2, o->narrow2);
        break;
    case WS_OK_ADDR: add_reg(d, list, n, o->reg, o->row, o->narrow); break;
    case WS_OK_VEC:
        for (int k = 0; k < o->nelems; k++) add_opnd(p, &p->vec[o->elem0 + k], d, list, n);
        break;
    default: break;
    }
}

void ws_insn_deps_of(const ws_program *p, const ws_insn *in, ws_insn_deps *d)
{
    d->pipe = in->pipe;
    d->ndst = d->nsrc = d->nunits = 0;
    add_reg(d, d->src, &d->nsrc, in->guard, in->guard_row, true);
    bool w = in->flags & WS_IF_DST;
    for (int i = 0; i < in->nops; i++) {
        const ws_opnd *o = &in->ops[i];
        if (i == 0 && w && o->kind != WS_OK_ADDR) add_opnd(p, o, d, d->dst, &d->ndst);
        else add_opnd(p, o, d, d->src, &d->nsrc);
    }
}
