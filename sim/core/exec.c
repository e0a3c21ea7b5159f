/* One step of a warp: fetch, guard, dispatch; register-only instructions. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../base/bits.h"
#include "../base/clock.h"
#include "alu.h"
#include "progress_line.h"
#include "warp.h"
#include "warp_groups.h"
#include "warp_ops.h"

void ws_thread_of(const ws_exec *x, const ws_warp *w, int lane, ws_dim3 *tid)
{
    uint32_t t = w->index * WS_WARP_SIZE + (uint32_t)lane;
    ws_dim3 bd = x->l->block;
    tid->x = t % bd.x;
    tid->y = (t / bd.x) % bd.y;
    tid->z = t / (bd.x * bd.y);
}

void ws_fault(ws_exec *x, const ws_block *b, const ws_warp *w, int lane, int32_t pc,
              const char *fmt, ...)
{
    char *s = x->err->msg;
    size_t cap = sizeof x->err->msg, n;
    x->err->kind = WS_ERR_KERNEL_FAULT;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, cap, fmt, ap);
    va_end(ap);
    n = strlen(s);
    if (lane >= 0) {
        ws_dim3 t;
        ws_thread_of(x, w, lane, &t);
        n += (size_t)snprintf(s + n, cap - n, " by thread (%u,%u,%u)", t.x, t.y, t.z);
    } else if (w) {
        n += (size_t)snprintf(s + n, cap - n, " by warp %u", w->index);
    }
    if (n >= cap) return;
    n += (size_t)snprintf(s + n, cap - n, " in block (%u,%u,%u) of kernel %s",
                          b->idx.x, b->idx.y, b->idx.z, x->p->funcs[x->k->func].shown);
    if (n >= cap || pc < 0) return;
    const ws_insn *in = &x->p->code[pc];
    char mn[96];
    if (in->cls == WS_I_FEND) snprintf(mn, sizeof mn, "end of %s", x->p->funcs[in->func].shown);
    else ws_insn_mnemonic(&in->m, mn, sizeof mn);
    n += (size_t)snprintf(s + n, cap - n, " at pc %d (%s", pc, mn);
    if (n < cap && in->pos.line) {
        const char *path = ws_program_path(x->p);
        n += (size_t)snprintf(s + n, cap - n, ", %s:%d:%d", path ? path : "<ptx>",
                              in->pos.line, in->pos.col);
        if (n < cap && in->pos.cu_line > 0)
            n += (size_t)snprintf(s + n, cap - n, ", %s:%d", ws_cu_file(x->p, in), in->pos.cu_line);
    }
    if (n < cap) snprintf(s + n, cap - n, ")");
}

bool ws_warp_start(ws_exec *x, ws_warp *w, uint32_t index, uint32_t lanes)
{
    w->index = index;
    w->lanes = lanes;
    w->exited = 0;
    w->state = WS_WARP_READY;
    w->g.nframes = 0;
    w->g.wait = WS_WAIT_NONE;
    w->g.reconv_skip = -1;
    w->nothers = 0;
    w->insts = 0;
    w->progress_at = 0;
    memset(w->cc, 0, sizeof w->cc);
    return ws_stack_init(&w->g.stack, x->p->funcs[x->k->func].start, lanes);
}

void ws_warp_free(ws_warp *w)
{
    ws_stack_free(&w->g.stack);
    free(w->g.frames);
    w->g.frames = NULL;
    w->g.framecap = 0;
    ws_warp_groups_free(w);
}

/* ---- operands ----------------------------------------------------------- */

