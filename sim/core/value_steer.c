/* Values read from memory followed through a kernel's code (value_steer.h).
 *
 * A register is marked when some instruction may write it from a value
 * read from memory: a load's destination (but a kernel parameter's, which
 * is the launch's key), and any destination of an instruction that reads a
 * marked register, including through the carry flag.  The marks only grow,
 * so a few passes over the code reach the fixed point whatever the order
 * of its blocks and loops.  Then a marked register may appear only where
 * its value is data: an operand of arithmetic, a conversion or a move, the
 * value a store writes, or the value a shuffle, vote, match or reduction
 * exchanges.  Anywhere else (a guard, which decides a branch or the lanes
 * of any instruction, an address, a barrier's operands, a warp-synchronous
 * instruction's member mask) it steers what the timing model sees.
 *
 * Besides, the values must not depend on the order in which threads ran,
 * which the timing decides, nor on the SM or slot a warp ran in: no
 * atomics, no clock, timer, SM or warp number read, no device printf (its
 * lines come in the order the threads ran), no calls (the analysis stays
 * within one function), no matrix or asynchronous-copy instructions and no
 * textures.  The threads' exchanges through global memory are checked on
 * the recorded launch (launch_reuse.h), and through shared memory on the
 * functional run that takes its timing (racecheck: run.c). */
#include "value_steer.h"

#include <stdlib.h>

/* Special registers whose value depends on the timing or the placement
 * of the warp, or on the GPU (a functional run knows none). */
static bool placement_sreg(uint8_t sreg)
{
    switch (sreg) {
    case PTX_SREG_TID: case PTX_SREG_NTID: case PTX_SREG_CTAID: case PTX_SREG_NCTAID:
    case PTX_SREG_LANEID: case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE:
    case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_GE: case PTX_SREG_LANEMASK_GT:
    case PTX_SREG_DYNAMIC_SMEM_SIZE:
        return false;
    default:
        return true;
    }
}

typedef struct steer {
    const ws_program *p;
    bool *marked;           /* per program register */
    bool carry;             /* the carry flag may hold a value from memory */
} steer;

static bool reg_marked(const steer *s, int32_t reg)
{
    return reg >= 0 && s->marked[reg];
}

/* Whether a register operand o names (reg, reg2, vector elements, an
 * address's base) is marked. */
static bool opnd_marked(const steer *s, const ws_opnd *o)
{
    switch (o->kind) {
    case WS_OK_REG: return reg_marked(s, o->reg) || reg_marked(s, o->reg2);
    case WS_OK_ADDR: return reg_marked(s, o->reg);
    case WS_OK_VEC:
        for (int k = 0; k < o->nelems; k++)
            if (opnd_marked(s, &s->p->vec[o->elem0 + k])) return true;
        return false;
    default: return false;
    }
}

/* Marks the registers operand o writes; whether any was new. */
static bool mark_opnd(steer *s, const ws_opnd *o)
{
    bool changed = false;
    if (o->kind == WS_OK_REG) {
        int32_t regs[2] = {o->reg, o->reg2};
        for (int k = 0; k < 2; k++)
            if (regs[k] >= 0 && !s->marked[regs[k]]) s->marked[regs[k]] = changed = true;
    } else if (o->kind == WS_OK_VEC) {
        for (int k = 0; k < o->nelems; k++) changed |= mark_opnd(s, &s->p->vec[o->elem0 + k]);
    }
    return changed;
}

static bool writes_first(const ws_insn *in)
{
    return (in->flags & WS_IF_DST) && in->nops > 0 && in->ops[0].kind != WS_OK_ADDR;
}

