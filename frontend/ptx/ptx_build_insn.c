/* IR building, part 2: instructions and their operands. */
#include <stdlib.h>
#include <string.h>
#include "ptx_pstate.h"

bool ptx_b_insn_begin(ptx_pstate *ps, const char *mnem, int32_t line, int32_t col)
{
    ps->mnem = mnem;
    ps->insn_line = line;
    ps->insn_col = col;
    ps->nops = 0;
    ps->list_depth = 0;
    memset(ps->ops_paren, 0, sizeof ps->ops_paren);
    char msg[400];
    if (!ptx_mnemonic_decode(mnem, &ps->mods, msg, sizeof msg))
        return ptx_ps_error(ps, line, col, "%s", msg);
    return true;
}

bool ptx_b_guard(ptx_pstate *ps, const char *reg, bool neg, int32_t line, int32_t col)
{
    const ptx_binding *b = ptx_names_get(&ps->names, reg);
    if (!b || b->kind != PTX_BIND_REG)
        return ptx_ps_error(ps, line, col, "undeclared register '%s'", reg);
    if (ps->f.regs[b->reg].type != PTX_T_PRED)
        return ptx_ps_error(ps, line, col, "guard '%s' is not a .pred register", reg);
    ps->guard = b->reg;
    ps->guard_neg = neg;
    return true;
}

static ptx_operand opnd(ptx_operand_kind k)
{
    return (ptx_operand){.kind = (uint8_t)k, .reg = -1, .reg2 = -1};
}

static bool sreg_operand(ptx_pstate *ps, const char *name, int32_t line, int32_t col, ptx_operand *op)
{
    uint8_t sreg, comp;
    bool known;
    if (ptx_lit_sreg(name, &sreg, &comp, &known)) {
        *op = opnd(PTX_OPND_SREG);
        op->v.s.sreg = sreg;
        op->v.s.component = comp;
        return true;
    }
    if (known || strchr(name, '.'))
        return ptx_ps_error(ps, line, col, "unsupported special register '%s'", name);
    return ptx_ps_error(ps, line, col, "undeclared register '%s'", name);
}

bool ptx_b_op_reg(ptx_pstate *ps, const char *name, int32_t line, int32_t col, ptx_operand *op)
{
    const ptx_binding *b = ptx_names_get(&ps->names, name);
    if (b && b->kind == PTX_BIND_REG) {
        *op = opnd(PTX_OPND_REG);
        op->reg = b->reg;
        return true;
    }
    if (b && b->kind == PTX_BIND_SYM) {
        *op = opnd(PTX_OPND_SYMBOL);
        op->name = b->sym;
        return true;
    }
    return sreg_operand(ps, name, line, col, op);
}

/* "d|p": the two destinations of setp, shfl.sync and match.all.sync.  In
 * inline asm both may be names declared without '%' ("r0|p"). */
bool ptx_b_op_pair(ptx_pstate *ps, const char *first, int32_t line1, int32_t col1,
                   const char *second, int32_t line2, int32_t col2, ptx_operand *op)
{
    const ptx_binding *a = ptx_names_get(&ps->names, first);
    const ptx_binding *b = ptx_names_get(&ps->names, second);
    if (!a || a->kind != PTX_BIND_REG)
        return ptx_ps_error(ps, line1, col1, "undeclared register '%s' before '|'", first);
    if (!b || b->kind != PTX_BIND_REG)
        return ptx_ps_error(ps, line2, col2, "undeclared register '%s' after '|'", second);
    if (ps->f.regs[b->reg].type != PTX_T_PRED)
        return ptx_ps_error(ps, line2, col2, "'%s' after '|' is not a .pred register", second);
    *op = opnd(PTX_OPND_REG);
    op->reg = a->reg;
    op->reg2 = b->reg;
    return true;
}

bool ptx_b_op_sreg(ptx_pstate *ps, const char *text, int32_t line, int32_t col, ptx_operand *op)
{
    return sreg_operand(ps, text, line, col, op);
}

