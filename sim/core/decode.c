/* Decoding a module's IR into the program's flat code array. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alu.h"
#include "cfg.h"
#include "insn_shape.h"
#include "insn_table.h"
#include "program.h"
#include "../../frontend/ptx/ptx_query.h"
#include "schedule.h"
#include "warp_ops.h"

_Static_assert(WS_MAX_OPERANDS == PTX_MAX_OPERANDS, "a decoded instruction holds every operand the IR may");

/* Per-function symbol facts the decoder needs while it resolves names. */
typedef struct dfunc {
    uint64_t *param_addr;   /* params: kernel buffer offset or thread frame address */
    uint64_t *ret_addr;
    uint64_t *local_addr;   /* locals: local offset / frame address / 0 for shared */
    int32_t *local_sym;     /* shared symbol index of a local, else -1 */
} dfunc;

typedef struct dctx {
    ws_program *p;
    dfunc *df;
    int32_t *gsym;          /* module globals: shared symbol index, else -1 */
    ws_error *err;
} dctx;

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

void ws_load_error(const ws_program *p, const ptx_srcloc *loc, ws_error *err,
                   const char *fmt, ...)
{
    err->kind = WS_ERR_INPUT;
    int n = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: error: ",
                     p->m->path ? p->m->path : "<ptx>", loc ? loc->line : 0, loc ? loc->col : 0);
    if (n < 0 || (size_t)n >= sizeof err->msg) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
}