/* One pass of the marks over the code; whether any changed. */
static bool spread(steer *s, int32_t start, int32_t end)
{
    bool changed = false;
    for (int32_t pc = start; pc < end; pc++) {
        const ws_insn *in = &s->p->code[pc];
        bool dst = writes_first(in);
        bool from = reg_marked(s, in->guard);
        for (int i = dst ? 1 : 0; i < in->nops; i++) from |= opnd_marked(s, &in->ops[i]);
        if (in->flags & WS_IF_CARRY) {
            from |= s->carry;
            if (from && !s->carry) s->carry = changed = true;
        }
        /* a load's value comes from memory; a kernel parameter's is the key's */
        bool loaded = (in->cls == WS_I_LD && in->space != WS_SP_PARAM) || in->cls == WS_I_TEX ||
                      in->cls == WS_I_ATOM;
        if (dst && (from || loaded)) changed |= mark_opnd(s, &in->ops[0]);
    }
    return changed;
}

/* Why the instruction steers the timing with a marked value or makes the
 * values depend on the order or place threads ran in; NULL when neither. */
static const char *steers(const steer *s, const ws_insn *in)
{
    switch (in->cls) {
    case WS_I_ATOM: return "an atomic (its values depend on the order the threads ran in)";
    case WS_I_PRINTF: return "device printf (its lines come in the order the threads ran in)";
    case WS_I_CALL: return "a call of a function";
    case WS_I_ASSERT: return "an assert";
    case WS_I_TEX: case WS_I_TXQ: return "a texture";
    case WS_I_WMMA: return "a matrix instruction";
    case WS_I_CP_ASYNC: case WS_I_MBARRIER: return "an asynchronous copy";
    default: break;
    }
    for (int i = 0; i < in->nops; i++) {
        const ws_opnd *o = &in->ops[i];
        const ws_opnd *el = o->kind == WS_OK_VEC ? &s->p->vec[o->elem0] : o;
        int n = o->kind == WS_OK_VEC ? o->nelems : 1;
        for (int k = 0; k < n; k++)
            if (el[k].kind == WS_OK_SREG && placement_sreg(el[k].sreg))
                return "a special register that depends on the timing or the warp's place (clock, timer, SM or warp "
                       "number)";
    }
    if (reg_marked(s, in->guard)) return "a branch or guard on a value read from memory";
    for (int i = 0; i < in->nops; i++)
        if (in->ops[i].kind == WS_OK_ADDR && reg_marked(s, in->ops[i].reg))
            return "an address computed from a value read from memory";
    bool dst = writes_first(in);
    switch (in->cls) {
    case WS_I_BAR: case WS_I_WARPSYNC: case WS_I_NOP: case WS_I_BRA: case WS_I_EXIT: case WS_I_RET:
    case WS_I_TRAP:
        for (int i = dst ? 1 : 0; i < in->nops; i++)
            if (opnd_marked(s, &in->ops[i])) return "a barrier, branch or wait on a value read from memory";
        return NULL;
    case WS_I_SHFL: case WS_I_VOTE: case WS_I_MATCH: case WS_I_REDUX:
        /* the last operand of the .sync forms: the member mask */
        if (in->nops > 2 && opnd_marked(s, &in->ops[in->nops - 1]))
            return "a warp-synchronous instruction's member mask from a value read from memory";
        return NULL;
    default:
        return NULL;
    }
}

const char *ws_kernel_steered_by_values(const ws_program *p, const ws_kernel *k, int32_t *pc)
{
    *pc = -1;
    const ws_func *f = &p->funcs[k->func];
    /* marks for the kernel's register window only, whatever else the module holds */
    int32_t n = k->reg_hi - k->reg_lo;
    bool *marks = calloc(n > 0 ? (size_t)n : 1, sizeof *marks);
    if (!marks) return "out of memory for the analysis";
    steer s = {.p = p, .marked = ws_index_window(marks, sizeof *marks, k->reg_lo)};
    while (spread(&s, f->start, f->end)) {}
    const char *why = NULL;
    for (int32_t i = f->start; i < f->end && !why; i++)
        if ((why = steers(&s, &p->code[i]))) *pc = i;
    free(marks);
    return why;
}
