/* Rows of register storage (program.h, ws_program_pack_rows).
 *
 * PTX registers are virtual: nvcc gives each value its own, so a kernel
 * names 30 to 300 of them while few hold a live value at once.  A warp
 * stores a row of 32 lanes per row of storage, and a timed launch keeps
 * every resident warp's rows, so a row per register makes the warps'
 * values tens of megabytes that the host's caches cannot hold.
 *
 * A row's lanes are as wide as its registers need: 4 bytes (128 bytes a
 * row) for registers of 32 bits or fewer, predicates included, their
 * values zero-extended; 8 bytes (256) for 64-bit ones.  Storage is counted
 * in units of 128 bytes: a narrow row takes one, a wide row two, and an
 * operand's row is the index of its first unit (most of a kernel's values
 * are 32-bit: the rows of 8-byte lanes they had before made a timed
 * launch's warps nearly twice what they hold).
 *
 * Registers that are never live at the same point of the code share a row:
 * liveness is computed per thread over the function's control-flow graph,
 * and two registers interfere where one is written while the other is live
 * after the instruction.  That is enough for the values of a warp, whose
 * lanes follow their own paths: a write touches only the lanes that execute
 * it, so each lane's slot of a row sees just the writes of its own path.
 * Besides:
 * - a guarded write keeps the old value in the lanes whose guard is false,
 *   so it does not end the old value's life;
 * - an instruction's destinations interfere with each other and with its
 *   sources, so that no handler needs to read every source before it writes;
 * - registers share a row only with registers of the same width, so a row's
 *   values are always cut to one width;
 * - a global atomic's destination shares its row with none: in a timed
 *   launch's window its old values arrive at the window's end;
 * - a register no code names gets no row.
 * The timing model's scoreboard stays per register (insn_deps.h reads reg,
 * not row): with divergent paths run one after the other, a row shared by
 * two registers would make one wait for the other's write, which per
 * register it does not.  A function too large for the analysis keeps a
 * row per register. */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "insn_deps.h"
#include "regset.h"

/* Past these a function keeps a row per register (the analysis' memory
 * grows with registers times instructions and registers squared). */
#define WS_PACK_MAX_REGS 8192
#define WS_PACK_MAX_WORDS (UINT64_C(1) << 22)

typedef struct pack {
    const ws_program *p;
    const ws_func *f;
    int32_t n, len;         /* registers of the function, instructions */
    uint32_t nw;            /* 64-bit words of a set of its registers */
    ws_insn_deps *deps;     /* per instruction, registers relative to reg_base */
    uint64_t *live_in;      /* per instruction */
    uint64_t *adj;          /* per register: those it interferes with */
} pack;

/* Runs body with r each member of set (nw words), in increasing order. */
#define FOR_MEMBERS(set, nw, r) \
    for (uint32_t w_ = 0; w_ < (nw); w_++) \
        for (uint64_t b_ = (set)[w_]; b_; b_ &= b_ - 1) \
            for (int32_t r = (int32_t)(w_ * 64 + (uint32_t)__builtin_ctzll(b_)), once_ = 1; once_; once_ = 0)

/* The registers live after instruction i: those live into its successors. */
static void live_out(const pack *k, int32_t i, uint64_t *out)
{
    int32_t succ[2];
    int ns = ws_cfg_successors(&k->p->code[k->f->start + i], k->f->start + i, succ);
    memset(out, 0, sizeof *out * k->nw);
    for (int j = 0; j < ns; j++) {
        int32_t s = succ[j] - k->f->start;
        if (s < 0 || s >= k->len) continue;
        const uint64_t *in = ws_regset_at(k->live_in, k->nw, s);
        for (uint32_t w = 0; w < k->nw; w++) out[w] |= in[w];
    }
}

