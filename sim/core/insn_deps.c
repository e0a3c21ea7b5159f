/* Registers read and written, and the pipe class, of a decoded instruction. */
#include "insn_deps.h"

static bool writes_first(const ws_insn *in)
{
    switch (in->cls) {
    case WS_I_ALU: case WS_I_MOV: case WS_I_PACK: case WS_I_UNPACK: case WS_I_CVTA:
    case WS_I_LD: case WS_I_SHFL: case WS_I_VOTE: case WS_I_ACTIVEMASK: case WS_I_TEX: case WS_I_TXQ:
    case WS_I_REDUX: case WS_I_MATCH:
        return true;
    case WS_I_MBARRIER:     /* arrive's state, test_wait's predicate, pending_count's count */
        return in->m.op == PTX_OP_MBARRIER && in->m.subop != PTX_SUB_MBAR_INIT &&
               in->m.subop != PTX_SUB_MBAR_INVAL;
    case WS_I_ATOM: return in->m.op != PTX_OP_RED;
    case WS_I_BAR: return in->m.subop == PTX_SUB_BAR_RED;
    case WS_I_WMMA: return in->m.subop != PTX_SUB_WMMA_STORE_D;
    default: return false;
    }
}

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
    d->pipe = (uint8_t)ws_insn_pipe(in);
    d->ndst = d->nsrc = 0;
    add(d->src, &d->nsrc, in->guard);
    bool w = writes_first(in);
    for (int i = 0; i < in->nops; i++) {
        const ws_opnd *o = &in->ops[i];
        if (i == 0 && w && o->kind != WS_OK_ADDR) add_opnd(p, o, d->dst, &d->ndst);
        else add_opnd(p, o, d->src, &d->nsrc);
    }
}

static bool is_float(ptx_type t)
{
    return t == PTX_T_F32 || t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
           t == PTX_T_BF16X2 || t == PTX_T_TF32;
}

ptx_pipe ws_insn_pipe(const ws_insn *in)
{
    ptx_pipe pipe = ptx_opcode_pipe(in->m.op);
    ptx_type t = in->m.ntypes ? in->m.types[0] : PTX_T_NONE;
    bool f64 = t == PTX_T_F64 || (in->m.ntypes > 1 && in->m.types[1] == PTX_T_F64);
    switch (pipe) {
    case PTX_PIPE_INT: case PTX_PIPE_FP32:
        if (f64) return PTX_PIPE_FP64;
        if (is_float(t)) return PTX_PIPE_FP32;
        return t == PTX_T_NONE ? pipe : PTX_PIPE_INT;
    case PTX_PIPE_SFU: return f64 ? PTX_PIPE_FP64 : PTX_PIPE_SFU;
    case PTX_PIPE_TENSOR: return in->m.subop == PTX_SUB_WMMA_MMA ? PTX_PIPE_TENSOR : PTX_PIPE_LSU;
    default: return pipe;
    }
}
