/* Instruction shapes (operand counts per the PTX ISA's syntax of each
 * instruction, "Instruction Set" chapter).  A "d|p" destination pair is
 * one operand; an optional trailing operand (cache-policy, a third source
 * of min/max or set/setp's predicate c) widens the range. */
#include "insn_shape.h"

#include <stdio.h>

typedef struct shape {
    uint8_t op;
    int8_t nmin, nmax;
    int8_t addr;            /* the operand that must be an address, or -1 */
} shape;

static const shape shapes[] = {
    /* d, a */
    {PTX_OP_ABS, 2, 2, -1}, {PTX_OP_BFIND, 2, 2, -1}, {PTX_OP_BREV, 2, 2, -1},
    {PTX_OP_CLZ, 2, 2, -1}, {PTX_OP_CNOT, 2, 2, -1}, {PTX_OP_COS, 2, 2, -1},
    {PTX_OP_EX2, 2, 2, -1}, {PTX_OP_LG2, 2, 2, -1}, {PTX_OP_NEG, 2, 2, -1},
    {PTX_OP_NOT, 2, 2, -1}, {PTX_OP_POPC, 2, 2, -1}, {PTX_OP_RCP, 2, 2, -1},
    {PTX_OP_RSQRT, 2, 2, -1}, {PTX_OP_SIN, 2, 2, -1}, {PTX_OP_SQRT, 2, 2, -1},
    {PTX_OP_TANH, 2, 2, -1}, {PTX_OP_TESTP, 2, 2, -1},
    /* cvt d, a; the packing forms take a second source, cvt.rs a third */
    {PTX_OP_CVT, 2, 4, -1},
    /* d, a, b */
    {PTX_OP_ADD, 3, 3, -1}, {PTX_OP_ADDC, 3, 3, -1}, {PTX_OP_AND, 3, 3, -1},
    {PTX_OP_BMSK, 3, 3, -1}, {PTX_OP_COPYSIGN, 3, 3, -1}, {PTX_OP_DIV, 3, 3, -1},
    {PTX_OP_MUL, 3, 3, -1}, {PTX_OP_MUL24, 3, 3, -1}, {PTX_OP_OR, 3, 3, -1},
    {PTX_OP_REM, 3, 3, -1}, {PTX_OP_SHL, 3, 3, -1}, {PTX_OP_SHR, 3, 3, -1},
    {PTX_OP_SUB, 3, 3, -1}, {PTX_OP_SUBC, 3, 3, -1}, {PTX_OP_XOR, 3, 3, -1},
    {PTX_OP_MAX, 3, 4, -1}, {PTX_OP_MIN, 3, 4, -1},
    {PTX_OP_SET, 3, 4, -1}, {PTX_OP_SETP, 3, 4, -1},
    /* d, a, b, c */
    {PTX_OP_BFE, 4, 4, -1}, {PTX_OP_DP4A, 4, 4, -1}, {PTX_OP_FMA, 4, 4, -1},
    {PTX_OP_FNS, 4, 4, -1}, {PTX_OP_MAD, 4, 4, -1}, {PTX_OP_MAD24, 4, 4, -1},
    {PTX_OP_MADC, 4, 4, -1}, {PTX_OP_PRMT, 4, 4, -1}, {PTX_OP_SAD, 4, 4, -1},
    {PTX_OP_SELP, 4, 4, -1}, {PTX_OP_SHF, 4, 4, -1}, {PTX_OP_SLCT, 4, 4, -1},
    /* d, a, b, c, e */
    {PTX_OP_BFI, 5, 5, -1}, {PTX_OP_LOP3, 5, 5, -1},
    /* memory: ld d, [a]; st [a], b; atom d, [a], b{, c}; red [a], b */
    {PTX_OP_LD, 2, 3, 1}, {PTX_OP_LDU, 2, 3, 1}, {PTX_OP_ST, 2, 3, 0},
    {PTX_OP_ATOM, 3, 5, 1}, {PTX_OP_RED, 2, 3, 0}, {PTX_OP_CVTA, 2, 2, -1},
};

bool ws_insn_shape_ok(const ptx_insn *in, const char *mnemonic, char *why, size_t why_size)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const shape *s = &shapes[i];
        if (s->op != in->m.op)
            continue;
        if (in->nops < s->nmin || in->nops > s->nmax) {
            if (s->nmin == s->nmax)
                snprintf(why, why_size, "%s takes %d operands, not %d", mnemonic, s->nmin, in->nops);
            else
                snprintf(why, why_size, "%s takes %d to %d operands, not %d", mnemonic, s->nmin, s->nmax,
                         in->nops);
            return false;
        }
        if (s->addr >= 0 && in->ops[s->addr].kind != PTX_OPND_ADDR) {
            snprintf(why, why_size, "operand %d of %s must be an address in [ ]", s->addr + 1, mnemonic);
            return false;
        }
        return true;
    }
    return true;
}

/* 'i' for the integer types, 'f' for the floating-point ones, 0 for the
 * untyped bit sizes (.bN), which go with either, and .pred. */
static char type_kind(ptx_type t)
{
    if (t >= PTX_T_U8 && t <= PTX_T_S64) return 'i';
    if (t >= PTX_T_F16 && t <= PTX_T_F64) return 'f';
    return 0;
}

bool ws_operand_type_ok(const ptx_function *f, const ptx_operand *o, ptx_type want, int index,
                        const char *mnemonic, char *why, size_t why_size)
{
    if (o->kind != PTX_OPND_REG || o->reg < 0 || o->reg >= f->nregs)
        return true;
    const ptx_reg *r = &f->regs[o->reg];
    char have = type_kind((ptx_type)r->type), need = type_kind(want);
    if (!have || !need || have == need)
        return true;
    snprintf(why, why_size, "operand %d of %s is %s register '%s', but the instruction wants %s",
             index + 1, mnemonic, ptx_type_name((ptx_type)r->type), r->name, ptx_type_name(want));
    return false;
}
