/* redux.sync: an integer reduction over the lanes that execute it, the
 * result given to every one of them (PTX ISA, "redux.sync"; sm_80). */
#include <stdio.h>

#include "warp_ops.h"

#include "alu.h"

bool ws_redux_supports(const ptx_mods *m, char *why, size_t why_size)
{
    ptx_type t = m->ntypes == 1 ? m->types[0] : PTX_T_NONE;
    const char *msg = NULL;
    if (t == PTX_T_F32)
        msg = "redux.sync on .f32 is an sm_100a instruction, not supported";
    else if (m->flags & ~(uint32_t)PTX_F_SYNC)
        msg = "unexpected modifier";
    else if (!(m->flags & PTX_F_SYNC))
        msg = "redux needs .sync";
    else switch (m->subop) {
    case PTX_SUB_ATOM_ADD: case PTX_SUB_ATOM_MIN: case PTX_SUB_ATOM_MAX:
        if (t != PTX_T_U32 && t != PTX_T_S32) msg = "add, min and max take .u32 or .s32";
        break;
    case PTX_SUB_ATOM_AND: case PTX_SUB_ATOM_OR: case PTX_SUB_ATOM_XOR:
        if (t != PTX_T_B32) msg = "and, or and xor take .b32";
        break;
    default:
        msg = "the operation must be add, min, max, and, or or xor";
        break;
    }
    if (msg && why && why_size) snprintf(why, why_size, "%s", msg);
    return msg == NULL;
}

/* The operation on two 32-bit values. */
static uint32_t redux_op(ptx_subop op, bool sgn, uint32_t x, uint32_t y)
{
    switch (op) {
    case PTX_SUB_ATOM_ADD: return x + y;
    case PTX_SUB_ATOM_MIN: return sgn ? ((int32_t)x < (int32_t)y ? x : y) : (x < y ? x : y);
    case PTX_SUB_ATOM_MAX: return sgn ? ((int32_t)x > (int32_t)y ? x : y) : (x > y ? x : y);
    case PTX_SUB_ATOM_AND: return x & y;
    case PTX_SUB_ATOM_OR:  return x | y;
    default:               return x ^ y;
    }
}

void ws_redux_exec(const ptx_mods *m, uint32_t exec_mask, const uint64_t a[32], uint64_t d[32])
{
    if (!exec_mask) return;
    ptx_subop op = (ptx_subop)m->subop;
    bool sgn = m->types[0] == PTX_T_S32;
    int first = __builtin_ctz(exec_mask);
    uint32_t r = (uint32_t)a[first];
    for (int lane = first + 1; lane < WS_WARP_SIZE; lane++)
        if ((exec_mask >> lane) & 1u) r = redux_op(op, sgn, r, (uint32_t)a[lane]);
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        if ((exec_mask >> lane) & 1u) d[lane] = r;
}
