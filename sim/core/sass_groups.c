/* Matching a SASS listing's wide accesses to groups of PTX accesses.
 *
 * Per kernel, source line, space and direction: where the listing has more
 * accesses of V bytes (8 or 16) than the PTX has, each extra one is taken
 * to be ptxas's merge of V/W PTX accesses of W bytes on that line with one
 * base operand and offsets o, o+W, ... (o a multiple of V, the base known
 * to be aligned to V: below), in program order.  Only ld and st of .shared
 * and .global are matched.  Functional behaviour stays that of the PTX; the
 * counters (exec_mem.c) and the timing model (sm_lsu.c) see the group's
 * leader as the one wide access and its followers as none. */
#include "sass_groups.h"

#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "warp.h"
#include "../../frontend/ptx/ptx_ir.h"   /* at load time: the kernels' mangled names */

/* ---- known alignment of address registers --------------------------------
 *
 * ptxas merges accesses only where it knows the base address is aligned to
 * the wide access.  The matcher does the same with a small dataflow: the
 * trailing zero bits every value of a register is known to have, over all
 * its definitions (mov, cvt, cvta, add, sub, shl, mul, mad, and; anything
 * else 0), iterated to a fixed point.  A shared variable's address counts
 * as 16-byte aligned: ptxas lays shared variables out itself (the lab
 * listings place every array at a multiple of 16 bytes) whatever .align the
 * PTX declares. */

#define TZ_MAX 8            /* enough for 16-byte accesses */
#define SHARED_SYM_TZ 4

static uint8_t min8(uint8_t a, uint8_t b) { return a < b ? a : b; }
static uint8_t add_tz(uint8_t a, uint8_t b) { return min8((uint8_t)(a + b), TZ_MAX); }

static uint8_t imm_tz(uint64_t v)
{
    return v ? min8((uint8_t)__builtin_ctzll(v), TZ_MAX) : TZ_MAX;
}

static uint8_t opnd_tz(const uint8_t *tz, const ws_opnd *o)
{
    switch (o->kind) {
    case WS_OK_REG: return tz[o->reg];
    case WS_OK_IMM: return o->sym >= 0 ? min8(imm_tz(o->imm), SHARED_SYM_TZ) : imm_tz(o->imm);
    default: return 0;
    }
}

/* Known trailing zeros of what in writes to its first operand. */
static uint8_t def_tz(const uint8_t *tz, const ws_insn *in)
{
    const ws_opnd *a = &in->ops[1], *b = &in->ops[2], *c = &in->ops[3];
    if (in->cls == WS_I_MOV || in->cls == WS_I_CVTA) return opnd_tz(tz, a);
    if (in->cls != WS_I_ALU) return 0;
    switch (in->m.op) {
    case PTX_OP_CVT: return opnd_tz(tz, a);
    case PTX_OP_ADD: case PTX_OP_SUB: return min8(opnd_tz(tz, a), opnd_tz(tz, b));
    case PTX_OP_AND: {
        uint8_t x = opnd_tz(tz, a), y = opnd_tz(tz, b);
        return x > y ? x : y;
    }
    case PTX_OP_SHL:
        if (b->kind != WS_OK_IMM) return opnd_tz(tz, a);
        return add_tz(opnd_tz(tz, a), b->imm > TZ_MAX ? TZ_MAX : (uint8_t)b->imm);
    case PTX_OP_MUL: return in->m.flags & PTX_F_HI ? 0 : add_tz(opnd_tz(tz, a), opnd_tz(tz, b));
    case PTX_OP_MAD:
        return in->m.flags & PTX_F_HI ? 0 : min8(add_tz(opnd_tz(tz, a), opnd_tz(tz, b)), opnd_tz(tz, c));
    default: return 0;
    }
}

static bool lower(uint8_t *tz, int32_t reg, uint8_t v)
{
    if (reg < 0 || tz[reg] <= v) return false;
    tz[reg] = v;
    return true;
}

