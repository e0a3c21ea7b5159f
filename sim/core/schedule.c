/* List scheduling of basic blocks, loads first (see schedule.h). */
#include "schedule.h"

#include <stdint.h>
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

/* A block's schedule is made in one pass, a position at a time.  Since no
 * instruction moves up more than WS_SCHEDULE_WINDOW places, the
 * instructions not yet placed among the first pos + WS_SCHEDULE_WINDOW + 1
 * are WS_SCHEDULE_WINDOW + 1 at most (fewer near the block's end), so the
 * choice at each position looks at those few and asks which of them must
 * follow which then: time and memory linear in the block's length, however
 * long an unrolled block is (a block of 12,000 instructions took a second
 * and 140 MiB with every pair's order worked out beforehand). */
#define WS_SCHEDULE_PENDING (WS_SCHEDULE_WINDOW + 1)

typedef struct sched_block {
    int32_t n;
    const ws_insn *code;        /* the block's instructions, in PTX order */
    const ws_insn_deps *deps;
    bool *feeds_load;           /* a later load of the block needs its result (transitively) */
    int32_t *order;             /* the schedule: original indices */
    int32_t pending[WS_SCHEDULE_PENDING];   /* not yet placed, ascending */
    int32_t npending;
} sched_block;

/* The index in pending of the instruction to place next: the first of
 * the best rank (a load, then what feeds a load, then the rest) that no
 * earlier pending instruction must precede.  The earliest pending one is
 * always free to go, so there is one. */
static int32_t pick(const sched_block *b)
{
    int32_t best = 0, best_rank = 3;
    for (int32_t pj = 0; pj < b->npending; pj++) {
        int32_t j = b->pending[pj];
        bool ready = true;
        for (int32_t pi = 0; pi < pj && ready; pi++) {
            int32_t i = b->pending[pi];
            if (ordered(&b->code[i], &b->deps[i], &b->code[j], &b->deps[j])) ready = false;
        }
        if (!ready) continue;
        int rank = is_load(&b->code[j]) ? 0 : b->feeds_load[j] ? 1 : 2;
        if (rank < best_rank) { best = pj; best_rank = rank; }
    }
    return best;
}

/* feeds_load, back through the block: an instruction feeds a load when a
 * later load, or a later instruction that feeds one, reads a register it
 * writes.  wanted[r - reg_lo] == stamp: such a later instruction reads r. */
static void mark_feeds_load(sched_block *b, uint32_t *wanted, int32_t reg_lo, uint32_t stamp)
{
    for (int32_t j = b->n - 1; j >= 0; j--) {
        const ws_insn_deps *d = &b->deps[j];
        b->feeds_load[j] = false;
        for (uint8_t k = 0; k < d->ndst && !b->feeds_load[j]; k++)
            b->feeds_load[j] = wanted[d->dst[k] - reg_lo] == stamp;
        if (is_load(&b->code[j]) || b->feeds_load[j])
            for (uint8_t k = 0; k < d->nsrc; k++) wanted[d->src[k] - reg_lo] = stamp;
    }
}

static void schedule_block(sched_block *b)
{
    int32_t n = b->n, next = 0;     /* next: the first instruction not yet pending */
    b->npending = 0;
    for (int32_t pos = 0; pos < n; pos++) {
        for (; next < n && next <= pos + WS_SCHEDULE_WINDOW; next++) b->pending[b->npending++] = next;
        int32_t pj = pick(b);
        b->order[pos] = b->pending[pj];
        memmove(&b->pending[pj], &b->pending[pj + 1], sizeof *b->pending * (size_t)(b->npending - pj - 1));
        b->npending--;
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
    bool *feeds_load = malloc((size_t)len);
    int32_t *order = malloc(sizeof *order * (size_t)len);
    uint32_t *wanted = NULL;
    if (!leader || !deps || !copy || !feeds_load || !order) goto out;     /* out of memory: keep the PTX's order */
    leader[0] = leader[len] = true;
    int32_t reg_lo = INT32_MAX, reg_hi = INT32_MIN;    /* the registers the function names */
    for (int32_t i = 0; i < len; i++) {
        if (ends_block(&code[i])) leader[i + 1] = true;
        if (code[i].cls == WS_I_BRA && code[i].target >= start && code[i].target < end)
            leader[code[i].target - start] = true;
        ws_insn_deps *d = &deps[i];
        ws_insn_deps_of(p, &code[i], d);
        for (uint8_t k = 0; k < d->ndst + d->nsrc; k++) {
            int32_t r = k < d->ndst ? d->dst[k] : d->src[k - d->ndst];
            if (r < reg_lo) reg_lo = r;
            if (r > reg_hi) reg_hi = r;
        }
    }
    if (reg_hi < reg_lo) reg_lo = reg_hi = 0;
    if (!(wanted = calloc((size_t)(reg_hi - reg_lo) + 1, sizeof *wanted))) goto out;
    memcpy(copy, code, sizeof *copy * (size_t)len);
    uint32_t stamp = 0;
    for (int32_t b0 = 0, b1; b0 < len; b0 = b1) {
        for (b1 = b0 + 1; !leader[b1]; b1++) {}
        int32_t n = b1 - b0;
        bool has_load = false;
        for (int32_t i = b0 + 1; i < b1; i++) has_load |= is_load(&code[i]);
        if (n < 3 || !has_load) continue;
        sched_block b = {.n = n, .code = copy + b0, .deps = deps + b0, .feeds_load = feeds_load, .order = order};
        mark_feeds_load(&b, wanted, reg_lo, ++stamp);
        schedule_block(&b);
        for (int32_t pos = 0; pos < n; pos++) code[b0 + pos] = copy[b0 + b.order[pos]];
    }
out:
    free(leader);
    free(deps);
    free(copy);
    free(feeds_load);
    free(order);
    free(wanted);
}
