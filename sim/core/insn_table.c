/* The simulator's columns of the opcode table, the class table, and the
 * facts of a decoded instruction resolved from them (insn_table.h). */
#include "insn_table.h"

static const ws_opcode_info opcode_rows[PTX_OP_COUNT] = {
#define X(name, mnemonic, cls, alu, pipe, flags) \
    [PTX_OP_##name] = {WS_I_##cls, WS_FAM_##alu, WS_PIPE_##pipe, WS_OPF_##flags},
#include "../../isa/ptx_opcodes.def"
#undef X
};

const ws_opcode_info *ws_opcode_info_of(ptx_opcode op)
{
    static const ws_opcode_info unknown = {WS_I_TRAP, WS_FAM_NONE, WS_PIPE_BRANCH, WS_OPF_REFUSED};
    return (unsigned)op < PTX_OP_COUNT ? &opcode_rows[op] : &unknown;
}

#define DST WS_CF_DST
#define SOME_DST WS_CF_SOME_DST
#define FIXED WS_CF_FIXED
#define LOAD WS_CF_LOAD
#define WSYNC WS_CF_WSYNC
#define END WS_CF_END
static const uint8_t class_flags[WS_I_COUNT] = {
#define C(name, flags) [WS_I_##name] = (flags),
    WS_ICLASSES(C)
#undef C
};
#undef DST
#undef SOME_DST
#undef FIXED
#undef LOAD
#undef WSYNC
#undef END

static const char *const class_names[WS_I_COUNT] = {
#define C(name, flags) [WS_I_##name] = #name,
    WS_ICLASSES(C)
#undef C
};

uint8_t ws_iclass_flags(ws_iclass c)
{
    return (unsigned)c < WS_I_COUNT ? class_flags[c] : 0;
}

const char *ws_iclass_name(ws_iclass c)
{
    return (unsigned)c < WS_I_COUNT ? class_names[c] : "?";
}

static bool is_float(ptx_type t)
{
    return t == PTX_T_F32 || t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
           t == PTX_T_BF16X2 || t == PTX_T_TF32;
}

/* The opcode's default pipe refined by type: f64 -> FP64, f32/f16 -> FP32,
 * integer types -> INT; wmma -> tensor for mma, LSU for its loads and
 * stores; SFU stays SFU except in f64. */
static ws_pipe pipe_of(const ws_insn *in, const ws_opcode_info *row)
{
    ws_pipe pipe = (ws_pipe)row->pipe;
    ptx_type t = in->m.ntypes ? in->m.types[0] : PTX_T_NONE;
    bool f64 = t == PTX_T_F64 || (in->m.ntypes > 1 && in->m.types[1] == PTX_T_F64);
    switch (pipe) {
    case WS_PIPE_INT: case WS_PIPE_FP32:
        if (f64) return WS_PIPE_FP64;
        if (is_float(t)) return WS_PIPE_FP32;
        return t == PTX_T_NONE ? pipe : WS_PIPE_INT;
    case WS_PIPE_SFU: return f64 ? WS_PIPE_FP64 : WS_PIPE_SFU;
    case WS_PIPE_TENSOR: return in->m.subop == PTX_SUB_WMMA_MMA ? WS_PIPE_TENSOR : WS_PIPE_LSU;
    default: return pipe;
    }
}

/* Which forms of the SOME_DST classes write their first operand. */
static bool writes_result(const ws_insn *in, const ws_opcode_info *row, uint8_t cf)
{
    if (cf & WS_CF_DST) return true;
    if (!(cf & WS_CF_SOME_DST)) return false;
    switch (in->cls) {
    case WS_I_MBARRIER:     /* arrive's state, test_wait's predicate, pending_count's count */
        return in->m.op == PTX_OP_MBARRIER && in->m.subop != PTX_SUB_MBAR_INIT &&
               in->m.subop != PTX_SUB_MBAR_INVAL;
    case WS_I_ATOM: return !(row->flags & WS_OPF_NORESULT);
    case WS_I_BAR: return in->m.subop == PTX_SUB_BAR_RED;
    case WS_I_WMMA: return in->m.subop != PTX_SUB_WMMA_STORE_D;
    default: return false;
    }
}

static bool reads_clock(const ws_insn *in)
{
    for (int i = 0; i < in->nops; i++)
        if (in->ops[i].kind == WS_OK_SREG &&
            (in->ops[i].sreg == PTX_SREG_CLOCK || in->ops[i].sreg == PTX_SREG_CLOCK_HI ||
             in->ops[i].sreg == PTX_SREG_CLOCK64 || in->ops[i].sreg == PTX_SREG_GLOBALTIMER))
            return true;
    return false;
}

void ws_insn_classify(ws_insn *in)
{
    const ws_opcode_info *row = ws_opcode_info_of(in->m.op);
    uint8_t cf = ws_iclass_flags((ws_iclass)in->cls);
    bool alu = in->cls == WS_I_ALU;
    bool carry = alu && ((in->m.flags & PTX_F_CC) || (row->flags & WS_OPF_CARRY));
    uint8_t f = 0;
    if (writes_result(in, row, cf)) f |= WS_IF_DST;
    /* carry arithmetic keeps its order (the flag is state no register
     * names), and what a kernel times stays between its clock reads */
    if ((cf & WS_CF_FIXED) || carry || reads_clock(in)) f |= WS_IF_FIXED;
    if (cf & WS_CF_LOAD) f |= WS_IF_LOAD;
    if (cf & WS_CF_WSYNC) f |= WS_IF_WARP_SYNC;
    if (cf & WS_CF_END) f |= WS_IF_ENDS_BLOCK;
    if (carry) f |= WS_IF_CARRY;
    in->flags = f;
    in->pipe = (uint8_t)pipe_of(in, row);
    in->alu = (uint8_t)(alu ? ws_alu_family_of(&in->m) : WS_FAM_NONE);
}
