/* Barriers of one block: a barrier completes when the threads it expects
 * have arrived (every live thread of the block, or the count bar.sync
 * names), whatever instructions they arrived at; and the deadlock message
 * when none can. */
#include <stdio.h>

#include "block_sync.h"

#include "../base/bits.h"
#include "warp.h"
#include "warp_groups.h"

static uint32_t live_threads(const ws_warp *w)
{
    return w->state == WS_WARP_DONE ? 0 : ws_popcount32(w->lanes & ~w->exited);
}

static bool waits_at(const ws_group *g, uint32_t id)
{
    return g->wait == WS_WAIT_BARRIER && g->bar_id == id;
}

/* bar.red: every arrived thread gets the block-wide reduction of the
 * predicates (popc: how many were true; and: all; or: any). */
static void write_reduction(const ws_exec *x, ws_warp *w, const ws_group *g, uint32_t ntrue,
                            uint32_t arrived)
{
    const ws_insn *in = &x->p->code[g->wait_pc];
    if (in->m.subop != PTX_SUB_BAR_RED || in->ops[0].kind != WS_OK_REG) return;
    uint64_t v = in->m.boolop == PTX_BOOL_AND ? ntrue == arrived
               : in->m.boolop == PTX_BOOL_OR  ? ntrue > 0
               : ntrue;
    FOR_LANES(g->exec_lanes & ~w->exited, lane) ws_reg_set(w, &in->ops[0], lane, v);
}

/* Releases barrier id if its expected threads have all arrived. */
static bool release(ws_exec *x, ws_block *b, uint32_t id, uint32_t expected_if_all)
{
    uint32_t arrived = 0, ntrue = 0, expected = expected_if_all;
    for (uint32_t i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        for (int32_t k = 0; k < w->nothers; k++) {
            const ws_group *g = &w->others[k];
            if (!waits_at(g, id)) continue;
            arrived += g->bar_arrived;
            ntrue += g->bar_true;
            if (g->bar_count) expected = g->bar_count;
        }
    }
    if (arrived == 0 || arrived < expected) return false;
    ws_race_barrier(&b->race);
    for (uint32_t i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        bool touched = false;
        for (int32_t k = 0; k < w->nothers; k++) {
            ws_group *g = &w->others[k];
            if (!waits_at(g, id)) continue;
            write_reduction(x, w, g, ntrue, arrived);
            ws_progress(x, w);
            g->wait = WS_WAIT_NONE;
            touched = true;
        }
        if (touched) ws_warp_settle(x, b, w);
    }
    return true;
}

uint32_t ws_block_release_barriers(ws_exec *x, ws_block *b)
{
    /* the barriers some thread waits at and their arrivals, in one pass:
     * only a barrier whose expected threads are all there can go (release
     * counts again, and releases) */
    uint32_t live = 0, released = 0, waited = 0, arrived[16] = {0}, count[16] = {0};
    for (uint32_t i = 0; i < b->nwarps; i++) {
        const ws_warp *w = &b->warps[i];
        live += live_threads(w);
        for (int32_t k = 0; k < w->nothers; k++) {
            const ws_group *g = &w->others[k];
            if (g->wait != WS_WAIT_BARRIER) continue;
            uint32_t id = g->bar_id & 15;      /* do_barrier takes 0..15 only */
            waited |= UINT32_C(1) << id;
            arrived[id] += g->bar_arrived;
            if (g->bar_count) count[id] = g->bar_count;
        }
    }
    for (uint32_t id = 0; id < 16; id++)
        if ((waited >> id & 1) && arrived[id] >= (count[id] ? count[id] : live))
            released += release(x, b, id, live);
    return released;
}

void ws_block_deadlock(ws_exec *x, ws_block *b)
{
    char *s = x->err->msg;
    size_t cap = sizeof x->err->msg;
    const char *path = ws_program_path(x->p);
    x->err->kind = WS_ERR_KERNEL_FAULT;
    size_t n = (size_t)snprintf(s, cap, "barrier deadlock in block (%u,%u,%u) of kernel %s: waiting",
                                b->idx.x, b->idx.y, b->idx.z, x->p->funcs[x->k->func].shown);
    for (uint32_t i = 0; i < b->nwarps && n < cap; i++) {
        const ws_warp *w = &b->warps[i];
        for (int32_t k = 0; k < w->nothers && n < cap; k++) {
            const ws_group *g = &w->others[k];
            if (g->wait != WS_WAIT_BARRIER && g->wait != WS_WAIT_WARPSYNC) continue;
            const ws_insn *in = &x->p->code[g->wait_pc];
            n += (size_t)snprintf(s + n, cap - n, " warp %u", i);
            if (g->wait_lanes != (w->lanes & ~w->exited) && n < cap)
                n += (size_t)snprintf(s + n, cap - n, " lanes 0x%08x", g->wait_lanes);
            if (n < cap && g->wait == WS_WAIT_BARRIER)
                n += (size_t)snprintf(s + n, cap - n, " at barrier %u", g->bar_id);
            else if (n < cap)
                n += (size_t)snprintf(s + n, cap - n, " at a warp-synchronous operation for lanes 0x%08x",
                                      g->members);
            if (n < cap)
                n += (size_t)snprintf(s + n, cap - n, " (pc %d, %s:%d", g->wait_pc,
                                      path ? path : "<ptx>", in->pos.line);
            if (n < cap && in->pos.cu_line > 0)
                n += (size_t)snprintf(s + n, cap - n, ", %s:%d", ws_cu_file(x->p, in), in->pos.cu_line);
            if (n < cap) n += (size_t)snprintf(s + n, cap - n, ");");
        }
    }
    uint32_t done = 0;
    for (uint32_t i = 0; i < b->nwarps; i++) done += b->warps[i].state == WS_WARP_DONE;
    if (n < cap) snprintf(s + n, cap - n, " %u warp(s) exited", done);
}
