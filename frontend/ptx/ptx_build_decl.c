/* IR building, part 1: module directives, declarations, initializers,
 * functions, scopes and labels.  Called from the grammar's actions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_pstate.h"

bool ptx_ps_error(ptx_pstate *ps, int32_t line, int32_t col, const char *fmt, ...)
{
    ptx_error *e = ps->err;
    va_list ap;
    va_start(ap, fmt);
    if (!ps->failed) {
        ps->failed = true;
        snprintf(e->file, sizeof e->file, "%s", ps->path);
        e->line = line;
        e->col = col;
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    } else if (!ps->fatal && line != ps->last_error_line) {
        /* one error per line: what follows an error on its line is its echo */
        int i = e->nmore++;
        e->more[i].line = line;
        e->more[i].col = col;
        vsnprintf(e->more[i].msg, sizeof e->more[i].msg, fmt, ap);
    }
    va_end(ap);
    ps->last_error_line = line;
    if (e->nmore == PTX_MAX_ERRORS - 1)
        ps->fatal = true;
    return false;
}

void ptx_b_recover(ptx_pstate *ps)
{
    ps->nops = 0;
    ps->nelems = 0;
    ps->list_depth = 0;
    ps->guard = -1;
    ps->guard_neg = false;
    if (ps->dt == PTX_DT_PROTO)
        ps->dt = PTX_DT_BODY;
    /* names pending in the instruction that was dropped */
    while (ps->npend > 0 && ps->pend[ps->npend - 1].insn >= ps->f.ninsns)
        ps->npend--;
}

bool ptx_ps_grow(ptx_pstate *ps, void **arr, int32_t *cap, int32_t n, size_t elem)
{
    if (n <= *cap)
        return true;
    int32_t ncap = *cap ? *cap : 8;
    while (ncap < n) {
        if (ncap > INT32_MAX / 2)
            return ptx_ps_error(ps, ps->line, ps->col, "too many items");
        ncap *= 2;
    }
    void *p = ptx_arena_realloc(ps->arena, *arr, (size_t)*cap * elem, (size_t)ncap * elem);
    if (!p)
        return ptx_ps_error(ps, ps->line, ps->col, "out of memory");
    *arr = p;
    *cap = ncap;
    return true;
}

#define GROW(ps, arr, cap, n) ptx_ps_grow((ps), (void **)&(arr), &(cap), (n), sizeof *(arr))

void ptx_pstate_free_temps(ptx_pstate *ps)
{
    ptx_names_free(&ps->names);
    ptx_names_free(&ps->declared);
    free(ps->pend);
    free(ps->inits);
    free(ps->elems);
    ps->pend = NULL;
    ps->inits = NULL;
    ps->elems = NULL;
}

/* ---- module directives ---- */

bool ptx_b_version(ptx_pstate *ps, const char *text, int32_t line, int32_t col)
{
    unsigned maj = 0, min = 0;
    if (sscanf(text, ".version %u.%u", &maj, &min) != 2)
        return ptx_ps_error(ps, line, col, "malformed .version '%s'", text);
    /* PTX ISA, "PTX Module Directives": .version comes first in a module. */
    if (line != ps->first_line || col != ps->first_col)
        return ptx_ps_error(ps, line, col, ".version must be the first directive of the module");
    if (maj > PTX_ISA_NEWEST_MAJOR || (maj == PTX_ISA_NEWEST_MAJOR && min > PTX_ISA_NEWEST_MINOR))
        return ptx_ps_error(ps, line, col, "PTX ISA version %u.%u is newer than warpsim supports (up to %d.%d)",
                            maj, min, PTX_ISA_NEWEST_MAJOR, PTX_ISA_NEWEST_MINOR);
    ps->m->version_major = maj;
    ps->m->version_minor = min;
    return true;
}

bool ptx_b_target(ptx_pstate *ps, const char *name)
{
    snprintf(ps->m->target, sizeof ps->m->target, "%s", name);
    return true;
}

