/* Control flow: branches, calls, returns, exits, barriers, traps, and the
 * calls the runtime provides (vprintf, __assertfail). */
#include <stdlib.h>
#include <string.h>

#include "../base/bits.h"
#include "warp.h"
#include "warp_groups.h"
#include "warp_ops.h"

/* The byte at offset off of lane's parameter frames (off in the module's
 * layout, inside the kernel's window: decode places every copy there). */
static uint8_t *tparam_at(const ws_exec *x, ws_block *b, const ws_warp *w, int lane, uint32_t off)
{
    const ws_kernel *k = x->k;
    return b->tparam + (size_t)(w->index * WS_WARP_SIZE + (uint32_t)lane) * k->tparam_size + (off - k->tparam_lo);
}

static uint64_t tparam_u64(const ws_exec *x, ws_block *b, const ws_warp *w, int lane, uint32_t off)
{
    uint64_t v;
    memcpy(&v, tparam_at(x, b, w, lane, off), 8);
    return v;
}

/* Lanes leave for good: out of every path. */
static void exit_lanes(ws_exec *x, ws_warp *w, uint32_t lanes)
{
    w->exited |= lanes;
    if (lanes) ws_progress(x, w);
    ws_stack_remove_lanes(&w->g.stack, lanes);
}

static bool do_call(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask)
{
    const ws_program *p = x->p;
    const ws_call *c = &p->calls[in->aux];
    if (w->g.nframes == w->g.framecap) {
        int32_t cap = w->g.framecap ? w->g.framecap * 2 : 4;
        ws_frame *f = realloc(w->g.frames, sizeof *f * (size_t)cap);
        if (!f) { ws_fault(x, b, w, -1, pc, "out of memory for call frames"); return false; }
        w->g.frames = f;
        w->g.framecap = cap;
    }
    w->g.frames[w->g.nframes++] = (ws_frame){pc + 1, in->aux};
    FOR_LANES(mask, lane) {
        for (int32_t i = 0; i < c->nargs; i++) {
            const ws_copy *cp = &p->copies[c->first + i];
            memmove(tparam_at(x, b, w, lane, cp->dst), tparam_at(x, b, w, lane, cp->src), cp->size);
        }
    }
    ws_stack_top(&w->g.stack)->pc = in->target;
    return true;
}

static bool do_return(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, uint32_t mask)
{
    const ws_program *p = x->p;
    if (w->g.nframes == 0) { ws_fault(x, b, w, -1, pc, "return without a call"); return false; }
    ws_frame f = w->g.frames[--w->g.nframes];
    const ws_call *c = &p->calls[f.call];
    FOR_LANES(mask, lane) {
        for (int32_t i = 0; i < c->nrets; i++) {
            const ws_copy *cp = &p->copies[c->first + c->nargs + i];
            memmove(tparam_at(x, b, w, lane, cp->dst), tparam_at(x, b, w, lane, cp->src), cp->size);
        }
    }
    ws_stack_top(&w->g.stack)->pc = f.ret_pc;
    return true;
}

/* Memory reads for printf/assert strings, through one lane's generic view. */
typedef struct rd_ctx { ws_exec *x; ws_block *b; ws_warp *w; int lane; int32_t pc; } rd_ctx;

static bool generic_rd(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    rd_ctx *c = ctx;
    return ws_mem_access(c->x, c->b, c->w, c->lane, c->pc, WS_SP_GENERIC, addr, dst, size, false, "read");
}

static void read_cstr(rd_ctx *c, uint64_t addr, char *buf, size_t size)
{
    size_t n = 0;
    while (addr && n + 1 < size) {
        char ch;
        if (!generic_rd(c, addr + n, &ch, 1) || ch == '\0') break;
        buf[n++] = ch;
    }
    buf[n] = '\0';
}