/* A bare identifier: a register declared without '%' (inline asm), a
 * scoped variable, the constant WARP_SZ, or else a label or module symbol
 * resolved when the function ends (reg == -2 marks it until ptx_b_push_op
 * records it). */
bool ptx_b_op_ident(ptx_pstate *ps, const char *name, int32_t line, int32_t col, ptx_operand *op)
{
    (void)line; (void)col;
    const ptx_binding *b = ptx_names_get(&ps->names, name);
    if (b && b->kind == PTX_BIND_REG) {
        *op = opnd(PTX_OPND_REG);
        op->reg = b->reg;
        return true;
    }
    if (!b && !strcmp(name, "WARP_SZ")) {    /* PTX ISA: the predefined constant 32 */
        *op = opnd(PTX_OPND_IMM_INT);
        op->v.i = 32;
        return true;
    }
    *op = opnd(PTX_OPND_SYMBOL);
    op->name = b ? b->sym : name;
    if (!b)
        op->reg = -2;
    return true;
}

bool ptx_b_op_addr(ptx_pstate *ps, const ptx_operand *base, int64_t off, int32_t line, int32_t col, ptx_operand *op)
{
    *op = opnd(PTX_OPND_ADDR);
    op->offset = off;
    switch (base->kind) {
    case PTX_OPND_REG:
        op->addr_base = PTX_ADDR_REG;
        op->reg = base->reg;
        return true;
    case PTX_OPND_SYMBOL:
        op->addr_base = PTX_ADDR_SYMBOL;
        op->name = base->name;
        op->reg = base->reg;            /* -2 while pending */
        return true;
    case PTX_OPND_IMM_INT:
        op->addr_base = PTX_ADDR_NONE;
        op->offset = (int64_t)((uint64_t)base->v.i + (uint64_t)off);
        return true;
    default:
        return ptx_ps_error(ps, line, col, "invalid address expression");
    }
}

void ptx_b_list_begin(ptx_pstate *ps, bool paren)
{
    if (ps->list_depth++ == 0) {
        ps->nelems = 0;
        ps->elems_paren = paren;
    }
}

bool ptx_b_list_end(ptx_pstate *ps, ptx_operand *op)
{
    if (--ps->list_depth > 0)
        return ptx_ps_error(ps, ps->insn_line, ps->insn_col, "nested operand lists are not supported");
    *op = opnd(PTX_OPND_VEC);
    op->nelems = ps->nelems;
    if (ps->nelems) {
        op->elems = ptx_arena_alloc(ps->arena, (size_t)ps->nelems * sizeof *op->elems);
        if (!op->elems)
            return ptx_ps_error(ps, ps->insn_line, ps->insn_col, "out of memory");
        memcpy(op->elems, ps->elems, (size_t)ps->nelems * sizeof *op->elems);
    }
    if (ps->nops <= PTX_MAX_OPERANDS)
        ps->ops_paren[ps->nops] = ps->elems_paren;
    return true;
}

static bool add_pending(ptx_pstate *ps, const ptx_operand *op, int32_t elem, int32_t line, int32_t col)
{
    if (ps->npend == ps->cap_pend) {
        int32_t nc = ps->cap_pend ? ps->cap_pend * 2 : 64;
        void *p = realloc(ps->pend, (size_t)nc * sizeof *ps->pend);
        if (!p)
            return ptx_ps_error(ps, line, col, "out of memory");
        ps->pend = p;
        ps->cap_pend = nc;
    }
    ps->pend[ps->npend++] = (ptx_pending){
        .insn = ps->f.ninsns, .op = ps->nops, .elem = elem,
        .addr = op->kind == PTX_OPND_ADDR, .name = op->name, .line = line, .col = col};
    return true;
}