/* As ptxas: a module (an empty file too) without .version at its start, or
 * without .target, is no PTX module.  Where the first thing is not .version,
 * the error names that place. */
bool ptx_b_module_end(ptx_pstate *ps)
{
    if (ps->failed)
        return false;
    int32_t line = ps->first_line ? ps->first_line : 1, col = ps->first_col ? ps->first_col : 1;
    if (ps->m->version_major == 0 && ps->m->version_minor == 0)
        return ptx_ps_error(ps, line, col, "%s: missing .version directive at the start of the module",
                            ps->first_line ? "not a PTX module" : "empty PTX module");
    if (!ps->m->target[0])
        return ptx_ps_error(ps, line, col, "missing .target directive after .version");
    return true;
}

bool ptx_b_file(ptx_pstate *ps, uint64_t idx, const char *path, int32_t line, int32_t col)
{
    if (idx == 0 || idx > 65535)
        return ptx_ps_error(ps, line, col, ".file index %llu out of range", (unsigned long long)idx);
    if (!GROW(ps, ps->m->files, ps->cap_files, (int32_t)idx + 1))
        return false;
    if ((int32_t)idx >= ps->m->nfiles)
        ps->m->nfiles = (int32_t)idx + 1;
    ps->m->files[idx] = path;
    return true;
}

void ptx_b_loc(ptx_pstate *ps, uint64_t file, uint64_t line)
{
    ps->cu_file = file > INT32_MAX ? 0 : (int32_t)file;
    ps->cu_line = line > INT32_MAX ? 0 : (int32_t)line;
}

/* ---- declarations ---- */

void ptx_b_decl_begin(ptx_pstate *ps, int32_t space, bool is_extern)
{
    memset(&ps->decl, 0, sizeof ps->decl);
    ps->decl.space = (ptx_space)space;
    ps->decl.vec = 1;
    ps->decl_ptr = false;
    ps->decl_extern = is_extern;
}

bool ptx_b_decl_type(ptx_pstate *ps, int32_t type, int32_t line, int32_t col)
{
    if (ps->decl.type != PTX_T_NONE)
        return ptx_ps_error(ps, line, col, "more than one type in a declaration");
    ps->decl.type = (ptx_type)type;
    return true;
}

bool ptx_b_decl_align(ptx_pstate *ps, uint64_t align, int32_t line, int32_t col)
{
    if (align == 0 || (align & (align - 1)) || align > 65536)
        return ptx_ps_error(ps, line, col, ".align %llu is not a power of two", (unsigned long long)align);
    if (!ps->decl_ptr)      /* .ptr ... .align N: the pointee's alignment, not ours */
        ps->decl.align = (uint32_t)align;
    return true;
}

bool ptx_b_decl_vec(ptx_pstate *ps, int32_t vec, int32_t line, int32_t col)
{
    if (ps->decl.vec != 1)
        return ptx_ps_error(ps, line, col, "more than one vector size in a declaration");
    ps->decl.vec = (uint8_t)vec;
    return true;
}

bool ptx_b_decl_space(ptx_pstate *ps, int32_t space, int32_t line, int32_t col)
{
    (void)space;
    if (!ps->decl_ptr)
        return ptx_ps_error(ps, line, col, "more than one state space in a declaration");
    return true;
}

void ptx_b_decl_ptr(ptx_pstate *ps)
{
    ps->decl_ptr = true;
    ps->decl.ptr_attr = true;
}

void ptx_b_item_begin(ptx_pstate *ps, const char *name, int32_t line, int32_t col)
{
    ps->item_name = name;
    ps->item_line = line;
    ps->item_col = col;
    ps->item_count = 1;
    ps->item_unsized = false;
    ps->item_dims = false;
    ps->ninits = 0;
}