static uint64_t sreg_value(const ws_exec *x, const ws_block *b, const ws_warp *w,
                           uint8_t sreg, uint8_t comp, int lane)
{
    const ws_launch *l = x->l;
    ws_dim3 t;
    uint32_t lt = (uint32_t)(UINT64_C(1) << lane) - 1, le = (uint32_t)((UINT64_C(2) << lane) - 1);
#define DIM(d) (comp == 0 ? (d).x : comp == 1 ? (d).y : (d).z)
    switch (sreg) {
    case PTX_SREG_TID: ws_thread_of(x, w, lane, &t); return DIM(t);
    case PTX_SREG_NTID: return DIM(l->block);
    case PTX_SREG_CTAID: return DIM(b->idx);
    case PTX_SREG_NCTAID: return DIM(l->grid);
    case PTX_SREG_LANEID: return (uint64_t)lane;
    /* where the hardware puts the warp: see launch.c (functional) and
     * ws_sm_start_block (timed) */
    case PTX_SREG_WARPID: return b->warpid0 + w->index;
    case PTX_SREG_NWARPID: return x->nwarpid;
    case PTX_SREG_SMID: return b->smid;
    case PTX_SREG_NSMID: return x->nsmid;
    case PTX_SREG_GRIDID: return 1;
    /* the step's cycle; functional mode counts warp steps (launch.c) */
    case PTX_SREG_CLOCK: return (uint32_t)x->clock;
    case PTX_SREG_CLOCK_HI: return (uint32_t)(x->clock >> 32);
    case PTX_SREG_CLOCK64: return x->clock;
    case PTX_SREG_GLOBALTIMER: return x->clock * 1000;
    case PTX_SREG_LANEMASK_EQ: return UINT32_C(1) << lane;
    case PTX_SREG_LANEMASK_LE: return le;
    case PTX_SREG_LANEMASK_LT: return lt;
    case PTX_SREG_LANEMASK_GE: return (uint32_t)~lt;
    case PTX_SREG_LANEMASK_GT: return (uint32_t)~le;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return l->dynamic_smem;
    case PTX_SREG_TOTAL_SMEM_SIZE: return (uint64_t)x->k->dyn_off + l->dynamic_smem;
    /* the workspace address as nvcc's grid.sync() puts it together:
     * %envreg1 its high word, %envreg2 its low one */
    case PTX_SREG_ENVREG: return comp == 1 ? (uint32_t)(l->grid_workspace >> 32) : (uint32_t)l->grid_workspace;
    default: return 0;
    }
#undef DIM
}

uint64_t ws_opnd_lane(const ws_exec *x, const ws_block *b, const ws_warp *w,
                      const ws_opnd *o, int lane)
{
    switch (o->kind) {
    case WS_OK_REG: return o->neg ? !ws_reg_get(w, o, lane) : ws_reg_get(w, o, lane);
    case WS_OK_IMM: return o->imm + (o->sym >= 0 ? x->k->shared_off[o->sym] : 0);
    case WS_OK_SREG: return sreg_value(x, b, w, o->sreg, o->comp, lane);
    default: return 0;
    }
}

/* %tid.comp of every lane: lane 0's coordinates divided out once, the
 * others counted on from it. */
static void tid_row(const ws_exec *x, const ws_warp *w, uint8_t comp, uint64_t row[WS_WARP_SIZE])
{
    ws_dim3 t, bd = x->l->block;
    ws_thread_of(x, w, 0, &t);
    if ((uint64_t)t.x + WS_WARP_SIZE <= bd.x) {     /* the warp within one row of the block */
        for (int i = 0; i < WS_WARP_SIZE; i++) row[i] = comp == 0 ? t.x + (uint64_t)i : comp == 1 ? t.y : t.z;
        return;
    }
    for (int i = 0; i < WS_WARP_SIZE; i++) {
        row[i] = comp == 0 ? t.x : comp == 1 ? t.y : t.z;
        if (++t.x == bd.x) {
            t.x = 0;
            if (++t.y == bd.y) { t.y = 0; t.z++; }
        }
    }
}

