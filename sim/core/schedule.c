/* List scheduling of basic blocks, loads first (see schedule.h). */
#include "schedule.h"

#include <stdlib.h>
#include <string.h>

#include "insn_deps.h"

/* How far an instruction may move up.  Far enough for the loads of a 4-times
 * unrolled loop body (nvcc's usual) and their address arithmetic to issue
 * ahead of the arithmetic that uses them; short enough that in a long
 * unrolled block loads run only a few instructions ahead, as register
 * pressure keeps ptxas's schedule (an assumption, checked only through the
 * cycle comparison in validation/, not against SASS). */
#define WS_SCHEDULE_WINDOW 12

/* What decode resolved of each instruction (ws_insn_classify): fixed
 * instructions keep their order with respect to every other fixed
 * instruction and every load (they touch memory, synchronize, call, use the
 * carry flag, read the clock, or end the block).  Plain loads may pass one
 * another (nothing writes memory between them: stores are fixed), as ptxas
 * hoists a later entry's independent loads above an earlier entry's
 * dependent ones (kernels/sass/sm_90/spmv.sass: in spmvCsrScalar and
 * spmvEll the colIdx and val loads of 16 entries issue before the first x
 * load that waits for a colIdx); volatile loads and the other loads keep
 * their order among themselves.  Texture fetches are scheduled as loads:
 * they read memory that no kernel writes while it runs, and their results
 * are as long in coming. */
static bool is_load(const ws_insn *in) { return in->flags & WS_IF_LOAD; }
static bool fixed(const ws_insn *in) { return in->flags & WS_IF_FIXED; }
static bool warp_sync(const ws_insn *in) { return in->flags & WS_IF_WARP_SYNC; }
static bool ends_block(const ws_insn *in) { return in->flags & WS_IF_ENDS_BLOCK; }
/* A load that keeps its order among loads: all but a plain ld that is not
 * volatile. */
static bool ordered_load(const ws_insn *in)
{
    return in->cls != WS_I_LD || (in->m.flags & PTX_F_VOLATILE);
}

static bool shares(const int32_t *a, uint8_t na, const int32_t *b, uint8_t nb)
{
    for (uint8_t i = 0; i < na; i++)
        for (uint8_t j = 0; j < nb; j++)
            if (a[i] == b[j]) return true;
    return false;
}

/* Whether instruction j (after i in the block) must stay after i. */
static bool ordered(const ws_insn *ci, const ws_insn_deps *i, const ws_insn *cj, const ws_insn_deps *j)
{
    bool li = is_load(ci), lj = is_load(cj);
    if (fixed(ci) && (fixed(cj) || lj)) return true;
    if (li && fixed(cj)) return true;
    if (li && lj && (ordered_load(ci) || ordered_load(cj))) return true;
    /* Warp-synchronous operations keep their order among themselves: lanes
     * on two paths pair their instances in program order. */
    if (warp_sync(ci) && warp_sync(cj)) return true;
    return shares(i->dst, i->ndst, j->src, j->nsrc) ||     /* j reads what i writes */
           shares(i->src, i->nsrc, j->dst, j->ndst) ||     /* j overwrites what i reads */
           shares(i->dst, i->ndst, j->dst, j->ndst);
}

typedef struct sched_block {
    int32_t n;
    ws_insn *code;          /* the block's instructions, in PTX order */
    ws_insn_deps *deps;
    bool *edge;             /* edge[i * n + j]: j must follow i */
    bool *feeds_load;       /* a later load of the block needs its result (transitively) */
    bool *done;
    int32_t *order;         /* the schedule: original indices */
    int32_t first;          /* every instruction before it is done */
} sched_block;

static int32_t pick(const sched_block *b, int32_t pos)
{
    int32_t best = -1, best_rank = 3;
    for (int32_t j = b->first; j < b->n && j <= pos + WS_SCHEDULE_WINDOW; j++) {
        if (b->done[j]) continue;
        bool ready = true;
        for (int32_t i = b->first; i < j && ready; i++)
            if (!b->done[i] && b->edge[i * b->n + j]) ready = false;
        if (!ready) continue;
        int rank = is_load(&b->code[j]) ? 0 : b->feeds_load[j] ? 1 : 2;
        if (rank < best_rank) { best = j; best_rank = rank; }
    }
    return best;
}

static void schedule_block(sched_block *b)
{
    int32_t n = b->n;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++)
            b->edge[i * n + j] = ordered(&b->code[i], &b->deps[i], &b->code[j], &b->deps[j]);
    /* Address arithmetic of a load goes early with it: mark what a load
     * reads from, back through the block. */
    for (int32_t j = n - 1; j >= 0; j--) {
        b->feeds_load[j] = false;
        for (int32_t k = j + 1; k < n && !b->feeds_load[j]; k++)
            if ((is_load(&b->code[k]) || b->feeds_load[k]) &&
                shares(b->deps[j].dst, b->deps[j].ndst, b->deps[k].src, b->deps[k].nsrc))
                b->feeds_load[j] = true;
    }
    for (int32_t pos = 0; pos < n; pos++) {
        /* The earliest unscheduled instruction is always ready and never
         * moves up, so pick finds at least that one. */
        int32_t j = pick(b, pos);
        if (j < 0)
            for (j = 0; b->done[j]; j++) {}
        b->done[j] = true;
        b->order[pos] = j;
        while (b->first < n && b->done[b->first]) b->first++;
    }
}

void ws_schedule_loads(ws_program *p, int32_t start, int32_t end)
{
    int32_t len = end - start;
    if (len <= 1) return;
    ws_insn *code = p->code + start;
    bool *leader = calloc((size_t)len + 1, sizeof *leader);
    ws_insn_deps *deps = malloc(sizeof *deps * (size_t)len);
    ws_insn *copy = malloc(sizeof *copy * (size_t)len);
    if (!leader || !deps || !copy) goto out;     /* out of memory: keep the PTX's order */
    leader[0] = leader[len] = true;
    for (int32_t i = 0; i < len; i++) {
        if (ends_block(&code[i])) leader[i + 1] = true;
        if (code[i].cls == WS_I_BRA && code[i].target >= start && code[i].target < end)
            leader[code[i].target - start] = true;
        ws_insn_deps_of(p, &code[i], &deps[i]);
    }
    memcpy(copy, code, sizeof *copy * (size_t)len);
    for (int32_t b0 = 0, b1; b0 < len; b0 = b1) {
        for (b1 = b0 + 1; !leader[b1]; b1++) {}
        int32_t n = b1 - b0;
        bool has_load = false;
        for (int32_t i = b0 + 1; i < b1; i++) has_load |= is_load(&code[i]);
        if (n < 3 || !has_load) continue;
        sched_block b = {n, copy + b0, deps + b0, calloc((size_t)n * (size_t)n, 1),
                         calloc((size_t)n, 1), calloc((size_t)n, 1), malloc(sizeof(int32_t) * (size_t)n), 0};
        if (b.edge && b.feeds_load && b.done && b.order) {
            schedule_block(&b);
            for (int32_t pos = 0; pos < n; pos++) code[b0 + pos] = copy[b0 + b.order[pos]];
        }
        free(b.edge); free(b.feeds_load); free(b.done); free(b.order);
    }
out:
    free(leader);
    free(deps);
    free(copy);
}