static bool do_printf(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask)
{
    const ws_program *p = x->p;
    const ws_call *c = &p->calls[in->aux];
    if (c->nargs < 1) { ws_fault(x, b, w, -1, pc, "vprintf called without a format"); return false; }
    FOR_LANES(mask, lane) {
        rd_ctx rc = {x, b, w, lane, pc};
        uint64_t fmt = tparam_u64(x, b, w, lane, p->copies[c->first].src);
        uint64_t args = c->nargs > 1 ? tparam_u64(x, b, w, lane, p->copies[c->first + 1].src) : 0;
        const uint8_t *abuf = NULL;
        size_t asize = 0;
        uint8_t gbuf[256];
        uint64_t off;
        if (args) {
            ws_generic_space g = ws_generic_classify(args, &off);
            const ws_kernel *k = x->k;
            if (g == WS_GEN_LOCAL && off >= k->local_lo && off - k->local_lo < k->local_size) {
                abuf = b->local + (size_t)(w->index * WS_WARP_SIZE + (uint32_t)lane) * k->local_size +
                       (off - k->local_lo);
                asize = k->local_size - (off - k->local_lo);
            } else {
                /* Arguments elsewhere: as many bytes as can be read. */
                for (asize = sizeof gbuf; asize >= 8; asize /= 2)
                    if (generic_rd(&rc, args, gbuf, (uint32_t)asize)) break;
                if (asize < 8) asize = 0;
                x->err->msg[0] = '\0';
                abuf = gbuf;
            }
        }
        char why[160] = "";
        ws_progress(x, w);
        int n = ws_device_printf(x->out, fmt, abuf, asize, generic_rd, &rc, why, sizeof why);
        if (n < 0) {
            if (!x->err->msg[0]) ws_fault(x, b, w, lane, pc, "printf: %s", why);
            return false;
        }
        if (c->nrets > 0) {
            int32_t r = n;
            memcpy(tparam_at(x, b, w, lane, p->copies[c->first + c->nargs].dst), &r, 4);
        }
    }
    return true;
}

static bool do_assert(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask)
{
    const ws_program *p = x->p;
    const ws_call *c = &p->calls[in->aux];
    int first = -1;
    char msg[256] = "?", file[256] = "?", func[256] = "?";
    uint32_t line = 0;
    FOR_LANES(mask, lane) {
        rd_ctx rc = {x, b, w, lane, pc};
        const ws_copy *cp = &p->copies[c->first];
        if (c->nargs >= 1) read_cstr(&rc, tparam_u64(x, b, w, lane, cp[0].src), msg, sizeof msg);
        if (c->nargs >= 2) read_cstr(&rc, tparam_u64(x, b, w, lane, cp[1].src), file, sizeof file);
        if (c->nargs >= 3) memcpy(&line, tparam_at(x, b, w, lane, cp[2].src), 4);
        if (c->nargs >= 4) read_cstr(&rc, tparam_u64(x, b, w, lane, cp[3].src), func, sizeof func);
        ws_dim3 t;
        ws_thread_of(x, w, lane, &t);
        fprintf(x->out, "%s:%u: %s: block [%u,%u,%u], thread [%u,%u,%u] Assertion `%s` failed.\n",
                file, line, func, b->idx.x, b->idx.y, b->idx.z, t.x, t.y, t.z, msg);
        if (first < 0) first = lane;
    }
    if (first < 0) return true;
    ws_fault(x, b, w, first, pc, "device-side assertion `%s` failed", msg);
    x->err->kind = WS_ERR_ASSERT;
    return false;
}

/* synccheck: an aligned barrier must be reached by the whole warp, and
 * every thread waiting on a barrier must name the same thread count. */