/* tz[reg] for every register of p; NULL when out of memory. */
static uint8_t *known_alignment(const ws_program *p)
{
    uint8_t *tz = malloc((size_t)p->nregs + 1);
    if (!tz) return NULL;
    memset(tz, TZ_MAX, (size_t)p->nregs + 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t pc = 0; pc < p->ncode; pc++) {
            const ws_insn *in = &p->code[pc];
            const ws_opnd *d = &in->ops[0];
            if (in->nops == 0) continue;
            if (d->kind == WS_OK_REG) {
                changed |= lower(tz, d->reg, def_tz(tz, in));
                changed |= lower(tz, d->reg2, 0);
            } else if (d->kind == WS_OK_VEC) {
                for (int32_t e = 0; e < d->nelems; e++) {
                    const ws_opnd *el = &p->vec[d->elem0 + e];
                    if (el->kind == WS_OK_REG) changed |= lower(tz, el->reg, 0);
                }
            }
        }
    }
    return tz;
}

/* ---- matching ------------------------------------------------------------ */

typedef struct cand {
    int32_t pc;
    uint32_t width;
    bool taken;
} cand;

static const ws_opnd *address_of(const ws_insn *in)
{
    return &in->ops[in->cls == WS_I_LD ? 1 : 0];
}

/* A plain ld or st of .shared or .global with a source line: its bytes per
 * lane, else 0. */
static uint32_t access_width(const ws_insn *in)
{
    if ((in->cls != WS_I_LD && in->cls != WS_I_ST) || in->pos.cu_line <= 0) return 0;
    if ((in->space != WS_SP_SHARED && in->space != WS_SP_GLOBAL) || in->m.space == PTX_SPACE_CONST) return 0;
    if (address_of(in)->kind != WS_OK_ADDR) return 0;
    uint32_t nv = in->m.vec > 1 ? in->m.vec : 1;
    return ptx_type_size(in->m.types[0]) * nv;
}

static bool same_key(const ws_insn *a, const ws_insn *b)
{
    return a->pos.cu_line == b->pos.cu_line && a->pos.cu_file == b->pos.cu_file &&
           a->space == b->space && a->cls == b->cls;
}

/* The untaken candidate of the same base, guard and width at offset off. */
static int32_t find_at(const ws_program *p, cand *c, int32_t n, const ws_insn *lead, uint32_t width, uint64_t off)
{
    const ws_opnd *la = address_of(lead);
    for (int32_t i = 0; i < n; i++) {
        const ws_insn *in = &p->code[c[i].pc];
        const ws_opnd *a = address_of(in);
        if (!c[i].taken && c[i].width == width && a->reg == la->reg && a->sym == la->sym &&
            a->imm == off && in->guard == lead->guard && in->guard_neg == lead->guard_neg)
            return i;
    }
    return -1;
}

/* One group of V bytes from c[0..n), marked in p->sass_group; false when
 * there is none. */
static bool take_group(ws_program *p, const uint8_t *tz, cand *c, int32_t n, uint32_t v)
{
    for (int32_t i = 0; i < n; i++) {
        uint32_t w = c[i].width;
        const ws_insn *lead = &p->code[c[i].pc];
        const ws_opnd *a = address_of(lead);
        uint64_t o = a->imm;
        bool aligned = (a->reg < 0 || (1u << tz[a->reg]) % v == 0) && (a->sym < 0 || (1u << SHARED_SYM_TZ) % v == 0);
        if (c[i].taken || w >= v || v % w || o % v || !aligned) continue;
        uint32_t k = v / w;
        int32_t members[16];
        members[0] = i;
        uint32_t found = 1;
        for (; found < k; found++)
            if ((members[found] = find_at(p, c, n, lead, w, o + (uint64_t)found * w)) < 0) break;
        if (found < k) continue;
        /* the leader carries the wide access in time (sm_lsu.c): it must
         * issue before its followers, whose registers wait for its data */
        bool lead_first = true;
        for (uint32_t j = 1; j < k; j++) lead_first &= c[members[j]].pc > c[i].pc;
        if (!lead_first) continue;
        for (uint32_t j = 0; j < k; j++) {
            c[members[j]].taken = true;
            p->sass_group[c[members[j]].pc] = j == 0 ? (uint8_t)k : WS_SASS_MERGED;
            p->sass_lead[c[members[j]].pc] = c[i].pc;
        }
        return true;
    }
    return false;
}