/* Backward liveness to its fixed point; out is scratch of nw words. */
static void liveness(pack *k, uint64_t *out)
{
    memset(k->live_in, 0, sizeof *k->live_in * k->nw * (size_t)k->len);
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t i = k->len - 1; i >= 0; i--) {
            const ws_insn_deps *d = &k->deps[i];
            live_out(k, i, out);
            if (k->p->code[k->f->start + i].guard < 0)
                for (uint8_t j = 0; j < d->ndst; j++) out[d->dst[j] / 64] &= ~(UINT64_C(1) << (d->dst[j] % 64));
            for (uint8_t j = 0; j < d->nsrc; j++) ws_regset_add(out, d->src[j]);
            uint64_t *in = ws_regset_at(k->live_in, k->nw, i);
            if (memcmp(in, out, sizeof *out * k->nw)) {
                memcpy(in, out, sizeof *out * k->nw);
                changed = true;
            }
        }
    }
}

static void interfere(pack *k, int32_t a, int32_t b)
{
    if (a == b) return;
    ws_regset_add(ws_regset_at(k->adj, k->nw, a), b);
    ws_regset_add(ws_regset_at(k->adj, k->nw, b), a);
}

/* Each destination against what is live after its instruction, and against
 * the instruction's other destinations and its sources. */
static void interference(pack *k, uint64_t *out)
{
    memset(k->adj, 0, sizeof *k->adj * k->nw * (size_t)k->n);
    for (int32_t i = 0; i < k->len; i++) {
        const ws_insn_deps *d = &k->deps[i];
        if (!d->ndst) continue;
        live_out(k, i, out);
        for (uint8_t j = 0; j < d->ndst; j++) {
            int32_t r = d->dst[j];
            uint64_t *adj = ws_regset_at(k->adj, k->nw, r);
            for (uint32_t w = 0; w < k->nw; w++) adj[w] |= out[w];
            for (uint8_t m = 0; m < d->ndst; m++) interfere(k, r, d->dst[m]);
            for (uint8_t m = 0; m < d->nsrc; m++) interfere(k, r, d->src[m]);
        }
    }
    /* a global atomic's old values reach its destination when its window
     * of cycles ends (timing_window.h), while its warp may go on and write
     * registers whose lives begin after the destination's ends: it shares
     * its row with none */
    for (int32_t i = 0; i < k->len; i++) {
        const ws_insn *in = &k->p->code[k->f->start + i];
        if (in->cls != WS_I_ATOM || in->space != WS_SP_GLOBAL || in->m.op == PTX_OP_RED ||
            in->ops[0].kind != WS_OK_REG)
            continue;
        uint64_t *adj = ws_regset_at(k->adj, k->nw, in->ops[0].reg - k->f->reg_base);
        for (int32_t r = 0; r < k->n; r++) ws_regset_add(adj, r);
    }
    /* the sets filled from live-out sets: make the relation symmetric */
    for (int32_t a = 0; a < k->n; a++) {
        uint64_t *adj = ws_regset_at(k->adj, k->nw, a);
        adj[a / 64] &= ~(UINT64_C(1) << (a % 64));
        FOR_MEMBERS(adj, k->nw, b) ws_regset_add(ws_regset_at(k->adj, k->nw, b), a);
    }
}

/* Greedy colouring in register order: each register named by the code takes
 * the first row of its width that no register it interferes with holds.
 * row[r] relative to the function's first row; returns the rows used. */
static int32_t colour(const pack *k, const bool *named, int32_t *row, uint8_t *row_width, int32_t *taken)
{
    int32_t nrows = 0;
    for (int32_t r = 0; r < k->n; r++) row[r] = -1;
    for (int32_t r = 0; r < k->n; r++) {
        if (!named[r]) continue;
        const uint64_t *adj = ws_regset_at(k->adj, k->nw, r);
        FOR_MEMBERS(adj, k->nw, q)      /* stamp the neighbours' rows with r */
            if (row[q] >= 0) taken[row[q]] = r;
        uint8_t width = k->p->reg_width[k->f->reg_base + r];
        int32_t c = 0;
        while (c < nrows && (row_width[c] != width || taken[c] == r)) c++;
        if (c == nrows) {
            row_width[c] = width;
            taken[c] = -1;
            nrows++;
        }
        row[r] = c;
    }
    return nrows;
}