bool ptx_b_push_op(ptx_pstate *ps, const ptx_operand *op_in, int32_t line, int32_t col)
{
    ptx_operand op = *op_in;
    if (ps->list_depth > 0) {
        if (op.kind == PTX_OPND_ADDR || op.kind == PTX_OPND_VEC)
            return ptx_ps_error(ps, line, col, "an operand list may hold only registers, names and constants");
        if (ps->nelems == ps->cap_elems) {
            int32_t nc = ps->cap_elems ? ps->cap_elems * 2 : 16;
            void *p = realloc(ps->elems, (size_t)nc * sizeof *ps->elems);
            if (!p)
                return ptx_ps_error(ps, line, col, "out of memory");
            ps->elems = p;
            ps->cap_elems = nc;
        }
        if (op.reg == -2) {
            if (!add_pending(ps, &op, ps->nelems, line, col))
                return false;
            op.reg = -1;
        }
        ps->elems[ps->nelems++] = op;
        return true;
    }
    if (ps->nops >= PTX_MAX_OPERANDS)
        return ptx_ps_error(ps, line, col, "too many operands for '%s'", ps->mnem);
    if (op.reg == -2) {
        if (!add_pending(ps, &op, -1, line, col))
            return false;
        op.reg = -1;
    }
    if (op.kind != PTX_OPND_VEC)
        ps->ops_paren[ps->nops] = false;
    ps->ops[ps->nops++] = op;
    return true;
}

/* call [(rets),] callee [, (args)] [, proto] -> ops[0..3] as ptx_ir.h says. */
static bool call_operands(ptx_pstate *ps, ptx_insn *in)
{
    int32_t map[PTX_MAX_OPERANDS + 1];
    int32_t n = ps->nops, i = 0;
    ptx_operand empty = opnd(PTX_OPND_VEC);
    in->ops[0] = in->ops[2] = empty;
    if (i < n && ps->ops_paren[i]) { in->ops[0] = ps->ops[i]; map[i++] = 0; }
    if (i >= n || ps->ops_paren[i] ||
        (ps->ops[i].kind != PTX_OPND_SYMBOL && ps->ops[i].kind != PTX_OPND_REG))
        return ptx_ps_error(ps, ps->insn_line, ps->insn_col, "call without a function to call");
    in->ops[1] = ps->ops[i]; map[i++] = 1;
    if (i < n && ps->ops_paren[i]) { in->ops[2] = ps->ops[i]; map[i++] = 2; }
    in->nops = 3;
    if (i < n && !ps->ops_paren[i] && ps->ops[i].kind == PTX_OPND_SYMBOL) {
        in->ops[3] = ps->ops[i]; map[i++] = 3;
        in->nops = 4;
    }
    if (i < n)
        return ptx_ps_error(ps, ps->insn_line, ps->insn_col, "unexpected operand %d in call", (int)i + 1);
    for (int32_t k = ps->npend - 1; k >= 0 && ps->pend[k].insn == ps->f.ninsns; k--)
        ps->pend[k].op = map[ps->pend[k].op];
    return true;
}

bool ptx_b_insn_end(ptx_pstate *ps)
{
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.m = ps->mods;
    in.guard = ps->guard;
    in.guard_neg = ps->guard_neg;
    ps->guard = -1;
    ps->guard_neg = false;
    for (int32_t k = ps->nops; k < PTX_MAX_OPERANDS; k++)
        in.ops[k] = opnd(PTX_OPND_NONE);
    if (in.m.op == PTX_OP_CALL) {
        if (!call_operands(ps, &in))
            return false;
    } else {
        for (int32_t k = 0; k < ps->nops; k++)
            if (ps->ops_paren[k])
                return ptx_ps_error(ps, ps->insn_line, ps->insn_col,
                                    "a ( ) operand list is only valid in call");
        memcpy(in.ops, ps->ops, (size_t)ps->nops * sizeof in.ops[0]);
        in.nops = (uint8_t)ps->nops;
    }
    in.loc = (ptx_srcloc){.line = ps->insn_line, .col = ps->insn_col,
                          .cu_file = ps->cu_file, .cu_line = ps->cu_line};
    ptx_function *f = &ps->f;
    if (!ptx_ps_grow(ps, (void **)&f->insns, &ps->cap_insns, f->ninsns + 1, sizeof *f->insns))
        return false;
    f->insns[f->ninsns++] = in;
    return true;
}