static void sync_check(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc, bool aligned, uint32_t mask,
                       uint32_t id, uint32_t count)
{
    uint32_t live = w->lanes & ~w->exited;
    if (aligned && mask != live) ws_sync_check_divergent(x, b, w, pc, mask, live);
    for (uint32_t i = 0; i < b->nwarps; i++)
        for (int32_t k = 0; k < b->warps[i].nothers; k++) {
            const ws_group *g = &b->warps[i].others[k];
            if (g->wait == WS_WAIT_BARRIER && g->bar_id == id && g->bar_count != count) {
                ws_sync_check_count(x, b, w, pc, id, count, g->bar_count, g->wait_pc);
                return;
            }
        }
}

/* bar.sync a{, b}; barrier.sync{.aligned} a{, b}; bar.red.OP d, a{, b}, {!}c.
 * An aligned barrier (bar, barrier.aligned) counts the warp: the running
 * group waits as a whole and every live thread of it arrives.  A
 * non-aligned barrier counts threads: only the lanes that execute it wait
 * and arrive, and the rest of the warp runs on, possibly to another
 * instance of the same barrier (docs/SEMANTICS.md). */
static ws_step_result do_barrier(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in,
                                 int32_t pc, uint32_t active, uint32_t mask)
{
    ws_stack_top(&w->g.stack)->pc = pc + 1;
    if (mask == 0) return WS_STEP_OK;      /* @!p bar: not taken by this path */
    bool aligned = in->m.op == PTX_OP_BAR || (in->m.flags & PTX_F_ALIGNED);
    bool red = in->m.subop == PTX_SUB_BAR_RED;
    int first = red ? 1 : 0, nid = in->nops - (red ? 2 : 0);
    int lane = __builtin_ctz(mask);
    uint32_t id = nid > 0 ? (uint32_t)ws_opnd_lane(x, b, w, &in->ops[first], lane) : 0;
    uint32_t count = nid > 1 ? (uint32_t)ws_opnd_lane(x, b, w, &in->ops[first + 1], lane) : 0;
    if (id >= 16) {
        ws_fault(x, b, w, lane, pc, "barrier %u out of range (0..15)", id);
        return WS_STEP_FAULT;
    }
    if (x->checks && (x->l->checks & WS_CHECK_SYNC)) sync_check(x, b, w, pc, aligned, mask, id, count);
    uint32_t waiting = aligned ? ws_stack_lanes(&w->g.stack) : mask;
    uint32_t arriving = aligned ? waiting : mask;
    uint32_t ntrue = 0;
    if (red)
        FOR_LANES(mask, l) ntrue += ws_opnd_lane(x, b, w, &in->ops[in->nops - 1], l) != 0;
    /* The lanes of a non-aligned barrier whose guard is false go on. */
    if (!aligned && mask != active) {
        uint32_t on = active & ~mask;
        if (!ws_stack_push(&w->g.stack, pc + 1, ws_stack_top(&w->g.stack)->rpc, on)) {
            ws_fault(x, b, w, -1, pc, "out of memory for the reconvergence stack");
            return WS_STEP_FAULT;
        }
        ws_stack_entry *below = ws_stack_at(&w->g.stack, w->g.stack.n - 2);
        ws_stack_entry *top = ws_stack_top(&w->g.stack);
        below->mask = mask;
        ws_stack_entry t = *top;        /* waiting lanes on top */
        *top = *below;
        *below = t;
    }
    ws_group *g = ws_group_wait(w, waiting, WS_WAIT_BARRIER, pc);
    if (!g) {
        ws_fault(x, b, w, -1, pc, "out of memory for the warp's thread groups");
        return WS_STEP_FAULT;
    }
    g->exec_lanes = arriving;
    g->bar_id = id;
    g->bar_count = count;
    g->bar_arrived = ws_popcount32(arriving);
    g->bar_true = ntrue;
    return WS_STEP_BLOCKED;
}

/* An unguarded exit, or the end of a kernel: lanes sent there do nothing
 * but leave. */
static bool exits_at(const ws_program *p, int32_t pc)
{
    const ws_insn *in = &p->code[pc];
    return (in->cls == WS_I_EXIT && in->guard < 0) ||
           (in->cls == WS_I_FEND && p->funcs[in->func].is_entry);
}

