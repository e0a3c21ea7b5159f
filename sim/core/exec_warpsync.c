/* Warp-synchronous operations (shfl.sync, vote.sync, redux.sync,
 * match.sync, bar.warp.sync)
 * under independent thread scheduling.
 *
 * Each such operation names a membermask.  The PTX ISA has every thread of
 * it wait until all non-exited threads of the membermask have executed the
 * same operation, wherever each of them reached its own instance: lanes
 * 0-15 and lanes 16-31 may swap values through two different shfl.sync
 * instructions.  When the running path holds the whole membermask (the
 * common case) the operation executes at once; otherwise the path waits,
 * the other lanes of the warp run to their instance, and the operation
 * executes for all of them together, each lane reading its operands from
 * and writing its result to its own instruction. */
#include <string.h>

#include "warp.h"
#include "warp_groups.h"
#include "warp_ops.h"

/* One instance of an operation: an instruction and the lanes executing it. */
typedef struct warpsync_part { const ws_insn *in; uint32_t lanes; } warpsync_part;

typedef void (*warpsync_fn)(const ws_insn *in, uint32_t exec, const uint64_t *src[3], uint64_t *dst[2]);

static void shfl_fn(const ws_insn *in, uint32_t exec, const uint64_t *src[3], uint64_t *dst[2])
{
    ws_shfl_exec((ptx_subop)in->m.subop, exec, src[0], src[1], src[2], dst[0], dst[1]);
}

static void vote_fn(const ws_insn *in, uint32_t exec, const uint64_t *src[3], uint64_t *dst[2])
{
    ws_vote_exec((ptx_subop)in->m.subop, exec, src[0], dst[0]);
}

static void redux_fn(const ws_insn *in, uint32_t exec, const uint64_t *src[3], uint64_t *dst[2])
{
    ws_redux_exec(&in->m, exec, src[0], dst[0]);
}

static void match_fn(const ws_insn *in, uint32_t exec, const uint64_t *src[3], uint64_t *dst[2])
{
    ws_match_exec((ptx_subop)in->m.subop, in->m.types[0], exec, src[0], dst[0], dst[1]);
}

static void nothing_fn(const ws_insn *in, uint32_t exec, const uint64_t *src[3], uint64_t *dst[2])
{
    (void)in; (void)exec; (void)src; (void)dst;
}

/* What each operation reads and computes: its source operands are
 * ops[1 .. nsrc], its results go to ops[0] (and ops[0].reg2, "d|p"). */
typedef struct warpsync_op { warpsync_fn fn; int nsrc; } warpsync_op;

static warpsync_op op_of(const ws_insn *in)
{
    switch (in->cls) {
    case WS_I_SHFL: return (warpsync_op){shfl_fn, 3};
    case WS_I_VOTE: return (warpsync_op){vote_fn, 1};
    case WS_I_REDUX: return (warpsync_op){redux_fn, 1};
    case WS_I_MATCH: return (warpsync_op){match_fn, 1};
    default: return (warpsync_op){nothing_fn, 0};
    }
}

int ws_warpsync_members_opnd(const ws_insn *in)
{
    switch (in->cls) {
    case WS_I_SHFL: return in->nops >= 5 ? 4 : -1;
    case WS_I_VOTE: return (in->m.flags & PTX_F_SYNC) && in->nops >= 3 ? 2 : -1;
    case WS_I_REDUX: case WS_I_MATCH: return in->nops >= 3 ? 2 : -1;
    case WS_I_WARPSYNC: return 0;
    default: return -1;
    }
}

/* Executes the parts of one operation (in, the first part's instruction)
 * as warp-wide operations: one for each membermask the lanes name (the
 * 16-lane tiles of a warp each reduce their own 16 lanes through one
 * redux.sync). */
