/* Which launches run in windows of cycles, and how long (timing_window.h). */
#include "timing_window.h"

/* Whether in reads global memory another SM may write in the window. */
static bool reads_global(const ws_insn *in)
{
    switch (in->cls) {
    case WS_I_LD:
        return (in->space == WS_SP_GLOBAL || in->space == WS_SP_GENERIC) && in->m.space != PTX_SPACE_CONST;
    case WS_I_TEX:
    case WS_I_CP_ASYNC:
        return true;
    case WS_I_WMMA:
        return in->m.subop != PTX_SUB_WMMA_MMA && in->m.subop != PTX_SUB_WMMA_STORE_D &&
               in->space != WS_SP_SHARED;
    default:
        return false;
    }
}

bool ws_window_code_ok(const ws_program *p, const ws_kernel *k)
{
    const ws_func *f = &p->funcs[k->func];
    int32_t first_store = INT32_MAX, last_load = -1;
    for (int32_t pc = f->start; pc <= f->end; pc++) {
        const ws_insn *in = &p->code[pc];
        bool shared_or_local = in->space == WS_SP_SHARED || in->space == WS_SP_LOCAL;
        switch (in->cls) {
        case WS_I_CALL: case WS_I_PRINTF: case WS_I_ASSERT:
            return false;       /* code elsewhere, or output in issue order */
        case WS_I_ATOM:
            if (!shared_or_local) return false;
            break;
        case WS_I_NOP:
            if (in->m.op == PTX_OP_MEMBAR || in->m.op == PTX_OP_FENCE) return false;
            break;
        case WS_I_ST:
            if (shared_or_local) break;
            if (in->space != WS_SP_GLOBAL || (in->m.flags & PTX_F_VOLATILE)) return false;
            if (pc < first_store) first_store = pc;
            break;
        case WS_I_WMMA:
            if (in->m.subop == PTX_SUB_WMMA_STORE_D && in->space != WS_SP_SHARED) return false;
            break;
        case WS_I_LD:
            if (reads_global(in) && (in->m.flags & PTX_F_VOLATILE)) return false;
            break;
        default:
            break;
        }
        if (reads_global(in) && pc > last_load) last_load = pc;
    }
    if (last_load < 0 || first_store == INT32_MAX) return true;
    if (last_load > first_store) return false;
    /* no way back from a store to a load */
    for (int32_t pc = first_store; pc <= f->end; pc++)
        if (p->code[pc].cls == WS_I_BRA && p->code[pc].target <= last_load) return false;
    return true;
}

uint32_t ws_window_cycles(const ws_program *p, const ws_kernel *k, const ws_launch *l,
                          const ws_timing_options *o, const ws_gpu_config *g)
{
    if (o->window_cycles == 1) return 1;
    if (o->trace || o->timeline || l->pc_counts || l->checks) return 1;
    if (!ws_window_code_ok(p, k)) return 1;
    uint32_t w = o->window_cycles ? o->window_cycles : UINT32_MAX;
    /* no L2 or DRAM answer inside a window */
    if (g->latencyL2Hit > 0 && w > (uint32_t)g->latencyL2Hit) w = (uint32_t)g->latencyL2Hit;
    if (g->latencyDram > 0 && w > (uint32_t)g->latencyDram) w = (uint32_t)g->latencyDram;
    return w ? w : 1;
}