const uint64_t *ws_opnd_row(const ws_exec *x, const ws_block *b, const ws_warp *w,
                            const ws_opnd *o, uint64_t scratch[WS_WARP_SIZE])
{
    switch (o->kind) {
    case WS_OK_REG: {
        const uint64_t *r = ws_row_view(w, o->row, o->narrow, scratch);
        if (!o->neg) return r;
        for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = !r[i];
        return scratch;
    }
    case WS_OK_IMM: {
        uint64_t v = o->imm + (o->sym >= 0 ? x->k->shared_off[o->sym] : 0);
        for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = v;
        return scratch;
    }
    case WS_OK_SREG:
        switch (o->sreg) {
        case PTX_SREG_TID:
            tid_row(x, w, o->comp, scratch);
            break;
        case PTX_SREG_LANEID: case PTX_SREG_LANEMASK_EQ: case PTX_SREG_LANEMASK_LE:
        case PTX_SREG_LANEMASK_LT: case PTX_SREG_LANEMASK_GE: case PTX_SREG_LANEMASK_GT:
            for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = sreg_value(x, b, w, o->sreg, o->comp, i);
            break;
        default: {      /* the same in every lane */
            uint64_t v = sreg_value(x, b, w, o->sreg, o->comp, 0);
            for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = v;
            break;
        }
        }
        return scratch;
    default:
        memset(scratch, 0, sizeof(uint64_t) * WS_WARP_SIZE);
        return scratch;
    }
}

/* ws_opnd_row with its commonest case inline. */
static inline const uint64_t *opnd_row(const ws_exec *x, const ws_block *b, const ws_warp *w,
                                       const ws_opnd *o, uint64_t scratch[WS_WARP_SIZE])
{
    if (o->kind == WS_OK_REG && !o->neg && !o->narrow) return ws_row64(w, o->row);
    if (o->kind == WS_OK_IMM && o->sym < 0) {
        for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = o->imm;
        return scratch;
    }
    return ws_opnd_row(x, b, w, o, scratch);
}

static uint64_t reg_mask(const ws_program *p, int32_t reg)
{
    uint32_t s = p->reg_width[reg];
    return s >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * s)) - 1;
}

/* ---- register-only classes --------------------------------------------- */

static const uint64_t zero_row[WS_WARP_SIZE];
static const uint32_t zero_row32[WS_WARP_SIZE];

/* A source of a narrow instruction (WS_IF_NARROW) as 4-byte lanes: a
 * narrow row itself, anything else cut to its low 32 bits in scratch. */
static inline const uint32_t *opnd_row32(const ws_exec *x, const ws_block *b, const ws_warp *w,
                                         const ws_opnd *o, uint32_t scratch[WS_WARP_SIZE])
{
    if (o->kind == WS_OK_REG && o->narrow && !o->neg) return ws_row32(w, o->row);
    if (o->kind == WS_OK_IMM && o->sym < 0) {
        for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = (uint32_t)o->imm;
        return scratch;
    }
    uint64_t wide[WS_WARP_SIZE];
    const uint64_t *r = ws_opnd_row(x, b, w, o, wide);
    for (int i = 0; i < WS_WARP_SIZE; i++) scratch[i] = (uint32_t)r[i];
    return scratch;
}

static void exec_alu(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_opnd *d = &in->ops[0];
    if (in->flags & WS_IF_NARROW) {
        uint32_t scratch[3][WS_WARP_SIZE];
        const uint32_t *s[3] = {zero_row32, zero_row32, zero_row32};
        for (int i = 1; i < in->nops && i <= 3; i++)
            s[i - 1] = opnd_row32(x, b, w, &in->ops[i], scratch[i - 1]);
        ws_alu_fast_fns32[in->fast](mask, ws_row32(w, d->row), s[0], s[1], s[2]);
        return;
    }
    uint64_t scratch[4][WS_WARP_SIZE], view[2][WS_WARP_SIZE];
    if (in->fast) {     /* operands of both widths: the 8-byte form on widened rows */
        const uint64_t *s[3] = {zero_row, zero_row, zero_row};
        for (int i = 1; i < in->nops && i <= 3; i++)
            s[i - 1] = opnd_row(x, b, w, &in->ops[i], scratch[i - 1]);
        uint64_t *dst = ws_row_view(w, d->row, d->narrow, view[0]);
        ws_alu_fast_fns[in->fast](mask, dst, s[0], s[1], s[2]);
        ws_row_put(w, d->row, d->narrow, dst);
        return;
    }
    const uint64_t *src[4] = {NULL, NULL, NULL, NULL};
    uint64_t *dst[2] = {NULL, NULL};
    for (int i = 1; i < in->nops && i <= 4; i++)
        src[i - 1] = opnd_row(x, b, w, &in->ops[i], scratch[i - 1]);
    if (d->kind == WS_OK_REG) {
        dst[0] = ws_row_view(w, d->row, d->narrow, view[0]);
        if (d->reg2 >= 0) dst[1] = ws_row_view(w, d->row2, d->narrow2, view[1]);
    }
    ws_alu_run((ws_alu_family)in->alu, &in->m, mask, dst, src, (in->flags & WS_IF_CARRY) ? w->cc : NULL);
    /* cvt to a signed type narrower than its register sign-extends to the
     * register's width (decode's resolve_exec). */
    if (in->sext_from) {
        uint32_t bits = in->sext_from;
        uint64_t rm = in->sext_to >= 64 ? UINT64_MAX : (UINT64_C(1) << in->sext_to) - 1;
        FOR_LANES(mask, lane) {
            uint64_t v = dst[0][lane];
            if (v >> (bits - 1) & 1) dst[0][lane] = (v | ~((UINT64_C(1) << bits) - 1)) & rm;
        }
    }
    if (dst[0]) ws_row_put(w, d->row, d->narrow, dst[0]);
    if (dst[1]) ws_row_put(w, d->row2, d->narrow2, dst[1]);
}