static void run_parts(const ws_exec *x, const ws_block *b, ws_warp *w, const ws_insn *in,
                      const warpsync_part *parts, int nparts)
{
    warpsync_op op = op_of(in);
    uint64_t src[3][WS_WARP_SIZE], d[WS_WARP_SIZE], p[WS_WARP_SIZE], scratch[WS_WARP_SIZE];
    uint32_t members[WS_WARP_SIZE];
    uint32_t exec = 0;
    memset(src, 0, sizeof src);
    memset(d, 0, sizeof d);
    memset(p, 0, sizeof p);
    for (int k = 0; k < nparts; k++) {
        exec |= parts[k].lanes;
        for (int i = 0; i < op.nsrc; i++) {
            const uint64_t *row = ws_opnd_row(x, b, w, &parts[k].in->ops[1 + i], scratch);
            FOR_LANES(parts[k].lanes, lane) src[i][lane] = row[lane];
        }
        int mi = ws_warpsync_members_opnd(parts[k].in);
        const uint64_t *row = mi >= 0 ? ws_opnd_row(x, b, w, &parts[k].in->ops[mi], scratch) : NULL;
        FOR_LANES(parts[k].lanes, lane) members[lane] = row ? (uint32_t)row[lane] : UINT32_MAX;
    }
    const uint64_t *s[3] = {src[0], src[1], src[2]};
    uint64_t *dst[2] = {d, p};
    for (uint32_t left = exec; left;) {
        uint32_t m = members[__builtin_ctz(left)], group = 0;
        FOR_LANES(left, lane) if (members[lane] == m) group |= UINT32_C(1) << lane;
        op.fn(in, group, s, dst);
        left &= ~group;
    }
    for (int k = 0; k < nparts; k++) {
        const ws_opnd *o = &parts[k].in->ops[0];
        if (op.nsrc == 0 || o->kind != WS_OK_REG) continue;
        FOR_LANES(parts[k].lanes, lane) {
            ws_reg_set(w, o, lane, d[lane]);
            if (o->reg2 >= 0) ws_row_set(w, o->row2, o->narrow2, lane, p[lane]);
        }
    }
}

/* run_parts for the common case: one shfl.sync instance whose lanes all
 * name the same membermask, read from and written to the registers
 * directly (ws_shfl_exec writes only the lanes it executes, through
 * temporaries, so a destination that is also a source is fine).  False,
 * nothing done, for any other case. */
static bool run_single_shfl(const ws_exec *x, const ws_block *b, ws_warp *w, const ws_insn *in,
                            uint32_t lanes)
{
    uint64_t scratch[4][WS_WARP_SIZE];
    const ws_opnd *o = &in->ops[0];
    if (in->cls != WS_I_SHFL || o->kind != WS_OK_REG) return false;
    int mi = ws_warpsync_members_opnd(in);
    if (lanes && mi >= 0) {
        const uint64_t *mrow = ws_opnd_row(x, b, w, &in->ops[mi], scratch[3]);
        uint32_t m0 = (uint32_t)mrow[__builtin_ctz(lanes)], differ = 0;
        FOR_LANES_DO(lanes, lane, differ |= (uint32_t)mrow[lane] ^ m0);
        if (differ) return false;
    }
    const uint64_t *src[3];
    for (int i = 0; i < 3; i++) src[i] = ws_opnd_row(x, b, w, &in->ops[1 + i], scratch[i]);
    uint64_t view[2][WS_WARP_SIZE];
    uint64_t *d = ws_row_view(w, o->row, o->narrow, view[0]);
    uint64_t *p = o->reg2 >= 0 ? ws_row_view(w, o->row2, o->narrow2, view[1]) : NULL;
    ws_shfl_exec((ptx_subop)in->m.subop, lanes, src[0], src[1], src[2], d, p);
    ws_row_put(w, o->row, o->narrow, d);
    if (p) ws_row_put(w, o->row2, o->narrow2, p);
    return true;
}