bool ptx_b_item_dim(ptx_pstate *ps, bool has_size, uint64_t n, int32_t line, int32_t col)
{
    if (!has_size) {
        if (ps->item_dims)
            return ptx_ps_error(ps, line, col, "only the first dimension of '%s' may be unsized", ps->item_name);
        ps->item_unsized = true;
    } else {
        if (n == 0 || ps->item_count > UINT64_MAX / n || ps->item_count * n > (1ull << 40))
            return ptx_ps_error(ps, line, col, "bad array size %llu for '%s'", (unsigned long long)n, ps->item_name);
        ps->item_count *= n;
    }
    ps->item_dims = true;
    return true;
}

bool ptx_b_item_init(ptx_pstate *ps, ptx_initval v, int32_t line, int32_t col)
{
    (void)line; (void)col;
    if (ps->ninits == ps->cap_inits) {
        int32_t nc = ps->cap_inits ? ps->cap_inits * 2 : 64;
        void *p = realloc(ps->inits, (size_t)nc * sizeof *ps->inits);
        if (!p)
            return ptx_ps_error(ps, line, col, "out of memory");
        ps->inits = p;
        ps->cap_inits = nc;
    }
    ps->inits[ps->ninits++] = v;
    return true;
}

bool ptx_b_generic(ptx_pstate *ps, const char *word, int32_t line, int32_t col)
{
    if (strcmp(word, "generic"))
        return ptx_ps_error(ps, line, col, "unsupported initializer '%s(...)'", word);
    return true;
}

static bool module_has_symbol(const ptx_pstate *ps, const char *name)
{
    for (int32_t i = 0; i < ps->m->nglobals; i++)
        if (!strcmp(ps->m->globals[i].name, name))
            return true;
    for (int32_t i = 0; i < ps->m->nfuncs; i++)
        if (!strcmp(ps->m->funcs[i].name, name))
            return true;
    return ps->in_func && ps->f.name && !strcmp(ps->f.name, name);
}

