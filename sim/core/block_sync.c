/* Barriers of one block: release when every running thread has arrived,
 * and the deadlock message when none can. */
#include <stdio.h>

#include "block_sync.h"

static uint32_t live_threads(const ws_warp *w)
{
    return w->state == WS_WARP_DONE ? 0 : (uint32_t)__builtin_popcount(w->lanes & ~w->exited);
}

/* bar.red: every arrived thread gets the block-wide reduction of the
 * predicates (popc: how many were true; and: all; or: any). */
static void write_reduction(const ws_exec *x, ws_warp *w, uint32_t ntrue, uint32_t arrived)
{
    const ws_insn *in = &x->p->code[w->bar_pc];
    if (in->m.subop != PTX_SUB_BAR_RED || in->ops[0].kind != WS_OK_REG) return;
    uint64_t v = in->m.boolop == PTX_BOOL_AND ? ntrue == arrived
               : in->m.boolop == PTX_BOOL_OR  ? ntrue > 0
               : ntrue;
    uint32_t live = w->lanes & ~w->exited;
    for (int lane = 0; lane < WS_WARP_SIZE; lane++)
        if (live >> lane & 1) w->regs[in->ops[0].reg][lane] = v;
}

uint32_t ws_block_release_barriers(const ws_exec *x, ws_block *b)
{
    uint32_t live = 0, released = 0;
    for (uint32_t i = 0; i < b->nwarps; i++) live += live_threads(&b->warps[i]);
    for (uint32_t i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        if (w->state != WS_WARP_BARRIER) continue;
        uint32_t arrived = 0, ntrue = 0, expected = w->bar_count ? w->bar_count : live;
        for (uint32_t j = 0; j < b->nwarps; j++)
            if (b->warps[j].state == WS_WARP_BARRIER && b->warps[j].bar_id == w->bar_id) {
                arrived += live_threads(&b->warps[j]);
                ntrue += b->warps[j].bar_true;
            }
        if (arrived < expected) continue;
        uint32_t id = w->bar_id;
        for (uint32_t j = 0; j < b->nwarps; j++)
            if (b->warps[j].state == WS_WARP_BARRIER && b->warps[j].bar_id == id) {
                write_reduction(x, &b->warps[j], ntrue, arrived);
                b->warps[j].state = WS_WARP_READY;
                released++;
            }
    }
    return released;
}

void ws_block_deadlock(ws_exec *x, ws_block *b)
{
    char *s = x->err->msg;
    size_t cap = sizeof x->err->msg;
    size_t n = (size_t)snprintf(s, cap, "barrier deadlock in block (%u,%u,%u) of kernel %s: waiting",
                                b->idx.x, b->idx.y, b->idx.z, x->p->funcs[x->k->func].f->name);
    for (uint32_t i = 0; i < b->nwarps && n < cap; i++) {
        const ws_warp *w = &b->warps[i];
        if (w->state != WS_WARP_BARRIER) continue;
        const ws_insn *in = &x->p->code[w->bar_pc];
        n += (size_t)snprintf(s + n, cap - n, " warp %u at pc %d (barrier %u, line %d);", i, w->bar_pc,
                              w->bar_id, in->src ? in->src->loc.line : 0);
    }
    uint32_t done = 0;
    for (uint32_t i = 0; i < b->nwarps; i++) done += b->warps[i].state == WS_WARP_DONE;
    if (n < cap) snprintf(s + n, cap - n, " %u warp(s) exited", done);
}
