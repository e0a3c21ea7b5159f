/* Building an issue-trace event from a warp step.  See trace_issue.h. */
#include "trace_issue.h"

#include <string.h>

#include "program.h"
#include "../mem/coalescer.h"
#include "../mem/shared_banks.h"
#include "../trace/trace.h"

/* Adds one warp-wide access of info (addresses acc) to a trace event:
 * bank passes in shared memory, sectors and lines in global or local. */
static void trace_access(const ws_step_info *info, const ws_mem_resolved *res, const uint64_t *acc,
                         ws_trace_event *e)
{
    uint64_t addr[WS_WARP_SIZE] = {0};
    int space = info->space;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++) {
        if (!(info->mask >> lane & 1)) continue;
        addr[lane] = acc[lane];
        if (info->space == WS_SP_GENERIC) {
            int here;
            switch (ws_generic_classify(acc[lane], &addr[lane])) {
            case WS_GEN_SHARED: here = WS_SP_SHARED; break;
            case WS_GEN_LOCAL: here = WS_SP_LOCAL; break;
            default: here = WS_SP_GLOBAL; break;
            }
            space = space == WS_SP_GENERIC || space == here ? here : -1;
        }
    }
    if (space == WS_SP_SHARED) {
        ws_bank_access own;
        const ws_bank_access *ba = ws_resolved_banks(res, addr, info->mask, info->size, !info->store, &own);
        e->mem = WS_TRACE_MEM_SHARED;
        for (uint32_t i = 0; i < ba->wavefronts && e->wavefronts + i < 32; i++)
            e->pass_banks[e->wavefronts + i] = ba->pass_banks[i];
        e->wavefronts += ba->wavefronts;
        if (ba->degree > e->degree) e->degree = ba->degree;
    } else if (space == WS_SP_GLOBAL || space == WS_SP_LOCAL) {
        ws_coalesce own;     /* local lanes are never resolved as global: res cannot match them */
        const ws_coalesce *co = ws_resolved_coalesce(space == WS_SP_GLOBAL ? res : NULL, addr, info->mask,
                                                     info->size, &own);
        e->mem = space == WS_SP_GLOBAL ? WS_TRACE_MEM_GLOBAL : WS_TRACE_MEM_LOCAL;
        e->sectors += co->sectors;
        e->lines += co->lines;
    } else {
        e->mem = WS_TRACE_MEM_OTHER;
    }
}

bool ws_trace_warp_event(struct ws_trace *t, const ws_exec *x, const ws_block *b, const ws_warp *w,
                         int32_t sm, int32_t pc, const ws_step_info *info, uint64_t now, uint64_t done,
                         ws_trace_event *out)
{
    const ws_dim3 g = x->l->grid, bi = b->idx;
    uint64_t linear = bi.x + (uint64_t)g.x * (bi.y + (uint64_t)g.y * bi.z);
    if (!ws_trace_wants(t, linear, w->index, pc, now)) return false;
    const ws_insn *in = &x->p->code[pc];
    ws_trace_event e;
    memset(&e, 0, sizeof e);
    e.cycle = now;
    e.done = done > now ? done : now;
    e.sm = sm;
    e.block = linear;
    e.bx = bi.x; e.by = bi.y; e.bz = bi.z;
    e.warp = w->index;
    e.pc = pc;
    ws_insn_mnemonic(&in->m, e.insn, sizeof e.insn);
    e.active = info->active;
    e.mask = info->mask;
    if (in->pos.line) {
        e.ptx_file = ws_program_path(x->p);
        e.ptx_line = in->pos.line;
        const char *cu = ws_program_cu_path(x->p, in->pos.cu_file);
        if (cu) {
            e.cu_file = cu;
            e.cu_line = in->pos.cu_line;
        }
    }
    if (info->mem && info->mask && info->space != WS_SP_PARAM) {
        e.store = info->store;
        const ws_mem_resolved *res = ws_step_resolved(info, in);     /* the first access's, from the executor */
        for (uint32_t k = 0; k < info->naccess; k++)
            trace_access(info, k == 0 ? res : NULL, info->addr + (size_t)k * WS_WARP_SIZE, &e);
    }
    *out = e;
    return true;
}

void ws_trace_warp_issue(struct ws_trace *t, const ws_exec *x, const ws_block *b, const ws_warp *w,
                         int32_t sm, int32_t pc, const ws_step_info *info, uint64_t now, uint64_t done)
{
    ws_trace_event e;
    if (ws_trace_warp_event(t, x, b, w, sm, pc, info, now, done, &e)) ws_trace_issue(t, &e);
}