static void exec_mov(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_opnd *o = &in->ops[0], *so = &in->ops[1];
    if (o->kind != WS_OK_REG) return;
    uint64_t m = in->wmask;
    if (o->narrow) {
        uint32_t *d = ws_row32(w, o->row), m32 = (uint32_t)m;
        if (so->kind == WS_OK_REG && so->narrow && !so->neg) {
            const uint32_t *r = ws_row32(w, so->row);
            FOR_LANES_DO(mask, lane, d[lane] = r[lane] & m32);
        } else {
            uint64_t scratch[WS_WARP_SIZE];
            const uint64_t *r = opnd_row(x, b, w, so, scratch);
            FOR_LANES_DO(mask, lane, d[lane] = (uint32_t)r[lane] & m32);
        }
        return;
    }
    uint64_t *d = ws_row64(w, o->row), scratch[WS_WARP_SIZE];
    const uint64_t *r = opnd_row(x, b, w, so, scratch);
    if (mask == UINT32_MAX) {
        /* through a local row: a loop the compiler vectorizes */
        uint64_t v[WS_WARP_SIZE];
        for (int i = 0; i < WS_WARP_SIZE; i++) v[i] = r[i] & m;
        memcpy(d, v, sizeof v);
    } else {
        FOR_LANES(mask, lane) d[lane] = r[lane] & m;
    }
}

/* mov d, {a, b, ...} and mov {a, b, ...}, d: elements of equal width. */
static void exec_pack(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint32_t mask, bool pack)
{
    const ws_opnd *v = &in->ops[pack ? 1 : 0], *s = &in->ops[pack ? 0 : 1];
    uint32_t bits = ptx_type_size(in->m.types[0]) * 8 / (v->nelems ? v->nelems : 1);
    uint64_t em = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    const ws_opnd *el = &x->p->vec[v->elem0];
    FOR_LANES(mask, lane) {
        if (pack) {
            uint64_t r = 0;
            for (int k = 0; k < v->nelems; k++)
                r |= (ws_opnd_lane(x, b, w, &el[k], lane) & em) << (k * bits);
            if (s->kind == WS_OK_REG) ws_reg_set(w, s, lane, r & reg_mask(x->p, s->reg));
        } else {
            uint64_t r = ws_opnd_lane(x, b, w, s, lane);
            for (int k = 0; k < v->nelems; k++)
                if (el[k].kind == WS_OK_REG)
                    ws_reg_set(w, &el[k], lane, (r >> (k * bits)) & em);
        }
    }
}

/* ---- the step ----------------------------------------------------------- */

/* ---- the watchdog ------------------------------------------------------ */