static bool same_operation(const ws_insn *a, const ws_insn *b)
{
    return a->m.op == b->m.op && a->m.subop == b->m.subop && a->m.types[0] == b->m.types[0] &&
           a->m.boolop == b->m.boolop;
}

/* Completes the operations whose membermasks have all arrived (or, with
 * force, the first one waiting, with the lanes that are there).  Returns
 * whether one completed. */
static bool complete_waiting(const ws_exec *x, const ws_block *b, ws_warp *w, bool force)
{
    uint32_t live = w->lanes & ~w->exited;
    bool any = false;
    for (int32_t i = 0; i < w->nothers; i++) {
        ws_group *g = &w->others[i];
        if (g->wait != WS_WAIT_WARPSYNC) continue;
        const ws_insn *in = &x->p->code[g->wait_pc];
        warpsync_part parts[WS_WARP_SIZE];
        int32_t who[WS_WARP_SIZE];
        int nparts = 0;
        uint32_t arrived = 0, needed = 0;
        for (int32_t j = i; j < w->nothers && nparts < WS_WARP_SIZE; j++) {
            ws_group *h = &w->others[j];
            if (h->wait != WS_WAIT_WARPSYNC || !same_operation(in, &x->p->code[h->wait_pc])) continue;
            parts[nparts] = (warpsync_part){&x->p->code[h->wait_pc], h->exec_lanes};
            who[nparts++] = j;
            arrived |= h->wait_lanes;
            needed |= h->members;
        }
        if (!force && (needed & live & ~arrived)) continue;
        run_parts(x, b, w, in, parts, nparts);
        for (int k = 0; k < nparts; k++) w->others[who[k]].wait = WS_WAIT_NONE;
        any = true;
        if (force) return true;
    }
    return any;
}

bool ws_warp_settle(ws_exec *x, ws_block *b, ws_warp *w)
{
    for (;;) {
        if (w->nothers) complete_waiting(x, b, w, false);
        switch (ws_warp_schedule(w)) {
        case WS_SCHED_NOMEM:
            ws_fault(x, b, w, -1, -1, "out of memory for the warp's thread groups");
            return false;
        case WS_SCHED_STUCK:
            /* Every group waits for lanes that will never come (they passed
             * their instance or wait elsewhere in the warp): the ISA leaves
             * this undefined; warpsim executes with the lanes that arrived. */
            x->stats->warpsync_partial++;
            complete_waiting(x, b, w, true);
            continue;
        default:
            return true;
        }
    }
}

ws_step_result ws_exec_warpsync(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in,
                                int32_t pc, uint32_t active, uint32_t mask)
{
    int mi = ws_warpsync_members_opnd(in);
    uint32_t live = w->lanes & ~w->exited;
    uint32_t members = mi >= 0 ? 0 : active;
    if (mi >= 0) {
        uint64_t scratch[WS_WARP_SIZE];
        const uint64_t *row = ws_opnd_row(x, b, w, &in->ops[mi], scratch);
        uint32_t from = mask ? mask : active;
        FOR_LANES_DO(from, lane, members |= (uint32_t)row[lane]);
    }
    ws_stack_top(&w->g.stack)->pc = pc + 1;
    if (!(members & live & ~active)) {
        warpsync_part part = {in, mask};
        if (!run_single_shfl(x, b, w, in, mask)) run_parts(x, b, w, in, &part, 1);
        return WS_STEP_OK;
    }
    ws_group *g = ws_group_wait(w, active, WS_WAIT_WARPSYNC, pc);
    if (!g) {
        ws_fault(x, b, w, -1, pc, "out of memory for the warp's thread groups");
        return WS_STEP_FAULT;
    }
    g->exec_lanes = mask;
    g->members = members;
    if (!ws_warp_settle(x, b, w)) return WS_STEP_FAULT;
    return w->state == WS_WARP_READY ? WS_STEP_OK : WS_STEP_BLOCKED;
}