const char *ws_insn_mnemonic(const ptx_mods *m, char *buf, size_t size)
{
    static const char *const spaces[] = {"", "", ".global", ".shared", ".local", ".const", ".param"};
    static const char *const subops[PTX_SUB_COUNT] = {
        [PTX_SUB_SHFL_UP] = ".up", [PTX_SUB_SHFL_DOWN] = ".down",
        [PTX_SUB_SHFL_BFLY] = ".bfly", [PTX_SUB_SHFL_IDX] = ".idx",
        [PTX_SUB_VOTE_ALL] = ".all", [PTX_SUB_VOTE_ANY] = ".any",
        [PTX_SUB_VOTE_UNI] = ".uni", [PTX_SUB_VOTE_BALLOT] = ".ballot",
        [PTX_SUB_ATOM_ADD] = ".add", [PTX_SUB_ATOM_MIN] = ".min", [PTX_SUB_ATOM_MAX] = ".max",
        [PTX_SUB_ATOM_EXCH] = ".exch", [PTX_SUB_ATOM_CAS] = ".cas", [PTX_SUB_ATOM_INC] = ".inc",
        [PTX_SUB_ATOM_DEC] = ".dec", [PTX_SUB_ATOM_AND] = ".and", [PTX_SUB_ATOM_OR] = ".or",
        [PTX_SUB_ATOM_XOR] = ".xor",
        [PTX_SUB_BAR_SYNC] = ".sync", [PTX_SUB_BAR_ARRIVE] = ".arrive",
        [PTX_SUB_BAR_RED] = ".red", [PTX_SUB_BAR_WARP_SYNC] = ".warp.sync",
        [PTX_SUB_WMMA_LOAD_A] = ".load.a", [PTX_SUB_WMMA_LOAD_B] = ".load.b",
        [PTX_SUB_WMMA_LOAD_C] = ".load.c", [PTX_SUB_WMMA_STORE_D] = ".store.d",
        [PTX_SUB_WMMA_MMA] = ".mma",
        [PTX_SUB_CP_ASYNC] = ".async", [PTX_SUB_CP_COMMIT_GROUP] = ".async.commit_group",
        [PTX_SUB_CP_WAIT_GROUP] = ".async.wait_group", [PTX_SUB_CP_WAIT_ALL] = ".async.wait_all",
        [PTX_SUB_CP_MBARRIER_ARRIVE] = ".async.mbarrier.arrive",
        [PTX_SUB_MBAR_INIT] = ".init", [PTX_SUB_MBAR_ARRIVE] = ".arrive",
        [PTX_SUB_MBAR_ARRIVE_DROP] = ".arrive_drop", [PTX_SUB_MBAR_TEST_WAIT] = ".test_wait",
        [PTX_SUB_MBAR_TRY_WAIT] = ".try_wait", [PTX_SUB_MBAR_PENDING_COUNT] = ".pending_count",
        [PTX_SUB_MBAR_INVAL] = ".inval",
        [PTX_SUB_TLD4_R] = ".r", [PTX_SUB_TLD4_G] = ".g", [PTX_SUB_TLD4_B] = ".b", [PTX_SUB_TLD4_A] = ".a",
        [PTX_SUB_TXQ_WIDTH] = ".width", [PTX_SUB_TXQ_HEIGHT] = ".height", [PTX_SUB_TXQ_DEPTH] = ".depth",
        [PTX_SUB_TXQ_NORMALIZED_COORDS] = ".normalized_coords", [PTX_SUB_TXQ_FILTER_MODE] = ".filter_mode",
    };
    static const char *const geoms[PTX_GEOM_COUNT] = {
        [PTX_GEOM_1D] = ".1d", [PTX_GEOM_2D] = ".2d", [PTX_GEOM_3D] = ".3d", [PTX_GEOM_A1D] = ".a1d",
        [PTX_GEOM_A2D] = ".a2d", [PTX_GEOM_CUBE] = ".cube", [PTX_GEOM_ACUBE] = ".acube",
        [PTX_GEOM_2DMS] = ".2dms", [PTX_GEOM_A2DMS] = ".a2dms",
    };
    static const char *const cmps[] = {"", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi",
                                       ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"};
    static const char *const rnds[] = {"", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna"};
    static const struct { uint32_t flag; const char *name; } flags[] = {
        {PTX_F_WIDE, ".wide"}, {PTX_F_HI, ".hi"}, {PTX_F_LO, ".lo"}, {PTX_F_APPROX, ".approx"},
        {PTX_F_FULL, ".full"}, {PTX_F_FTZ, ".ftz"}, {PTX_F_SAT, ".sat"}, {PTX_F_UNI, ".uni"},
        {PTX_F_NC, ".nc"}, {PTX_F_VOLATILE, ".volatile"}, {PTX_F_PARITY, ".parity"},
        {PTX_F_NOINC, ".noinc"}, {PTX_F_NOCOMPLETE, ".noComplete"}, {PTX_F_ABS, ".abs"},
        {PTX_F_NAN, ".NaN"},
    };
    const char *sub = m->subop < PTX_SUB_COUNT && subops[m->subop] ? subops[m->subop] : "";
    /* .sync where the PTX ISA writes it: shfl.sync.up, match.any.sync (bar.sync's is its subop) */
    bool sync = (m->flags & PTX_F_SYNC) && m->op != PTX_OP_BAR && m->op != PTX_OP_BARRIER;
    const char *sync_pre = sync && m->op != PTX_OP_MATCH ? ".sync" : "";
    const char *sync_post = sync && m->op == PTX_OP_MATCH ? ".sync" : "";
    size_t n = (size_t)snprintf(buf, size, "%s%s%s%s%s%s%s", ptx_opcode_name(m->op), sync_pre, sub, sync_post,
                                m->cmp < sizeof cmps / sizeof cmps[0] ? cmps[m->cmp] : "",
                                m->rounding < sizeof rnds / sizeof rnds[0] ? rnds[m->rounding] : "",
                                m->space < PTX_SPACE_COUNT ? spaces[m->space] : "");
    for (size_t i = 0; i < sizeof flags / sizeof flags[0] && n < size; i++)
        if (m->flags & flags[i].flag) n += (size_t)snprintf(buf + n, size - n, "%s", flags[i].name);
    if (n < size && m->geom && m->geom < PTX_GEOM_COUNT) n += (size_t)snprintf(buf + n, size - n, "%s", geoms[m->geom]);
    if (n < size && m->vec > 1) n += (size_t)snprintf(buf + n, size - n, ".v%u", m->vec);
    for (int i = 0; i < m->ntypes && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s", ptx_type_name(m->types[i]));
    return buf;
}

/* ---- symbols ---------------------------------------------------------- */

typedef struct symres {
    ptx_space space;
    uint64_t addr;      /* space-specific address */
    int32_t sym;        /* shared symbol index, else -1 */
    uint64_t size;
    bool is_func;
} symres;

static bool resolve_sym(dctx *c, int32_t fi, const char *name, symres *r)
{
    const ws_program *p = c->p;
    const ptx_function *f = p->funcs[fi].f;
    const dfunc *d = &c->df[fi];
    r->sym = -1;
    r->is_func = false;
    for (int32_t i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name)) {
            *r = (symres){PTX_SPACE_PARAM, d->param_addr[i], -1, ptx_var_size(&f->params[i]), false};
            return true;
        }
    for (int32_t i = 0; i < f->nrets; i++)
        if (!strcmp(f->rets[i].name, name)) {
            *r = (symres){PTX_SPACE_PARAM, d->ret_addr[i], -1, ptx_var_size(&f->rets[i]), false};
            return true;
        }
    for (int32_t i = 0; i < f->nlocals; i++)
        if (!strcmp(f->locals[i].name, name)) {
            *r = (symres){f->locals[i].space, d->local_addr[i], d->local_sym[i],
                          ptx_var_size(&f->locals[i]), false};
            return true;
        }
    for (int32_t i = 0; i < p->m->nglobals; i++)
        if (!strcmp(p->m->globals[i].name, name)) {
            *r = (symres){p->m->globals[i].space, p->globals[i].addr, c->gsym[i],
                          p->globals[i].size, false};
            return true;
        }
    for (int32_t i = 0; i < p->m->nfuncs; i++)
        if (!strcmp(p->m->funcs[i].name, name)) {
            *r = (symres){PTX_SPACE_NONE, 0, -1, 0, true};
            return true;
        }
    return false;
}

/* ---- operands --------------------------------------------------------- */

static ptx_type wide_of(ptx_type t)
{
    switch (t) {
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S32: return PTX_T_S64;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_B16: return PTX_T_B32;
    case PTX_T_B32: return PTX_T_B64;
    default: return t;
    }
}

/* The type of ALU source operand i (0-based among the sources), which is
 * what an immediate there is converted to. */
static ptx_type alu_src_type(const ptx_mods *m, int i)
{
    ptx_type t0 = m->types[0], t1 = m->ntypes > 1 ? m->types[1] : t0;
    switch (m->op) {
    case PTX_OP_CVT: return t1;
    case PTX_OP_SET: return i < 2 ? t1 : PTX_T_PRED;
    case PTX_OP_SETP: case PTX_OP_SELP: return i < 2 ? t0 : PTX_T_PRED;
    case PTX_OP_SLCT: return i < 2 ? t0 : t1;
    case PTX_OP_SHL: case PTX_OP_SHR: return i == 1 ? PTX_T_U32 : t0;
    case PTX_OP_SHF: case PTX_OP_PRMT: case PTX_OP_LOP3: return PTX_T_B32;
    case PTX_OP_BFE: return i >= 1 ? PTX_T_U32 : t0;
    case PTX_OP_BFI: return i >= 2 ? PTX_T_U32 : t0;
    case PTX_OP_MUL: case PTX_OP_MAD:
        if (m->flags & PTX_F_WIDE) return i < 2 ? t0 : wide_of(t0);
        return t0;
    case PTX_OP_DP4A:
        if (i < 2) return i == 0 ? t0 : t1;
        return (ptx_type_is_signed(t0) || ptx_type_is_signed(t1)) ? PTX_T_S32 : PTX_T_U32;
    default: return t0;
    }
}

static uint64_t width_mask(ptx_type t)
{
    uint32_t s = ptx_type_size(t);
    if (t == PTX_T_PRED) return 1;
    return s >= 8 || s == 0 ? UINT64_MAX : (UINT64_C(1) << (8 * s)) - 1;
}

static uint64_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static uint64_t f16_bits(double d) { _Float16 h = (_Float16)d; uint16_t u; memcpy(&u, &h, 2); return u; }

/* An immediate as the canonical value of type t. */
static uint64_t convert_imm(const ptx_operand *o, ptx_type t)
{
    double val;
    if (o->kind == PTX_OPND_IMM_F32) { float f; memcpy(&f, &o->v.f32_bits, 4); val = f; }
    else if (o->kind == PTX_OPND_IMM_F64) val = o->v.f64;
    else val = (double)o->v.i;
    switch (t) {
    case PTX_T_F32:
        return o->kind == PTX_OPND_IMM_F32 ? o->v.f32_bits : f32_bits((float)val);
    case PTX_T_F64:
        return o->kind == PTX_OPND_IMM_F64 ? f64_bits(o->v.f64) : f64_bits(val);
    case PTX_T_F16:
        return o->kind == PTX_OPND_IMM_INT ? (uint64_t)o->v.i & 0xffff : f16_bits(val);
    case PTX_T_PRED:
        return o->kind == PTX_OPND_IMM_INT ? o->v.i != 0 : val != 0;
    default:
        if (o->kind == PTX_OPND_IMM_F32) return o->v.f32_bits & width_mask(t);
        if (o->kind == PTX_OPND_IMM_F64) return f64_bits(o->v.f64) & width_mask(t);
        return (uint64_t)o->v.i & width_mask(t);
    }
}

static bool add_vec_slots(ws_program *p, int32_t n, int32_t *first)
{
    ws_opnd *v = realloc(p->vec, sizeof *v * (size_t)(p->nvec + n));
    if (!v) return false;
    p->vec = v;
    *first = p->nvec;
    p->nvec += n;
    return true;
}

/* Decodes operand o of an instruction of function fi.  t converts
 * immediates; generic says symbols in addresses take their generic address. */
static bool conv_opnd(dctx *c, int32_t fi, const ptx_insn *in, const ptx_operand *o,
                      ptx_type t, bool generic, ws_opnd *out)
{
    ws_program *p = c->p;
    int32_t rb = p->funcs[fi].reg_base;
    memset(out, 0, sizeof *out);
    out->reg = out->reg2 = out->sym = -1;
    out->neg = o->neg;
    switch (o->kind) {
    case PTX_OPND_NONE: out->kind = WS_OK_NONE; return true;
    case PTX_OPND_SINK: out->kind = WS_OK_SINK; return true;
    case PTX_OPND_REG:
        out->kind = WS_OK_REG;
        out->reg = rb + o->reg;
        out->reg2 = o->reg2 >= 0 ? rb + o->reg2 : -1;
        return true;
    case PTX_OPND_IMM_INT: case PTX_OPND_IMM_F32: case PTX_OPND_IMM_F64:
        out->kind = WS_OK_IMM;
        out->imm = convert_imm(o, t);
        return true;
    case PTX_OPND_SREG:
        out->kind = WS_OK_SREG;
        out->sreg = o->v.s.sreg;
        out->comp = o->v.s.component;
        return true;
    case PTX_OPND_SYMBOL: case PTX_OPND_ADDR: {
        bool is_addr = o->kind == PTX_OPND_ADDR;
        out->kind = is_addr ? WS_OK_ADDR : WS_OK_IMM;
        out->imm = is_addr ? (uint64_t)o->offset : 0;
        if (is_addr && o->addr_base == PTX_ADDR_REG) { out->reg = rb + o->reg; return true; }
        if (is_addr && o->addr_base == PTX_ADDR_NONE) return true;
        symres r;
        if (!resolve_sym(c, fi, o->name, &r)) {
            ws_load_error(p, &in->loc, c->err, "unknown symbol '%s'", o->name);
            return false;
        }
        if (r.is_func) {
            ws_load_error(p, &in->loc, c->err,
                          "unsupported: the address of function '%s' (function pointers)", o->name);
            return false;
        }
        out->imm += r.addr;
        out->sym = r.sym;
        if (generic && r.space == PTX_SPACE_SHARED) out->imm += WS_SHARED_WINDOW;
        if (generic && r.space == PTX_SPACE_LOCAL) out->imm += WS_LOCAL_WINDOW;
        if (generic && r.space == PTX_SPACE_PARAM) {
            ws_load_error(p, &in->loc, c->err,
                          "unsupported: generic access to parameter '%s'", o->name);
            return false;
        }
        return true;
    }
    case PTX_OPND_VEC: {
        int32_t first;
        if (o->nelems > 8 || !add_vec_slots(p, o->nelems, &first)) {
            ws_load_error(p, &in->loc, c->err, "vector operand too large");
            return false;
        }
        for (int32_t k = 0; k < o->nelems; k++) {
            ws_opnd e;
            if (!conv_opnd(c, fi, in, &o->elems[k], t, generic, &e)) return false;
            p->vec[first + k] = e;
        }
        out->kind = WS_OK_VEC;
        out->elem0 = first;
        out->nelems = (uint8_t)o->nelems;
        return true;
    }
    default:
        ws_load_error(p, &in->loc, c->err, "unexpected operand");
        return false;
    }
}

/* ---- instructions ------------------------------------------------------ */

static bool unsupported(dctx *c, const ptx_insn *in, const char *why)
{
    char buf[96];
    ws_insn_mnemonic(&in->m, buf, sizeof buf);
    if (why && *why)
        ws_load_error(c->p, &in->loc, c->err, "unsupported instruction '%s': %s", buf, why);
    else
        ws_load_error(c->p, &in->loc, c->err, "unsupported instruction '%s'", buf);
    return false;
}

static ws_space mem_space(uint8_t s)
{
    switch (s) {
    case PTX_SPACE_GLOBAL: case PTX_SPACE_CONST: return WS_SP_GLOBAL;
    case PTX_SPACE_SHARED: return WS_SP_SHARED;
    case PTX_SPACE_LOCAL: return WS_SP_LOCAL;
    case PTX_SPACE_PARAM: return WS_SP_PARAM;
    default: return WS_SP_GENERIC;
    }
}

/* Decodes every operand with one immediate type (non-ALU classes). */
static bool conv_all(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w, ptx_type t)
{
    bool generic = w->space == WS_SP_GENERIC &&
                   (w->cls == WS_I_LD || w->cls == WS_I_ST || w->cls == WS_I_ATOM ||
                    w->cls == WS_I_WMMA || w->cls == WS_I_MBARRIER);
    for (int i = 0; i < in->nops; i++)
        if (!conv_opnd(c, fi, in, &in->ops[i], t, generic, &w->ops[i])) return false;
    return true;
}

static bool add_copy(ws_program *p, uint32_t dst, uint32_t src, uint32_t size)
{
    ws_copy *cp = realloc(p->copies, sizeof *cp * (size_t)(p->ncopies + 1));
    if (!cp) return false;
    p->copies = cp;
    p->copies[p->ncopies++] = (ws_copy){dst, src, size};
    return true;
}

/* call (rets), callee, (args): a call-table entry with its copies. */
static bool decode_call(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w)
{
    ws_program *p = c->p;
    if (in->nops < 3 || in->ops[1].kind != PTX_OPND_SYMBOL)
        return unsupported(c, in, "indirect calls are not supported");
    int32_t callee = -1;
    /* A function may be declared before it is defined: prefer the body. */
    for (int32_t i = 0; i < p->m->nfuncs; i++)
        if (!strcmp(p->m->funcs[i].name, in->ops[1].name) &&
            (callee < 0 || (!p->m->funcs[i].is_decl && !p->m->funcs[i].is_extern)))
            callee = i;
    if (callee < 0) {
        ws_load_error(p, &in->loc, c->err, "call of unknown function '%s'", in->ops[1].name);
        return false;
    }
    const ptx_function *cf = &p->m->funcs[callee];
    bool body = !cf->is_decl && !cf->is_extern;
    if (!body) {
        if (!strcmp(cf->name, "vprintf")) w->cls = WS_I_PRINTF;
        else if (!strcmp(cf->name, "__assertfail")) w->cls = WS_I_ASSERT;
        else {
            ws_load_error(p, &in->loc, c->err,
                          "unsupported: call of external function '%s'", cf->name);
            return false;
        }
    } else {
        w->cls = WS_I_CALL;
    }
    const ptx_operand *rets = &in->ops[0], *args = &in->ops[2];
    int32_t nrets = rets->kind == PTX_OPND_VEC ? rets->nelems : 0;
    int32_t nargs = args->kind == PTX_OPND_VEC ? args->nelems : 0;
    if (body && (nargs != cf->nparams || nrets != cf->nrets)) {
        ws_load_error(p, &in->loc, c->err, "call of '%s' with %d arguments and %d results; it takes %d and %d",
                      cf->name, nargs, nrets, cf->nparams, cf->nrets);
        return false;
    }
    ws_call call = {body ? callee : -1, p->ncopies, nargs, nrets};
    for (int32_t k = 0; k < nargs + nrets; k++) {
        const ptx_operand *o = k < nargs ? &args->elems[k] : &rets->elems[k - nargs];
        symres r;
        if (o->kind != PTX_OPND_SYMBOL || !resolve_sym(c, fi, o->name, &r) ||
            r.space != PTX_SPACE_PARAM || r.addr < WS_TPARAM_BASE)
            return unsupported(c, in, "call arguments must be .param variables of the caller");
        uint32_t mine = (uint32_t)(r.addr - WS_TPARAM_BASE), theirs = 0, size = (uint32_t)r.size;
        if (body) {
            const dfunc *d = &c->df[callee];
            uint64_t a = k < nargs ? d->param_addr[k] : d->ret_addr[k - nargs];
            theirs = (uint32_t)(a - WS_TPARAM_BASE);
            uint64_t s = ptx_var_size(k < nargs ? &cf->params[k] : &cf->rets[k - nargs]);
            if (s < size) size = (uint32_t)s;
        }
        bool ok = k < nargs ? add_copy(p, theirs, mine, size) : add_copy(p, mine, theirs, size);
        if (!ok) return false;
    }
    ws_call *cs = realloc(p->calls, sizeof *cs * (size_t)(p->ncalls + 1));
    if (!cs) return false;
    p->calls = cs;
    w->aux = p->ncalls;
    p->calls[p->ncalls++] = call;
    w->target = body ? p->funcs[callee].start : -1;
    return true;
}

/* tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32} d, [t, {c...}] and
 * tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, [t, {x, y}], on texture
 * objects: t is a register holding a cudaTextureObject_t. */
static bool decode_tex(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w)
{
    const ptx_mods *m = &in->m;
    bool tld4 = m->op == PTX_OP_TLD4;
    const ptx_operand *d = &in->ops[0], *a = &in->ops[1];
    if (m->geom == PTX_GEOM_NONE || m->geom > PTX_GEOM_3D || (tld4 && m->geom != PTX_GEOM_2D))
        return unsupported(c, in, tld4 ? "tld4 is supported on 2d textures only"
                                       : "only 1d, 2d and 3d textures are supported (not layered, cube "
                                         "or multisample ones)");
    if (tld4 && !m->subop) return unsupported(c, in, "tld4 needs the channel gathered (.r, .g, .b or .a)");
    ptx_type dt = m->ntypes == 2 ? m->types[0] : PTX_T_NONE, ct = m->ntypes == 2 ? m->types[1] : PTX_T_NONE;
    if (m->vec != 4 || (dt != PTX_T_F32 && dt != PTX_T_S32 && dt != PTX_T_U32) ||
        (ct != PTX_T_F32 && (ct != PTX_T_S32 || tld4)))
        return unsupported(c, in, "the .v4 forms with .f32, .s32 or .u32 results and .f32 or .s32 "
                                  "coordinates are supported (not .f16x2 results)");
    int need = m->geom == PTX_GEOM_3D ? 4 : m->geom;     /* 3d coordinates come as a .v4 */
    if (in->nops != 2 || d->kind != PTX_OPND_VEC || d->nelems != 4 || a->kind != PTX_OPND_VEC ||
        !a->bracketed || a->nelems != need + 1)
        return unsupported(c, in, "the form d, [texture, {coordinates}] with four results and one "
                                  "coordinate per dimension is supported (no predicate result, sampler, "
                                  "level, gradient, offset or depth-compare operands)");
    if (a->elems[0].kind == PTX_OPND_SYMBOL)
        return unsupported(c, in, "texture references (.texref) are not supported; use texture objects "
                                  "(cudaTextureObject_t)");
    if (a->elems[0].kind != PTX_OPND_REG)
        return unsupported(c, in, "the texture must be a register holding a texture object");
    w->cls = WS_I_TEX;
    return conv_opnd(c, fi, in, d, dt, false, &w->ops[0]) && conv_opnd(c, fi, in, a, ct, false, &w->ops[1]);
}

/* txq.QUERY.b32 d, [t]: the size and sampling attributes of a texture object. */
static bool decode_txq(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w)
{
    const ptx_mods *m = &in->m;
    if (m->subop < PTX_SUB_TXQ_WIDTH || m->subop > PTX_SUB_TXQ_FILTER_MODE)
        return unsupported(c, in, "txq answers .width, .height, .depth, .normalized_coords and .filter_mode");
    if (in->nops != 2 || in->ops[0].kind != PTX_OPND_REG || in->ops[1].kind != PTX_OPND_ADDR ||
        in->ops[1].addr_base != PTX_ADDR_REG || in->ops[1].offset != 0)
        return unsupported(c, in, "the form txq.QUERY.b32 d, [texture register] is supported");
    w->cls = WS_I_TXQ;
    return conv_all(c, fi, in, w, PTX_T_B32);
}

/* cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
 * and its commit, wait and mbarrier forms (PTX ISA, "cp.async").  A copy
 * completes when it issues, so commit_group and the waits have nothing to
 * do. */
static bool decode_cp(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w)
{
    const ptx_mods *m = &in->m;
    switch (m->subop) {
    case PTX_SUB_CP_COMMIT_GROUP: case PTX_SUB_CP_WAIT_GROUP: case PTX_SUB_CP_WAIT_ALL:
        w->cls = WS_I_NOP;
        return conv_all(c, fi, in, w, PTX_T_U32);
    case PTX_SUB_CP_MBARRIER_ARRIVE:
        if (in->nops != 1 || in->ops[0].kind != PTX_OPND_ADDR)
            return unsupported(c, in, "expects one operand, [mbarrier]");
        w->cls = WS_I_MBARRIER;
        return conv_all(c, fi, in, w, PTX_T_B64);
    case PTX_SUB_CP_ASYNC:
        break;
    default:
        return unsupported(c, in, "of cp only cp.async and its commit_group, wait_group, wait_all "
                                  "and mbarrier.arrive forms are supported");
    }
    if (m->space != PTX_SPACE_SHARED)
        return unsupported(c, in, "the copy must be .shared.global");
    int nops = in->nops - ((m->flags & PTX_F_CACHE_HINT) ? 1 : 0);
    if (nops < 3 || nops > 4 || in->ops[0].kind != PTX_OPND_ADDR || in->ops[1].kind != PTX_OPND_ADDR ||
        in->ops[2].kind != PTX_OPND_IMM_INT)
        return unsupported(c, in, "expects [dst], [src], cp-size{, src-size}{, cache-policy}");
    int64_t size = in->ops[2].v.i;
    if (size != 4 && size != 8 && size != 16)
        return unsupported(c, in, "cp-size must be 4, 8 or 16");
    if ((m->flags & PTX_F_CG) && size != 16)
        return unsupported(c, in, "cp.async.cg copies 16 bytes");
    w->aux = WS_CP_NONE;
    if (nops == 4) {
        const ptx_operand *e = &in->ops[3];
        bool pred = e->kind == PTX_OPND_REG && c->p->funcs[fi].f->regs[e->reg].type == PTX_T_PRED;
        w->aux = pred ? WS_CP_IGNORE_SRC : WS_CP_SRC_SIZE;
    }
    w->cls = WS_I_CP_ASYNC;
    return conv_all(c, fi, in, w, PTX_T_U32);
}

/* mbarrier.OP{.shared}.b64 (PTX ISA, "mbarrier"): the operand shapes. */
static bool decode_mbarrier(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w)
{
    static const struct { uint8_t sub; int8_t addr, nmin, nmax; const char *usage; } forms[] = {
        {PTX_SUB_MBAR_INIT, 0, 2, 2, "expects [addr], count"},
        {PTX_SUB_MBAR_INVAL, 0, 1, 1, "expects [addr]"},
        {PTX_SUB_MBAR_ARRIVE, 1, 2, 3, "expects state, [addr]{, count}"},
        {PTX_SUB_MBAR_ARRIVE_DROP, 1, 2, 3, "expects state, [addr]{, count}"},
        {PTX_SUB_MBAR_TEST_WAIT, 1, 3, 3, "expects waitComplete, [addr], state"},
        {PTX_SUB_MBAR_TRY_WAIT, 1, 3, 4, "expects waitComplete, [addr], state{, suspendTimeHint}"},
        {PTX_SUB_MBAR_PENDING_COUNT, -1, 2, 2, "expects count, state"},
    };
    const ptx_mods *m = &in->m;
    if (m->ntypes != 1 || m->types[0] != PTX_T_B64)
        return unsupported(c, in, "mbarrier operations take .b64");
    if (m->space != PTX_SPACE_SHARED && m->space != PTX_SPACE_NONE)
        return unsupported(c, in, "the mbarrier object must be in shared memory");
    bool wait = m->subop == PTX_SUB_MBAR_TEST_WAIT || m->subop == PTX_SUB_MBAR_TRY_WAIT;
    bool arrive = m->subop == PTX_SUB_MBAR_ARRIVE || m->subop == PTX_SUB_MBAR_ARRIVE_DROP;
    if (((m->flags & PTX_F_PARITY) && !wait) || ((m->flags & PTX_F_NOCOMPLETE) && !arrive))
        return unsupported(c, in, "modifier not valid for this operation");
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (forms[i].sub != m->subop) continue;
        if (in->nops < forms[i].nmin || in->nops > forms[i].nmax ||
            (forms[i].addr >= 0 && in->ops[forms[i].addr].kind != PTX_OPND_ADDR))
            return unsupported(c, in, forms[i].usage);
        w->cls = WS_I_MBARRIER;
        return conv_all(c, fi, in, w, PTX_T_B64);
    }
    return unsupported(c, in, "supported: mbarrier.init, arrive, arrive_drop, test_wait, try_wait, "
                              "pending_count, inval");
}

/* The class, operands and checks of one instruction of function fi, by
 * its opcode's row (isa/ptx_opcodes.def) and its form. */
static bool decode_form(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w, int32_t pc)
{
    ws_program *p = c->p;
    const ws_func *wf = &p->funcs[fi];
    const ptx_mods *m = &in->m;
    char why[160] = "";
    memset(w, 0, sizeof *w);
    w->m = *m;
    w->pos = (ws_srcpos){in->loc.line, in->loc.col, in->loc.cu_file, in->loc.cu_line};
    w->func = fi;
    w->nops = in->nops;
    w->guard = in->guard >= 0 ? wf->reg_base + in->guard : -1;
    w->guard_neg = in->guard_neg;
    w->target = w->rpc = -1;
    w->space = mem_space(m->space);
    for (int i = 0; i < PTX_MAX_OPERANDS; i++) w->ops[i].reg = w->ops[i].reg2 = w->ops[i].sym = -1;
    (void)pc;
    ptx_type t0 = m->ntypes ? m->types[0] : PTX_T_B32;
    char mn[96];
    ws_insn_mnemonic(m, mn, sizeof mn);
    if (!ws_insn_shape_ok(in, mn, why, sizeof why)) {
        ws_load_error(p, &in->loc, c->err, "%s", why);
        return false;
    }

    const ws_opcode_info *row = ws_opcode_info_of(m->op);
    if (row->flags & WS_OPF_REFUSED) {
        if (m->op == PTX_OP_BRKPT)
            return unsupported(c, in, "a breakpoint (brkpt) needs a debugger; warpsim has none");
        return unsupported(c, in, NULL);
    }
    w->cls = row->cls;
    switch (row->cls) {
    case WS_I_MOV:
        if (in->nops >= 2 && in->ops[0].kind == PTX_OPND_VEC) w->cls = WS_I_UNPACK;
        else if (in->nops >= 2 && in->ops[1].kind == PTX_OPND_VEC) {
            w->cls = WS_I_PACK;
            /* the elements are of half the width (or a quarter) */
            return conv_all(c, fi, in, w, PTX_T_B64);
        }
        return conv_all(c, fi, in, w, t0);
    case WS_I_LD: case WS_I_ST:
        return conv_all(c, fi, in, w, t0);
    case WS_I_ATOM:
        if (w->space != WS_SP_GLOBAL && w->space != WS_SP_SHARED && w->space != WS_SP_GENERIC)
            return unsupported(c, in, "atomics on this state space");
        for (int i = 0; i < in->nops; i++)
            if (in->ops[i].kind == PTX_OPND_VEC) return unsupported(c, in, "atomics on vectors (.v2, .v4, .v8)");
        return conv_all(c, fi, in, w, t0);
    case WS_I_CVTA:
        if (m->space == PTX_SPACE_PARAM) return unsupported(c, in, "cvta of the param space");
        return conv_all(c, fi, in, w, t0);
    case WS_I_BAR:
        if (m->subop == PTX_SUB_BAR_WARP_SYNC) w->cls = WS_I_WARPSYNC;
        else if (m->subop != PTX_SUB_BAR_SYNC && m->subop != PTX_SUB_BAR_RED)
            return unsupported(c, in, "only bar.sync, bar.red, barrier.sync and bar.warp.sync are supported");
        return conv_all(c, fi, in, w, PTX_T_U32);
    case WS_I_NOP:
        return true;
    case WS_I_SHFL: case WS_I_VOTE: case WS_I_ACTIVEMASK:
        return conv_all(c, fi, in, w, PTX_T_B32);
    case WS_I_REDUX:
        if (!ws_redux_supports(m, why, sizeof why)) return unsupported(c, in, why);
        return conv_all(c, fi, in, w, t0);
    case WS_I_MATCH:
        if (!(m->flags & PTX_F_SYNC) || m->ntypes != 1 || (t0 != PTX_T_B32 && t0 != PTX_T_B64) ||
            (m->subop != PTX_SUB_VOTE_ANY && m->subop != PTX_SUB_VOTE_ALL))
            return unsupported(c, in, "supported: match.any.sync and match.all.sync on .b32 or .b64");
        return conv_all(c, fi, in, w, t0);
    case WS_I_CP_ASYNC:
        return decode_cp(c, fi, in, w);
    case WS_I_MBARRIER:
        return decode_mbarrier(c, fi, in, w);
    case WS_I_WMMA:
        if (m->wmma_shape != 1) return unsupported(c, in, "only the m16n16k16 wmma shape is supported");
        return conv_all(c, fi, in, w, PTX_T_U32);
    case WS_I_BRA:
        if (in->nops < 1 || in->ops[0].kind != PTX_OPND_LABEL)
            return unsupported(c, in, "indirect branches are not supported");
        w->target = wf->start + in->ops[0].v.target;
        w->nops = 0;
        return true;
    case WS_I_CALL:
        return decode_call(c, fi, in, w);
    case WS_I_TEX:
        return decode_tex(c, fi, in, w);
    case WS_I_TXQ:
        return decode_txq(c, fi, in, w);
    case WS_I_RET:
        w->cls = wf->f->is_entry ? WS_I_EXIT : WS_I_RET;
        w->target = wf->end;
        return true;
    case WS_I_EXIT: case WS_I_TRAP:
        return true;
    case WS_I_ALU:
        break;
    default:
        return unsupported(c, in, NULL);
    }
    if (!ws_alu_handles(m->op)) return unsupported(c, in, NULL);
    if (!ws_alu_supports(m, why, sizeof why)) return unsupported(c, in, why);
    if (in->nops < 1 || in->nops > 5) return unsupported(c, in, "operand count");
    for (int i = 1; i < in->nops; i++)
        if (!ws_operand_type_ok(wf->f, &in->ops[i], alu_src_type(m, i - 1), i, mn, why, sizeof why)) {
            ws_load_error(p, &in->loc, c->err, "%s", why);
            return false;
        }
    w->cls = WS_I_ALU;
    if (!conv_opnd(c, fi, in, &in->ops[0], t0, false, &w->ops[0])) return false;
    for (int i = 1; i < in->nops; i++)
        if (!conv_opnd(c, fi, in, &in->ops[i], alu_src_type(m, i - 1), false, &w->ops[i]))
            return false;
    for (int i = 0; i < in->nops; i++)
        if (w->ops[i].kind == WS_OK_VEC || w->ops[i].kind == WS_OK_ADDR)
            return unsupported(c, in, "vector or address operand");
    return true;
}

/* What the executor would otherwise look up per execution: the type's
 * width mask, the cvt sign extension to the register's width (PTX ISA,
 * "Operand Size Exceeding Instruction-Type Size"; the ALU's canonical
 * result is zero-extended), and the ALU handler. */
static void resolve_exec(const ws_program *p, ws_insn *w)
{
    w->wmask = w->m.ntypes ? width_mask(w->m.types[0]) : UINT64_MAX;
    const ws_opnd *d = &w->ops[0];
    bool reg_dst = w->nops > 0 && d->kind == WS_OK_REG;
    if (w->cls != WS_I_ALU) return;
    if (w->m.op == PTX_OP_CVT && reg_dst && ptx_type_is_signed(w->m.types[0])) {
        uint32_t bits = ptx_type_size(w->m.types[0]) * 8, rbits = p->reg_width[d->reg] * 8u;
        if (bits < 64 && rbits > bits) {
            w->sext_from = (uint8_t)bits;
            w->sext_to = (uint8_t)rbits;
        }
    }
    /* one destination row, no carry, no sign extension after */
    if (reg_dst && d->reg2 < 0 && !(w->flags & WS_IF_CARRY) && !w->sext_from)
        w->fast = ws_alu_fast_of(&w->m);
}

static bool decode_insn(dctx *c, int32_t fi, const ptx_insn *in, ws_insn *w, int32_t pc)
{
    if (!decode_form(c, fi, in, w, pc)) return false;
    ws_insn_classify(w);
    resolve_exec(c->p, w);
    return true;
}

/* ---- layout ------------------------------------------------------------ */

static int32_t add_shared(ws_program *p, const ptx_var *v)
{
    ws_shared_sym *s = realloc(p->shared, sizeof *s * (size_t)(p->nshared + 1));
    if (!s) return -1;
    p->shared = s;
    p->shared[p->nshared] = (ws_shared_sym){v->name, ptx_var_size(v), ptx_var_align(v),
                                            v->is_extern || v->count == 0};
    return p->nshared++;
}

/* Symbol addresses of one function: params, rets, .local, .param, .shared. */
static bool layout_function(dctx *c, int32_t fi)
{
    ws_program *p = c->p;
    ws_func *wf = &p->funcs[fi];
    const ptx_function *f = wf->f;
    dfunc *d = &c->df[fi];
    d->param_addr = calloc((size_t)f->nparams + 1, sizeof *d->param_addr);
    d->ret_addr = calloc((size_t)f->nrets + 1, sizeof *d->ret_addr);
    d->local_addr = calloc((size_t)f->nlocals + 1, sizeof *d->local_addr);
    d->local_sym = calloc((size_t)f->nlocals + 1, sizeof *d->local_sym);
    if (!d->param_addr || !d->ret_addr || !d->local_addr || !d->local_sym) return false;

    uint64_t frame = align_up(p->tparam_size, 16);
    wf->tparam_off = (uint32_t)frame;
    for (int32_t i = 0; i < f->nparams; i++) {
        if (f->is_entry) { d->param_addr[i] = ws_param_offset(f, i); continue; }
        frame = align_up(frame, ptx_var_align(&f->params[i]));
        d->param_addr[i] = WS_TPARAM_BASE + frame;
        frame += ptx_var_size(&f->params[i]);
    }
    for (int32_t i = 0; i < f->nrets; i++) {
        frame = align_up(frame, ptx_var_align(&f->rets[i]));
        d->ret_addr[i] = WS_TPARAM_BASE + frame;
        frame += ptx_var_size(&f->rets[i]);
    }
    uint64_t local = align_up(p->local_size, 16);
    wf->local_off = (uint32_t)local;
    for (int32_t i = 0; i < f->nlocals; i++) {
        const ptx_var *v = &f->locals[i];
        d->local_sym[i] = -1;
        if (v->space == PTX_SPACE_LOCAL) {
            local = align_up(local, ptx_var_align(v));
            d->local_addr[i] = local;
            local += ptx_var_size(v);
        } else if (v->space == PTX_SPACE_SHARED) {
            if ((d->local_sym[i] = add_shared(p, v)) < 0) return false;
        } else if (v->space == PTX_SPACE_PARAM) {
            /* Call sequences in sibling { } scopes reuse names (param0):
             * they share one slot, as large as the largest of them. */
            int32_t same = -1;
            for (int32_t j = 0; j < i; j++)
                if (f->locals[j].space == PTX_SPACE_PARAM && !strcmp(f->locals[j].name, v->name)) same = j;
            if (same >= 0) { d->local_addr[i] = d->local_addr[same]; continue; }
            uint64_t size = 0; uint32_t al = 1;
            for (int32_t j = i; j < f->nlocals; j++)
                if (f->locals[j].space == PTX_SPACE_PARAM && !strcmp(f->locals[j].name, v->name)) {
                    if (ptx_var_size(&f->locals[j]) > size) size = ptx_var_size(&f->locals[j]);
                    if (ptx_var_align(&f->locals[j]) > al) al = ptx_var_align(&f->locals[j]);
                }
            frame = align_up(frame, al);
            d->local_addr[i] = WS_TPARAM_BASE + frame;
            frame += size;
        } else {
            ws_load_error(p, &v->loc, c->err, "unsupported variable '%s' in this state space", v->name);
            return false;
        }
    }
    if (frame > UINT32_MAX / 2 || local > UINT32_MAX / 2) {
        ws_load_error(p, &f->loc, c->err, "function '%s' uses too much local or parameter memory", f->name);
        return false;
    }
    p->tparam_size = (uint32_t)frame;
    p->local_size = (uint32_t)local;
    wf->tparam_end = (uint32_t)frame;
    wf->local_end = (uint32_t)local;
    return true;
}

/* Marks the shared symbols function fi and its callees use. */
static void mark_shared(const ws_program *p, int32_t fi, bool *used, bool *seen)
{
    if (seen[fi]) return;
    seen[fi] = true;
    const ws_func *wf = &p->funcs[fi];
    for (int32_t pc = wf->start; pc < wf->end; pc++) {
        const ws_insn *w = &p->code[pc];
        for (int i = 0; i < w->nops; i++) {
            const ws_opnd *o = &w->ops[i];
            if (o->sym >= 0) used[o->sym] = true;
            for (int k = 0; o->kind == WS_OK_VEC && k < o->nelems; k++)
                if (p->vec[o->elem0 + k].sym >= 0) used[p->vec[o->elem0 + k].sym] = true;
        }
        if (w->cls == WS_I_CALL) mark_shared(p, p->calls[w->aux].callee, used, seen);
    }
}

static bool layout_kernels(ws_program *p)
{
    bool *used = calloc((size_t)p->nshared + 1, 1);
    bool *seen = calloc((size_t)p->nfuncs + 1, 1);
    p->kernels = calloc((size_t)p->nfuncs + 1, sizeof *p->kernels);
    bool ok = used && seen && p->kernels;
    for (int32_t fi = 0; ok && fi < p->nfuncs; fi++) {
        if (!p->funcs[fi].f->is_entry || p->funcs[fi].start < 0) continue;
        ws_kernel *k = &p->kernels[p->nkernels++];
        k->p = p;
        k->func = fi;
        k->shared_off = calloc((size_t)p->nshared + 1, sizeof *k->shared_off);
        if (!k->shared_off) { ok = false; break; }
        memset(used, 0, (size_t)p->nshared + 1);
        memset(seen, 0, (size_t)p->nfuncs + 1);
        mark_shared(p, fi, used, seen);
        uint64_t off = 0;
        for (int32_t s = 0; s < p->nshared; s++) {
            if (!used[s] || p->shared[s].is_extern) continue;
            off = align_up(off, p->shared[s].align);
            k->shared_off[s] = (uint32_t)off;
            off += p->shared[s].size;
        }
        k->static_smem = (uint32_t)off;
        k->dyn_off = (uint32_t)align_up(off, 16);
        for (int32_t s = 0; s < p->nshared; s++)
            if (p->shared[s].is_extern) k->shared_off[s] = k->dyn_off;
    }
    free(used);
    free(seen);
    return ok;
}

/* Calls form no cycle (no recursion). */
static bool check_recursion(dctx *c, int32_t fi, uint8_t *color)
{
    ws_program *p = c->p;
    color[fi] = 1;
    const ws_func *wf = &p->funcs[fi];
    for (int32_t pc = wf->start; pc < wf->end; pc++) {
        const ws_insn *w = &p->code[pc];
        if (w->cls != WS_I_CALL) continue;
        int32_t callee = p->calls[w->aux].callee;
        if (color[callee] == 1) {
            ws_load_error(p, &(ptx_srcloc){w->pos.line, w->pos.col, w->pos.cu_file, w->pos.cu_line}, c->err,
                          "unsupported: recursive call of '%s'", p->funcs[callee].f->name);
            return false;
        }
        if (color[callee] == 0 && !check_recursion(c, callee, color)) return false;
    }
    color[fi] = 2;
    return true;
}

bool ws_decode_module(ws_program *p, ws_error *err)
{
    const ptx_module *m = p->m;
    dctx c = {p, NULL, NULL, err};
    bool ok = false;
    p->nfuncs = m->nfuncs;
    p->funcs = calloc((size_t)m->nfuncs + 1, sizeof *p->funcs);
    c.df = calloc((size_t)m->nfuncs + 1, sizeof *c.df);
    c.gsym = calloc((size_t)m->nglobals + 1, sizeof *c.gsym);
    if (!p->funcs || !c.df || !c.gsym) goto oom;

    /* Registers and code ranges. */
    int32_t ncode = 0, nregs = 0;
    for (int32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *f = &m->funcs[fi];
        ws_func *wf = &p->funcs[fi];
        wf->f = f;
        wf->is_entry = f->is_entry;
        wf->start = wf->end = -1;
        if (f->is_decl || f->is_extern) continue;
        wf->reg_base = nregs;
        wf->nregs = f->nregs;
        nregs += f->nregs;
        wf->start = ncode;
        wf->end = ncode + f->ninsns;
        ncode += f->ninsns + 1;
    }
    p->nregs = nregs;
    p->ncode = ncode;
    p->reg_width = calloc((size_t)nregs + 1, 1);
    p->code = calloc((size_t)ncode + 1, sizeof *p->code);
    if (!p->reg_width || !p->code) goto oom;
    for (int32_t fi = 0; fi < m->nfuncs; fi++) {
        const ptx_function *f = &m->funcs[fi];
        if (p->funcs[fi].start < 0) continue;
        for (int32_t r = 0; r < f->nregs; r++) {
            if (f->regs[r].vec > 1) {
                ws_load_error(p, &f->loc, err, "unsupported: vector register '%s'", f->regs[r].name);
                goto fail;
            }
            uint32_t s = ptx_type_size(f->regs[r].type);
            p->reg_width[p->funcs[fi].reg_base + r] = (uint8_t)(s ? s : 8);
        }
    }

    /* Module-level shared variables. */
    for (int32_t i = 0; i < m->nglobals; i++) {
        c.gsym[i] = -1;
        if (m->globals[i].space == PTX_SPACE_SHARED && (c.gsym[i] = add_shared(p, &m->globals[i])) < 0)
            goto oom;
    }
    for (int32_t fi = 0; fi < m->nfuncs; fi++)
        if (p->funcs[fi].start >= 0 && !layout_function(&c, fi)) {
            if (!err->msg[0]) goto oom;
            goto fail;
        }

    for (int32_t fi = 0; fi < m->nfuncs; fi++) {
        ws_func *wf = &p->funcs[fi];
        if (wf->start < 0) continue;
        const ptx_function *f = wf->f;
        for (int32_t j = 0; j < f->ninsns; j++)
            if (!decode_insn(&c, fi, &f->insns[j], &p->code[wf->start + j], wf->start + j)) goto fail;
        ws_insn *end = &p->code[wf->end];
        memset(end, 0, sizeof *end);
        end->cls = WS_I_FEND;
        end->func = fi;
        end->guard = end->target = end->rpc = -1;
        end->m.op = PTX_OP_RET;
        ws_insn_classify(end);
        for (int i = 0; i < PTX_MAX_OPERANDS; i++) end->ops[i].reg = end->ops[i].reg2 = end->ops[i].sym = -1;
        for (int32_t j = 0; j < f->ninsns; j++) {
            const ws_insn *w = &p->code[wf->start + j];
            if (w->cls == WS_I_BRA && (w->target < wf->start || w->target > wf->end)) {
                ws_load_error(p, &f->insns[j].loc, err, "branch target out of the function");
                goto fail;
            }
        }
        ws_schedule_loads(p, wf->start, wf->end);
        if (!ws_cfg_reconvergence(p->code, wf->start, wf->end, f->is_entry)) goto oom;
    }

    uint8_t *color = calloc((size_t)m->nfuncs + 1, 1);
    if (!color) goto oom;
    for (int32_t fi = 0; fi < m->nfuncs; fi++)
        if (p->funcs[fi].start >= 0 && color[fi] == 0 && !check_recursion(&c, fi, color)) {
            free(color);
            goto fail;
        }
    free(color);
    if (!layout_kernels(p)) goto oom;
    ok = true;
    goto fail;
oom:
    ws_error_set(err, WS_ERR_NO_MEMORY, "%s: error: out of memory while decoding", m->path ? m->path : "<ptx>");
fail:
    for (int32_t fi = 0; c.df && fi < m->nfuncs; fi++) {
        free(c.df[fi].param_addr); free(c.df[fi].ret_addr);
        free(c.df[fi].local_addr); free(c.df[fi].local_sym);
    }
    free(c.df);
    free(c.gsym);
    return ok;
}