/* The candidates of one line (c[0..n), one key) against the listing. */
static void match_line(ws_program *p, const uint8_t *tz, const ws_sass_listing *l, const ws_sass_kernel *sk,
                       cand *c, int32_t n, ws_sass_applied *out)
{
    const ws_insn *first = &p->code[c[0].pc];
    const char *file = ws_cu_file(p, first);
    ws_sass_space space = first->space == WS_SP_SHARED ? WS_SASS_SHARED : WS_SASS_GLOBAL;
    bool store = first->cls == WS_I_ST;
    for (uint32_t v = 16; v >= 8; v /= 2) {
        uint32_t in_ptx = 0;
        for (int32_t i = 0; i < n; i++) in_ptx += c[i].width == v;
        uint32_t in_sass = ws_sass_count(l, sk, file, first->pos.cu_line, space, store, v);
        for (uint32_t extra = in_sass > in_ptx ? in_sass - in_ptx : 0; extra; extra--) {
            if (take_group(p, tz, c, n, v)) out->groups++;
            else out->unmatched++;
        }
    }
}

static bool apply_kernel(ws_program *p, const uint8_t *tz, const ws_func *fn, const ws_sass_listing *l,
                         const ws_sass_kernel *sk, ws_sass_applied *out)
{
    int32_t len = fn->end - fn->start + 1;
    cand *c = malloc((size_t)len * sizeof *c);
    bool *done = calloc((size_t)len, sizeof *done);
    if (!c || !done) { free(c); free(done); return false; }
    for (int32_t pc = fn->start; pc <= fn->end; pc++) {
        if (done[pc - fn->start] || !access_width(&p->code[pc])) continue;
        int32_t n = 0;
        for (int32_t q = pc; q <= fn->end; q++) {
            uint32_t w = access_width(&p->code[q]);
            if (!w || done[q - fn->start] || !same_key(&p->code[pc], &p->code[q])) continue;
            done[q - fn->start] = true;
            c[n++] = (cand){ .pc = q, .width = w, .taken = false };
        }
        match_line(p, tz, l, sk, c, n, out);
    }
    free(c);
    free(done);
    return true;
}

bool ws_program_apply_sass(ws_program *p, const ws_sass_listing *l, ws_sass_applied *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    free(p->sass_group);
    free(p->sass_lead);
    p->sass_group = calloc((size_t)p->ncode, 1);
    p->sass_lead = calloc((size_t)p->ncode, sizeof *p->sass_lead);
    uint8_t *tz = known_alignment(p);
    if (!p->sass_group || !p->sass_lead || !tz) {
        free(tz);
        ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    for (int32_t i = 0; i < p->nkernels; i++) {
        const ws_func *fn = &p->funcs[p->kernels[i].func];
        const ws_sass_kernel *sk = ws_sass_find(l, fn->f->name);
        if (!sk) continue;
        out->kernels++;
        if (!apply_kernel(p, tz, fn, l, sk, out)) {
            free(tz);
            ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
    }
    free(tz);
    if (!out->kernels) {
        free(p->sass_group);
        free(p->sass_lead);
        p->sass_group = NULL;
        p->sass_lead = NULL;
        ws_error_set(err, WS_ERR_INPUT, "%s: the SASS listing has none of the PTX's kernels "
                     "(a listing of another PTX file?)", l->path);
        return false;
    }
    free(p->sass_source);
    if (!(p->sass_source = strdup(l->path))) {
        ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        return false;
    }
    return true;
}

const char *ws_program_sass_source(const ws_program *p)
{
    return p->sass_group ? p->sass_source : NULL;
}