/* 128-byte units of a row of registers of width bytes. */
static int32_t units_of(uint8_t width)
{
    return width > 4 ? 2 : 1;
}

/* The function's registers onto rows from unit row_base; returns the units
 * it takes, or -1 when out of memory. */
static int32_t pack_function(const ws_program *p, const ws_func *f, int32_t row_base, int32_t *row_of)
{
    int32_t n = f->nregs, len = f->end - f->start + 1;
    int32_t *rel = row_of + f->reg_base;
    pack k = {.p = p, .f = f, .n = n, .len = len, .nw = (uint32_t)(n + 63) / 64};
    bool identity = n > WS_PACK_MAX_REGS || (uint64_t)k.nw * (uint64_t)(len > n ? len : n) > WS_PACK_MAX_WORDS;
    int32_t nrows = -1;
    bool *named = NULL;
    int32_t *row = NULL, *taken = NULL;
    uint8_t *row_width = NULL;
    uint64_t *out = NULL;
    if (!identity) {
        k.deps = malloc(sizeof *k.deps * (size_t)len);
        if (!k.deps) goto done;
        for (int32_t i = 0; i < len && !identity; i++) {
            ws_insn_deps *d = &k.deps[i];
            ws_insn_deps_of(p, &p->code[f->start + i], d);
            /* a list cut short hides registers: no knowing */
            identity = d->ndst >= WS_DEPS_MAX || d->nsrc >= WS_DEPS_MAX;
            for (uint8_t j = 0; j < d->ndst; j++) d->dst[j] -= f->reg_base;
            for (uint8_t j = 0; j < d->nsrc; j++) d->src[j] -= f->reg_base;
        }
    }
    if (identity) {
        nrows = 0;
        for (int32_t r = 0; r < n; r++) {
            rel[r] = row_base + nrows;
            nrows += units_of(p->reg_width[f->reg_base + r]);
        }
        goto done;
    }
    k.live_in = malloc(sizeof *k.live_in * k.nw * (size_t)len);
    k.adj = malloc(sizeof *k.adj * k.nw * (size_t)(n ? n : 1));
    out = malloc(sizeof *out * (k.nw ? k.nw : 1));
    named = calloc((size_t)n + 1, sizeof *named);
    row = malloc(sizeof *row * ((size_t)n + 1));
    taken = malloc(sizeof *taken * ((size_t)n + 1));
    row_width = malloc((size_t)n + 1);
    if (!k.live_in || !k.adj || !out || !named || !row || !taken || !row_width) goto done;
    for (int32_t i = 0; i < len; i++) {
        for (uint8_t j = 0; j < k.deps[i].ndst; j++) named[k.deps[i].dst[j]] = true;
        for (uint8_t j = 0; j < k.deps[i].nsrc; j++) named[k.deps[i].src[j]] = true;
    }
    liveness(&k, out);
    interference(&k, out);
    int32_t ncolours = colour(&k, named, row, row_width, taken);
    /* each colour's first unit (taken is free again) */
    nrows = 0;
    for (int32_t c = 0; c < ncolours; c++) {
        taken[c] = nrows;
        nrows += units_of(row_width[c]);
    }
    for (int32_t r = 0; r < n; r++) rel[r] = row[r] >= 0 ? row_base + taken[row[r]] : -1;
done:
    free(k.deps); free(k.live_in); free(k.adj); free(out);
    free(named); free(row); free(taken); free(row_width);
    return nrows;
}