void ws_watchdog_start(ws_exec *x)
{
    x->steps = x->stats->warp_insts;
    x->progress_at = x->steps;
    x->deadline_ns = x->l->timeout_s > 0 ? ws_clock_ns() + (uint64_t)(x->l->timeout_s * 1e9) : 0;
    x->spin_limit = x->l->progress_limit ? x->l->progress_limit : WS_DEFAULT_PROGRESS_LIMIT;
    x->step_cap = x->l->max_warp_insts ? x->l->max_warp_insts : UINT64_MAX;
    /* watchdog_check polls the clock every 4,096 steps, the progress line
     * every WS_PROGRESS_POLL_STEPS */
    x->poll_mask = x->deadline_ns ? 0xfff : x->l->progress ? WS_PROGRESS_POLL_STEPS - 1 : UINT64_MAX;
}

/* Where the warps of b are: "warp 0 at pc 7 (spin.ptx:14, spin.cu:9); ...". */
static void where_warps(const ws_exec *x, const ws_block *b, char *s, size_t cap)
{
    const char *path = ws_program_path(x->p);
    size_t n = 0;
    s[0] = '\0';
    for (uint32_t i = 0; i < b->nwarps && n < cap; i++) {
        ws_warp *w = &b->warps[i];
        int32_t pc = w->state == WS_WARP_DONE ? -1 : ws_warp_next_pc(w);
        if (pc < 0) continue;
        const ws_insn *in = &x->p->code[pc];
        n += (size_t)snprintf(s + n, cap - n, " warp %u at pc %d (%s:%d", i, pc, path ? path : "<ptx>",
                              in->pos.line);
        if (n < cap && in->pos.cu_line > 0)
            n += (size_t)snprintf(s + n, cap - n, ", %s:%d", ws_cu_file(x->p, in), in->pos.cu_line);
        if (n < cap) n += (size_t)snprintf(s + n, cap - n, ");");
    }
}

/* When blocks of the grid wait for a slot: which blocks are resident, how
 * many wait, and why that matters to a spinning kernel; else "". */
static void blocks_waiting(const ws_exec *x, char *s, size_t cap)
{
    s[0] = '\0';
    if (x->blocks_started >= x->grid_blocks) return;
    uint64_t first = x->blocks_started, resident = x->blocks_started - x->blocks_done;
    const ws_dim3 *g = &x->l->grid;
    snprintf(s, cap, " Of the grid's %llu blocks, %llu are resident (blocks 0 to %llu have started) and %llu "
             "%s for a slot, from block (%u,%u,%u) on; a slot frees only when a resident block ends, so a "
             "block that waits for a block not yet started waits for ever (blocks are not guaranteed to be "
             "resident together).",
             (unsigned long long)x->grid_blocks, (unsigned long long)resident,
             (unsigned long long)(x->blocks_started - 1), (unsigned long long)(x->grid_blocks - first),
             x->grid_blocks - first == 1 ? "waits" : "wait",
             (unsigned)(first % g->x), (unsigned)(first / g->x % g->y),
             (unsigned)(first / ((uint64_t)g->x * g->y)));
}

/* Stops a launch that runs past its limits: an instruction count, a
 * stretch without progress (a kernel spinning on a value no thread will
 * change), or wall-clock time.  The messages say "timed out", which the
 * runtime reports as cudaErrorLaunchTimeout, as a GPU's watchdog would. */