/* Counts a branch at pc, and n times that the warp split there. */
static void count_branch(ws_exec *x, int32_t pc, uint64_t n_divergent)
{
    x->stats->branches++;
    x->stats->divergent_branches += n_divergent;
    if (x->l->pc_counts) {
        x->l->pc_counts[pc].branches++;
        x->l->pc_counts[pc].divergent_branches += n_divergent;
    }
}

ws_step_result ws_exec_ctrl(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in,
                            int32_t pc, uint32_t active, uint32_t mask)
{
    ws_stack_entry *top = ws_stack_top(&w->g.stack);
    switch (in->cls) {
    case WS_I_BRA: {
        /* Lanes that branch (or fall through) straight to an exit leave
         * here rather than wait at the reconvergence point: "if (i >= n)
         * return;" before a __syncthreads() must not hold the barrier. */
        uint32_t leaving = (exits_at(x->p, in->target) ? mask : 0) |
                           (exits_at(x->p, pc + 1) ? active & ~mask : 0);
        uint64_t split = 0;
        if (leaving && leaving != active) {
            split = 1;      /* the warp split, though no path waits */
            exit_lanes(x, w, leaving);
            mask &= ~leaving;
        }
        int r = ws_stack_branch(&w->g.stack, mask, in->target, pc + 1, in->rpc);
        if (r < 0) { ws_fault(x, b, w, -1, pc, "out of memory for the reconvergence stack"); return WS_STEP_FAULT; }
        count_branch(x, pc, split + (uint64_t)r);
        return WS_STEP_OK;
    }
    case WS_I_RET:      /* in a .func: to its end, where the paths reconverge */
        if (in->guard >= 0) {
            int r = ws_stack_branch(&w->g.stack, mask, in->target, pc + 1, in->rpc);
            if (r < 0) { ws_fault(x, b, w, -1, pc, "out of memory for the reconvergence stack"); return WS_STEP_FAULT; }
            count_branch(x, pc, (uint64_t)r);
        } else {
            top->pc = in->target;
        }
        return WS_STEP_OK;
    case WS_I_EXIT:
        top->pc = pc + 1;
        exit_lanes(x, w, mask);
        return WS_STEP_OK;
    case WS_I_FEND:
        if (x->p->funcs[in->func].is_entry) { exit_lanes(x, w, active); return WS_STEP_OK; }
        return do_return(x, b, w, pc, active) ? WS_STEP_OK : WS_STEP_FAULT;
    case WS_I_CALL:
        if (mask != active) {
            ws_fault(x, b, w, -1, pc, "unsupported: a call whose guard differs between threads");
            return WS_STEP_FAULT;
        }
        if (mask == 0) { top->pc = pc + 1; return WS_STEP_OK; }
        return do_call(x, b, w, in, pc, mask) ? WS_STEP_OK : WS_STEP_FAULT;
    case WS_I_PRINTF:
        if (!do_printf(x, b, w, in, pc, mask)) return WS_STEP_FAULT;
        ws_stack_top(&w->g.stack)->pc = pc + 1;
        return WS_STEP_OK;
    case WS_I_ASSERT:
        if (!do_assert(x, b, w, in, pc, mask)) return WS_STEP_FAULT;
        ws_stack_top(&w->g.stack)->pc = pc + 1;
        return WS_STEP_OK;
    case WS_I_BAR:
        return do_barrier(x, b, w, in, pc, active, mask);
    case WS_I_TRAP:
        if (mask == 0) { top->pc = pc + 1; return WS_STEP_OK; }
        ws_fault(x, b, w, __builtin_ctz(mask), pc, "trap instruction executed");
        return WS_STEP_FAULT;
    default:
        ws_fault(x, b, w, -1, pc, "internal error: instruction class %d", in->cls);
        return WS_STEP_FAULT;
    }
}