static void set_rows(const ws_program *p, ws_opnd *o)
{
    o->row = o->reg >= 0 ? p->row_of[o->reg] : -1;
    o->row2 = o->reg2 >= 0 ? p->row_of[o->reg2] : -1;
    o->narrow = o->reg >= 0 && p->reg_width[o->reg] <= 4;
    o->narrow2 = o->reg2 >= 0 && p->reg_width[o->reg2] <= 4;
}

/* An ALU instruction with a handler whose destination and register sources
 * all have narrow rows runs the handler's 4-byte form. */
static bool all_narrow(const ws_insn *in)
{
    if (in->cls != WS_I_ALU || !in->fast || !in->ops[0].narrow) return false;
    for (int i = 1; i < in->nops && i <= 3; i++)
        if (in->ops[i].kind == WS_OK_REG && !in->ops[i].narrow) return false;
    return true;
}

/* ld.shared or st.shared of one 4-byte word between a 4-byte register and
 * the address in a narrow register (plus an offset): most instructions of
 * the course's tiled kernels and shared-memory reductions, which
 * ws_exec_ld and ws_exec_st take on a path of their own. */
static bool shared_word_access(const ws_program *p, const ws_insn *in)
{
    if ((in->cls != WS_I_LD && in->cls != WS_I_ST) || in->space != WS_SP_SHARED || in->m.vec > 1 ||
        ptx_type_size(in->m.types[0]) != 4)
        return false;
    const ws_opnd *r = &in->ops[in->cls == WS_I_LD ? 0 : 1], *a = &in->ops[in->cls == WS_I_LD ? 1 : 0];
    return r->kind == WS_OK_REG && r->narrow && !r->neg && p->reg_width[r->reg] == 4 && a->kind == WS_OK_ADDR &&
           a->reg >= 0 && a->narrow;
}

/* Whether in is an ld.global of one 4-byte word into a 4-byte register
 * from the address in a 64-bit register (WS_IF_GLOBAL_WORD), a lab
 * kernel's commonest load. */
static bool global_word_load(const ws_program *p, const ws_insn *in)
{
    if (in->cls != WS_I_LD || in->space != WS_SP_GLOBAL || in->m.space == PTX_SPACE_CONST || in->m.vec > 1 ||
        ptx_type_size(in->m.types[0]) != 4)
        return false;
    const ws_opnd *r = &in->ops[0], *a = &in->ops[1];
    return r->kind == WS_OK_REG && r->narrow && !r->neg && p->reg_width[r->reg] == 4 && a->kind == WS_OK_ADDR &&
           a->reg >= 0 && !a->narrow;
}

bool ws_program_pack_rows(ws_program *p)
{
    p->row_of = malloc(sizeof *p->row_of * ((size_t)p->nregs + 1));
    if (!p->row_of) return false;
    for (int32_t r = 0; r < p->nregs; r++) p->row_of[r] = -1;
    int32_t next = 0;
    for (int32_t fi = 0; fi < p->nfuncs; fi++) {
        ws_func *f = &p->funcs[fi];
        f->row_base = next;
        f->nrows = 0;
        if (f->start < 0) continue;
        int32_t nrows = pack_function(p, f, next, p->row_of);
        if (nrows < 0) return false;
        f->nrows = nrows;
        next += nrows;
    }
    for (int32_t pc = 0; pc < p->ncode; pc++) {
        ws_insn *in = &p->code[pc];
        in->guard_row = in->guard >= 0 ? p->row_of[in->guard] : -1;
        for (int i = 0; i < WS_MAX_OPERANDS; i++) set_rows(p, &in->ops[i]);
        if (all_narrow(in)) in->flags |= WS_IF_NARROW;
        if (shared_word_access(p, in)) in->flags |= WS_IF_SHARED_WORD;
        if (global_word_load(p, in)) in->flags |= WS_IF_GLOBAL_WORD;
    }
    for (int32_t e = 0; e < p->nvec; e++) set_rows(p, &p->vec[e]);
    return true;
}