static bool watchdog_check(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc)
{
    uint64_t n = x->steps;
    if (x->l->max_warp_insts && n >= x->l->max_warp_insts) {
        ws_fault(x, b, w, -1, pc, "launch timed out: instruction limit exceeded (%llu warp instructions; "
                 "--max-warp-insts N raises the limit, 0 removes it)",
                 (unsigned long long)x->l->max_warp_insts);
        x->err->kind = WS_ERR_TIMEOUT;
        return false;
    }
    /* Spinning: no warp has made progress for limit warp instructions, and
     * this warp none for its share of them, so thousands of warps that
     * compute long before their first store are not taken for spinning.
     * Its share: limit / 8; with more than 64 warps resident, which share
     * the instructions, 8 / (their number) of the limit, down to limit /
     * 256, so that hundreds of spinning warps (all the resident blocks of
     * a big GPU waiting for one that cannot start) are stopped after about
     * the limit, not hundreds of times it; thousands of warps computing
     * still need 2^16 instructions each without a store anywhere. */
    if (x->l->progress && (n & (WS_PROGRESS_POLL_STEPS - 1)) == 0)     /* the progress line (reuse's hook) */
        ws_progress_line_poll(x->l->progress, &(ws_progress_state){.blocks_done = x->blocks_done,
                              .blocks_total = x->grid_blocks, .cycles = x->clock, .warp_insts = n});
    uint64_t limit = x->l->progress_limit ? x->l->progress_limit : WS_DEFAULT_PROGRESS_LIMIT;
    uint64_t resident = (x->blocks_started - x->blocks_done) * b->nwarps, share = limit / 8;
    if (resident > 64) share = limit / resident * 8 > limit / 256 ? limit / resident * 8 : limit / 256;
    bool spinning = n - x->progress_at >= limit && w->insts - w->progress_at >= share;
    bool late = x->deadline_ns && (n & 0xfff) == 0 && ws_clock_ns() > x->deadline_ns;
    if (!spinning && !late) return true;
    char where[640], slots[384];
    blocks_waiting(x, slots, sizeof slots);
    where_warps(x, b, where, sizeof where - strlen(slots) / 2);
    int len;    /* a message longer than the error's buffer is cut at its end */
    if (spinning)
        len = snprintf(x->err->msg, sizeof x->err->msg,
                       "launch timed out: kernel %s made no progress in %llu warp instructions (no store, no "
                       "atomic that changed memory, no barrier completed, no thread exited): spinning on a value "
                       "no thread will change? In block (%u,%u,%u):%s%s (--progress-limit N raises the limit)",
                       x->p->funcs[x->k->func].shown, (unsigned long long)limit, b->idx.x, b->idx.y, b->idx.z,
                       where, slots);
    else
        len = snprintf(x->err->msg, sizeof x->err->msg,
                       "launch timed out: kernel %s ran past --timeout %.3g s of wall-clock time, in block "
                       "(%u,%u,%u):%s%s", x->p->funcs[x->k->func].shown, x->l->timeout_s,
                       b->idx.x, b->idx.y, b->idx.z, where, slots);
    (void)len;
    x->err->kind = WS_ERR_TIMEOUT;
    return false;
}

/* watchdog_check's limits, the common case of none reached tested inline
 * (a step it lets through to watchdog_check, which tests each limit
 * itself, costs only time). */
static inline bool watchdog_ok(ws_exec *x, ws_block *b, ws_warp *w, int32_t pc)
{
    uint64_t n = x->steps;
    if (n - x->progress_at < x->spin_limit && n < x->step_cap && (n & x->poll_mask) != 0) return true;
    return watchdog_check(x, b, w, pc);
}

/* The lanes whose predicate (a narrow row) is not zero. */
static inline uint32_t pred_mask(const uint32_t g[WS_WARP_SIZE])
{
#ifdef __SSE2__
    /* four lanes at a time, as movemask bits */
    uint32_t zero = 0;
    for (int i = 0; i < WS_WARP_SIZE; i += 4) {
        __m128i e = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(g + i)),
                                    _mm_setzero_si128());
        zero |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(e)) << i;
    }
    return ~zero;
#else
    uint32_t gm = 0;
    for (int i = 0; i < WS_WARP_SIZE; i++) gm |= (uint32_t)(g[i] != 0) << i;
    return gm;
#endif
}

static inline uint32_t lanes_in(uint32_t m)
{
    return m == UINT32_MAX ? WS_WARP_SIZE : ws_popcount32(m);
}

int32_t ws_warp_next_pc(ws_warp *w)
{
    return ws_stack_settle(&w->g.stack) ? ws_stack_top(&w->g.stack)->pc : -1;
}