static void put_le(uint8_t *p, uint64_t v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t f64_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static float bits_f32(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static double bits_f64(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

/* Lays out ps->inits as the little-endian bytes of v.  An element that
 * names a symbol gets its offset in the bytes and the symbol in
 * init_syms[element]. */
static bool layout_init(ptx_pstate *ps, ptx_var *v)
{
    uint32_t es = ptx_type_size(v->type);
    uint64_t per = v->vec ? v->vec : 1;
    const char *nm = ps->item_name;
    if (v->count == 0)
        v->count = ((uint64_t)ps->ninits + per - 1) / per;
    uint64_t nelem = v->count * per;
    if ((uint64_t)ps->ninits > nelem)
        return ptx_ps_error(ps, ps->item_line, ps->item_col, "too many initializers for '%s'", nm);
    if (nelem * es > (1ull << 32))
        return ptx_ps_error(ps, ps->item_line, ps->item_col, "initialized variable '%s' is too large", nm);
    v->init_size = nelem * es;
    v->init = ptx_arena_alloc(ps->arena, v->init_size ? v->init_size : 1);
    if (!v->init)
        return ptx_ps_error(ps, ps->item_line, ps->item_col, "out of memory");
    bool isf = ptx_type_is_float(v->type);
    for (int32_t i = 0; i < ps->ninits; i++) {
        const ptx_initval *iv = &ps->inits[i];
        uint8_t *dst = v->init + (uint64_t)i * es;
        uint64_t bits;
        bool ok = true;
        switch (iv->kind) {
        case PTX_IV_INT:
            if (v->type == PTX_T_F32) bits = f32_bits((float)(int64_t)iv->u);
            else if (v->type == PTX_T_F64) bits = f64_bits((double)(int64_t)iv->u);
            else { bits = iv->u; ok = !isf; }
            break;
        case PTX_IV_F32BITS:
            if (v->type == PTX_T_F64) bits = f64_bits((double)bits_f32(iv->u));
            else { bits = iv->u; ok = es == 4 && (v->type == PTX_T_F32 || !isf); }
            break;
        case PTX_IV_F64BITS:
            if (v->type == PTX_T_F32) bits = f32_bits((float)bits_f64(iv->u));
            else { bits = iv->u; ok = es == 8; }
            break;
        case PTX_IV_FLOAT:
            if (v->type == PTX_T_F32) bits = f32_bits((float)iv->d);
            else if (v->type == PTX_T_F64) bits = f64_bits(iv->d);
            else { bits = 0; ok = false; }
            break;
        default: /* PTX_IV_SYM */
            bits = (uint64_t)iv->off;
            ok = (es == 4 || es == 8) && !isf;
            if (ok && !module_has_symbol(ps, iv->sym))
                return ptx_ps_error(ps, ps->item_line, ps->item_col,
                                    "undefined symbol '%s' in the initializer of '%s'", iv->sym, nm);
            if (ok && !v->init_syms) {
                v->init_syms = ptx_arena_alloc(ps->arena, nelem * sizeof *v->init_syms);
                if (!v->init_syms)
                    return ptx_ps_error(ps, ps->item_line, ps->item_col, "out of memory");
            }
            if (ok)
                v->init_syms[i] = iv->sym;
            break;
        }
        if (!ok)
            return ptx_ps_error(ps, ps->item_line, ps->item_col,
                                "initializer %d of '%s' does not fit its type %s", i, nm, ptx_type_name(v->type));
        put_le(dst, bits, es);
    }
    return true;
}

/* The name a declaration inside a function gets: as written, unless the
 * function already declared that name somewhere (a shadowing or repeated
 * declaration in a nested { } scope), then "name$N". */
static bool scoped_name(ptx_pstate *ps, const char *name, int32_t line, int32_t col, const char **out)
{
    *out = name;                        /* set on every path: callers read it only on success */
    const ptx_binding *b = ptx_names_get(&ps->names, name);
    if (b && b->depth == ps->scope_depth)
        return ptx_ps_error(ps, line, col, "redeclaration of '%s'", name);
    if (ptx_names_get(&ps->declared, name)) {
        char buf[300];
        snprintf(buf, sizeof buf, "%s$%d", name, ++ps->rename_serial);
        *out = ptx_arena_strdup(ps->arena, buf);
        if (!*out)
            return ptx_ps_error(ps, line, col, "out of memory");
    }
    if (!ptx_names_bind(&ps->declared, name, (ptx_binding){.kind = PTX_BIND_SYM}))
        return ptx_ps_error(ps, line, col, "out of memory");
    return true;
}

static bool add_reg(ptx_pstate *ps, const char *name, int32_t line, int32_t col)
{
    const char *stored;
    if (!scoped_name(ps, name, line, col, &stored))
        return false;
    ptx_function *f = &ps->f;
    if (f->nregs >= PTX_MAX_REGS)
        return ptx_ps_error(ps, line, col, "more than %d registers declared in function '%s'",
                            PTX_MAX_REGS, f->name ? f->name : "?");
    if (!GROW(ps, f->regs, ps->cap_regs, f->nregs + 1))
        return false;
    f->regs[f->nregs] = (ptx_reg){.name = stored, .type = ps->decl.type, .vec = ps->decl.vec};
    ptx_binding b = {.kind = PTX_BIND_REG, .reg = f->nregs, .depth = ps->scope_depth};
    f->nregs++;
    if (!ptx_names_bind(&ps->names, name, b))
        return ptx_ps_error(ps, line, col, "out of memory");
    return true;
}

bool ptx_b_item_range(ptx_pstate *ps, uint64_t n, int32_t line, int32_t col)
{
    if (ps->decl.space != PTX_SPACE_REG || ps->dt != PTX_DT_BODY)
        return ptx_ps_error(ps, line, col, "'%s<N>' declares registers: only with .reg in a function body", ps->item_name);
    if (ps->decl.type == PTX_T_NONE)
        return ptx_ps_error(ps, ps->item_line, ps->item_col, "register '%s' has no type", ps->item_name);
    if (n > PTX_MAX_REGS)
        return ptx_ps_error(ps, line, col, "register range %llu is too large (warpsim accepts up to %d registers)",
                            (unsigned long long)n, PTX_MAX_REGS);
    char buf[300];
    for (uint64_t i = 0; i < n; i++) {
        snprintf(buf, sizeof buf, "%s%llu", ps->item_name, (unsigned long long)i);
        const char *nm = ptx_arena_strdup(ps->arena, buf);
        if (!nm)
            return ptx_ps_error(ps, line, col, "out of memory");
        if (!add_reg(ps, nm, ps->item_line, ps->item_col))
            return false;
    }
    return true;
}

static bool append_var(ptx_pstate *ps, ptx_var **arr, int32_t *n, int32_t *cap, const ptx_var *v)
{
    if (!ptx_ps_grow(ps, (void **)arr, cap, *n + 1, sizeof **arr))
        return false;
    (*arr)[(*n)++] = *v;
    return true;
}

bool ptx_b_item_end(ptx_pstate *ps)
{
    if (ps->dt == PTX_DT_PROTO)
        return true;                    /* prototype parameters only describe a call */
    const char *nm = ps->item_name;
    int32_t line = ps->item_line, col = ps->item_col;
    if (!strcmp(nm, "_"))
        return ptx_ps_error(ps, line, col, "'_' names a parameter only in a .callprototype");
    if (ps->decl.type == PTX_T_NONE)
        return ptx_ps_error(ps, line, col, "declaration of '%s' has no type", nm);
    if (ps->decl.space == PTX_SPACE_REG) {
        if (ps->dt != PTX_DT_BODY)
            return ptx_ps_error(ps, line, col, ".reg '%s' outside a function body is not supported", nm);
        if (ps->item_dims || ps->ninits)
            return ptx_ps_error(ps, line, col, "register '%s' cannot be an array or initialized", nm);
        return add_reg(ps, nm, line, col);
    }
    ptx_var v = ps->decl;
    v.name = nm;
    v.count = ps->item_unsized ? 0 : ps->item_count;
    v.is_extern = ps->decl_extern;
    v.loc = (ptx_srcloc){.line = line, .col = col};
    if (ps->ninits) {
        if (ps->dt != PTX_DT_MODULE && ps->decl.space != PTX_SPACE_GLOBAL && ps->decl.space != PTX_SPACE_CONST)
            return ptx_ps_error(ps, line, col, "'%s' cannot have an initializer", nm);
        if (!layout_init(ps, &v))
            return false;
    } else if (v.count == 0 && !v.is_extern) {
        return ptx_ps_error(ps, line, col, "array '%s' has no size", nm);
    }

    ptx_function *f = &ps->f;
    switch (ps->dt) {
    case PTX_DT_MODULE:
        if (v.space == PTX_SPACE_PARAM || v.space == PTX_SPACE_LOCAL)
            return ptx_ps_error(ps, line, col, "'%s': this state space is not allowed at module scope", nm);
        for (int32_t i = 0; i < ps->m->nglobals; i++)
            if (!strcmp(ps->m->globals[i].name, nm))
                return ptx_ps_error(ps, line, col, "redeclaration of '%s'", nm);
        return append_var(ps, &ps->m->globals, &ps->m->nglobals, &ps->cap_globals, &v);
    case PTX_DT_PARAMS:
    case PTX_DT_RETS:
        if (v.space != PTX_SPACE_PARAM)
            return ptx_ps_error(ps, line, col, "parameter '%s' must be .param", nm);
        if (!scoped_name(ps, nm, line, col, &v.name))
            return false;
        if (!ptx_names_bind(&ps->names, nm, (ptx_binding){.kind = PTX_BIND_SYM, .sym = v.name, .depth = ps->scope_depth}))
            return ptx_ps_error(ps, line, col, "out of memory");
        if (ps->dt == PTX_DT_RETS)
            return append_var(ps, &f->rets, &f->nrets, &ps->cap_rets, &v);
        return append_var(ps, &f->params, &f->nparams, &ps->cap_params, &v);
    default:
        if (v.space == PTX_SPACE_GLOBAL || v.space == PTX_SPACE_CONST)
            return ptx_ps_error(ps, line, col, "function-scope .global/.const '%s' is not supported", nm);
        if (!scoped_name(ps, nm, line, col, &v.name))
            return false;
        if (!ptx_names_bind(&ps->names, nm, (ptx_binding){.kind = PTX_BIND_SYM, .sym = v.name, .depth = ps->scope_depth}))
            return ptx_ps_error(ps, line, col, "out of memory");
        return append_var(ps, &f->locals, &f->nlocals, &ps->cap_locals, &v);
    }
}

/* ---- functions ---- */

void ptx_b_func_begin(ptx_pstate *ps, bool is_entry, bool is_extern, int32_t line, int32_t col)
{
    memset(&ps->f, 0, sizeof ps->f);
    ps->f.is_entry = is_entry;
    ps->f.is_extern = is_extern;
    ps->f.loc = (ptx_srcloc){.line = line, .col = col};
    ps->cap_params = ps->cap_rets = ps->cap_regs = ps->cap_locals = 0;
    ps->cap_insns = ps->cap_labels = 0;
    ps->npend = 0;
    ps->in_func = true;
    ps->linkage = 0;
    ps->guard = -1;
    ptx_names_free(&ps->declared);
    ptx_b_scope_push(ps);
    ps->dt = PTX_DT_PARAMS;
}

bool ptx_b_func_name(ptx_pstate *ps, const char *name, int32_t line, int32_t col)
{
    (void)line; (void)col;
    ps->f.name = name;
    return true;
}

bool ptx_b_perf_value(ptx_pstate *ps, uint64_t v, int32_t line, int32_t col)
{
    if (ps->nperf >= 3)
        return ptx_ps_error(ps, line, col, "too many values in a performance directive");
    if (v > UINT32_MAX)
        return ptx_ps_error(ps, line, col, "value %llu out of range", (unsigned long long)v);
    ps->perf[ps->nperf++] = v;
    return true;
}

bool ptx_b_func_perf(ptx_pstate *ps, int32_t which, const uint64_t *v, int32_t n, int32_t line, int32_t col)
{
    ptx_function *f = &ps->f;
    if (which <= 1) {
        uint32_t *dst = which == 0 ? f->maxntid : f->reqntid;
        for (int32_t i = 0; i < 3; i++)
            dst[i] = i < n ? (uint32_t)v[i] : 1;
        return true;
    }
    if (n != 1)
        return ptx_ps_error(ps, line, col, "%s takes one value", which == 2 ? ".minnctapersm" : ".maxnreg");
    if (which == 2)
        f->minnctapersm = (uint32_t)v[0];
    else
        f->maxnreg = (uint32_t)v[0];
    return true;
}

static int32_t find_label(const ptx_function *f, const char *name)
{
    for (int32_t i = 0; i < f->nlabels; i++)
        if (!strcmp(f->labels[i].name, name))
            return f->labels[i].insn;
    return -1;
}

static bool func_has_var(const ptx_function *f, const char *name)
{
    for (int32_t i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name))
            return true;
    for (int32_t i = 0; i < f->nrets; i++)
        if (!strcmp(f->rets[i].name, name))
            return true;
    for (int32_t i = 0; i < f->nlocals; i++)
        if (!strcmp(f->locals[i].name, name))
            return true;
    return false;
}

/* Identifiers that were not registers or scoped variables where they were
 * read: labels (forward references included) or module symbols. */
static bool resolve_pending(ptx_pstate *ps)
{
    ptx_function *f = &ps->f;
    bool ok = true;
    for (int32_t i = 0; i < ps->npend; i++) {
        const ptx_pending *p = &ps->pend[i];
        ptx_insn *in = &f->insns[p->insn];
        ptx_operand *o = &in->ops[p->op];
        if (p->elem >= 0)
            o = &o->elems[p->elem];
        if (!p->addr) {
            int32_t target = find_label(f, p->name);
            if (target >= 0) {
                o->kind = PTX_OPND_LABEL;
                o->v.target = target;
                o->name = p->name;
                continue;
            }
        }
        if (module_has_symbol(ps, p->name) || func_has_var(f, p->name))
            continue;
        if (in->m.op == PTX_OP_BRA && !p->addr)
            ok = ptx_ps_error(ps, p->line, p->col, "undefined label '%s'", p->name);
        else
            ok = ptx_ps_error(ps, p->line, p->col, "undefined symbol '%s'", p->name);
    }
    return ok;
}

bool ptx_b_func_end(ptx_pstate *ps, bool has_body)
{
    ptx_function *f = &ps->f;
    f->is_decl = !has_body;
    if (has_body)
        resolve_pending(ps);
    /* after an error the parser may have left inner blocks unclosed */
    while (ps->scope_depth > 0)
        ptx_b_scope_pop(ps);
    ps->in_func = false;
    ps->dt = PTX_DT_MODULE;
    if (ps->failed)             /* not built; the parse goes on to find more errors */
        return !ps->fatal;
    ptx_module *m = ps->m;
    for (int32_t i = 0; i < m->nfuncs; i++) {
        if (strcmp(m->funcs[i].name, f->name))
            continue;
        if (m->funcs[i].is_entry != f->is_entry)
            return ptx_ps_error(ps, f->loc.line, f->loc.col, "'%s' declared both as .entry and .func", f->name);
        if (!has_body)
            return true;                /* a declaration after the definition */
        if (!m->funcs[i].is_decl)
            return ptx_ps_error(ps, f->loc.line, f->loc.col, "redefinition of '%s'", f->name);
        m->funcs[i] = *f;               /* the definition replaces the declaration */
        return true;
    }
    if (!GROW(ps, m->funcs, ps->cap_funcs, m->nfuncs + 1))
        return false;
    m->funcs[m->nfuncs++] = *f;
    return true;
}

bool ptx_b_scope_push(ptx_pstate *ps)
{
    if (ps->scope_depth >= PTX_MAX_SCOPE_DEPTH) {
        ptx_ps_error(ps, ps->line, ps->col - 1, "blocks nested more than %d deep", PTX_MAX_SCOPE_DEPTH);
        ps->fatal = true;
        return false;
    }
    if (!ptx_names_push(&ps->names))
        return ptx_ps_error(ps, ps->line, ps->col, "out of memory");
    ps->scope_depth++;
    return true;
}

void ptx_b_scope_pop(ptx_pstate *ps)
{
    ptx_names_pop(&ps->names);
    ps->scope_depth--;
}

bool ptx_b_label(ptx_pstate *ps, const char *name, int32_t line, int32_t col)
{
    ptx_function *f = &ps->f;
    if (find_label(f, name) >= 0)
        return ptx_ps_error(ps, line, col, "duplicate label '%s'", name);
    if (!GROW(ps, f->labels, ps->cap_labels, f->nlabels + 1))
        return false;
    f->labels[f->nlabels++] = (ptx_label){.name = name, .insn = f->ninsns};
    return true;
}

bool ptx_b_proto(ptx_pstate *ps, const char *name, int32_t line, int32_t col)
{
    ptx_binding b = {.kind = PTX_BIND_SYM, .sym = name, .depth = ps->scope_depth};
    if (!ptx_names_bind(&ps->names, name, b))
        return ptx_ps_error(ps, line, col, "out of memory");
    return true;
}