ws_step_result ws_warp_step(ws_exec *x, ws_block *b, ws_warp *w, uint64_t clock, ws_step_info *info)
{
    x->clock = clock;
    x->smid = b->smid;
    if (w->state == WS_WARP_DONE) return WS_STEP_DONE;
    if (w->state == WS_WARP_BARRIER) return WS_STEP_BLOCKED;
    if (!ws_stack_settle(&w->g.stack)) {
        if (!ws_warp_settle(x, b, w)) return WS_STEP_FAULT;
        if (w->state != WS_WARP_READY) return w->state == WS_WARP_DONE ? WS_STEP_DONE : WS_STEP_BLOCKED;
    }
    ws_stack_entry *top = ws_stack_top(&w->g.stack);
    int32_t pc = top->pc;
    uint32_t active = top->mask;
    const ws_insn *in = &x->p->code[pc];

    if (!watchdog_ok(x, b, w, pc)) return WS_STEP_FAULT;
    uint32_t nactive = lanes_in(active);
    x->stats->warp_insts++;
    x->steps++;
    x->stats->thread_insts += nactive;
    w->insts++;
    if (x->l->pc_counts) {
        x->l->pc_counts[pc].warp_insts++;
        x->l->pc_counts[pc].thread_insts += nactive;
    }

    uint32_t mask = active;
    if (in->guard >= 0) {
        uint32_t gm = pred_mask(ws_row32(w, in->guard_row));
        mask = active & (in->guard_neg ? ~gm : gm);
    }
    if (info) {
        info->pc = pc;
        info->active = active;
        info->mask = mask;
        info->mem = false;
    }

    bool ok = true;
    switch (in->cls) {
    case WS_I_ALU: exec_alu(x, b, w, in, mask); break;
    case WS_I_MOV: exec_mov(x, b, w, in, mask); break;
    case WS_I_PACK: exec_pack(x, b, w, in, mask, true); break;
    case WS_I_UNPACK: exec_pack(x, b, w, in, mask, false); break;
    case WS_I_CVTA: ok = ws_exec_cvta(x, b, w, in, mask); break;
    case WS_I_LD: ok = ws_exec_ld(x, b, w, in, pc, mask, info); break;
    case WS_I_ST: ok = ws_exec_st(x, b, w, in, pc, mask, info); break;
    case WS_I_ATOM: ok = ws_exec_atom(x, b, w, in, pc, mask, info); break;
    case WS_I_WMMA: ok = ws_exec_wmma(x, b, w, in, pc, mask, info); break;
    case WS_I_TEX: ok = ws_exec_tex(x, b, w, in, pc, mask, info); break;
    case WS_I_TXQ: ok = ws_exec_txq(x, b, w, in, pc, mask); break;
    case WS_I_NOP: break;
    case WS_I_SHFL: case WS_I_VOTE: case WS_I_WARPSYNC: case WS_I_REDUX: case WS_I_MATCH: {
        ws_step_result r = ws_exec_warpsync(x, b, w, in, pc, active, mask);
        if (r != WS_STEP_FAULT && w->nothers && !ws_warp_settle(x, b, w)) return WS_STEP_FAULT;
        return r;
    }
    case WS_I_CP_ASYNC: ok = ws_exec_cp_async(x, b, w, in, pc, mask, info); break;
    case WS_I_MBARRIER: ok = ws_exec_mbarrier(x, b, w, in, pc, mask, info); break;
    case WS_I_ACTIVEMASK:
        if (in->ops[0].kind == WS_OK_REG)
            FOR_LANES(mask, lane) ws_reg_set(w, &in->ops[0], lane, mask);
        break;
    default: {
        ws_step_result r = ws_exec_ctrl(x, b, w, in, pc, active, mask);
        if (r == WS_STEP_FAULT) return r;
        if (w->nothers || !ws_stack_settle(&w->g.stack)) {
            if (!ws_warp_settle(x, b, w)) return WS_STEP_FAULT;
            if (w->state == WS_WARP_DONE) return WS_STEP_DONE;
            if (w->state == WS_WARP_BARRIER) return WS_STEP_BLOCKED;
        }
        return r;
    }
    }
    if (!ok) return WS_STEP_FAULT;
    top->pc = pc + 1;
    /* With several groups, each step may bring two of them together. */
    if (w->nothers && !ws_warp_settle(x, b, w)) return WS_STEP_FAULT;
    return WS_STEP_OK;
}
