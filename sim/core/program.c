/* Loading a module: module variables placed in device memory, functions
 * decoded; and looking things up in the loaded program. */
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "../../frontend/ptx/ptx_demangle.h"
#include "../../frontend/ptx/ptx_parse.h"
#include "../../frontend/ptx/ptx_query.h"

/* .global and .const variables: allocated, then initialized (an
 * initializer naming a symbol gets that symbol's address). */
static bool place_globals(ws_program *p, ws_error *err)
{
    const ptx_module *m = p->m;
    p->nglobals = m->nglobals;
    p->globals = calloc((size_t)m->nglobals + 1, sizeof *p->globals);
    if (!p->globals) return false;
    for (int32_t i = 0; i < m->nglobals; i++) {
        const ptx_var *v = &m->globals[i];
        p->globals[i].name = v->name;
        p->globals[i].size = ptx_var_size(v);
        if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) continue;
        uint64_t a = ws_devmem_alloc(p->mem, p->globals[i].size ? p->globals[i].size : 1);
        if (!a) {
            ws_load_error(p, &v->loc, err, "no device memory for variable '%s'", v->name);
            return false;
        }
        p->globals[i].addr = a;
        /* a variable without an initializer starts zeroed (CUDA's static
         * storage), which initcheck counts as written */
        if (!ws_devmem_mark_init(p->mem, a, p->globals[i].size)) {
            ws_load_error(p, &v->loc, err, "no memory for variable '%s'", v->name);
            return false;
        }
    }
    for (int32_t i = 0; i < m->nglobals; i++) {
        const ptx_var *v = &m->globals[i];
        if (!p->globals[i].addr) continue;
        if (v->init && v->init_size &&
            !ws_devmem_write(p->mem, p->globals[i].addr, v->init,
                             v->init_size < p->globals[i].size ? v->init_size : p->globals[i].size)) {
            ws_load_error(p, &v->loc, err, "cannot initialize variable '%s'", v->name);
            return false;
        }
        if (!v->init_syms) continue;
        uint32_t es = ptx_type_size(v->type);
        uint64_t n = v->count * (v->vec > 1 ? v->vec : 1);
        for (uint64_t e = 0; e < n; e++) {
            const char *s = v->init_syms[e];
            if (!s) continue;
            uint64_t addr = 0;
            for (int32_t j = 0; j < m->nglobals; j++)
                if (!strcmp(m->globals[j].name, s)) addr = p->globals[j].addr;
            if (!addr) {
                ws_load_error(p, &v->loc, err,
                              "unsupported initializer of '%s': address of '%s'", v->name, s);
                return false;
            }
            ws_devmem_write(p->mem, p->globals[i].addr + e * es, &addr, es < 8 ? es : 8);
        }
    }
    return true;
}

/* Each function's name as messages show it. */
static bool name_functions(ws_program *p)
{
    for (int32_t i = 0; i < p->nfuncs; i++) {
        char name[PTX_DEMANGLED_MAX];
        const char *mangled = p->funcs[i].f->name;
        p->funcs[i].name = mangled;
        p->funcs[i].shown = strdup(ptx_demangle(mangled, name, sizeof name, NULL, 0) ? name : mangled);
        if (!p->funcs[i].shown) return false;
    }
    return true;
}

/* Each kernel's parameter buffer, once, so that no launch walks the IR. */
static bool layout_params(ws_program *p)
{
    for (int32_t i = 0; i < p->nkernels; i++)
        if (!ws_kernel_layout_params(&p->kernels[i], p->funcs[p->kernels[i].func].f)) return false;
    return true;
}

/* Widens the window [*lo, *lo + *size) to take [off, end); an empty range
 * changes nothing. */
static void widen_bytes(uint32_t *lo, uint32_t *size, uint32_t off, uint32_t end)
{
    if (end <= off) return;
    if (*size == 0) {
        *lo = off;
        *size = end - off;
        return;
    }
    uint32_t hi = *lo + *size;
    if (off < *lo) *lo = off;
    if (end > hi) hi = end;
    *size = hi - *lo;
}

/* Widens the window [*lo, *hi) to take [lo2, hi2); an empty range
 * changes nothing. */
static void widen_range(int32_t *lo, int32_t *hi, int32_t lo2, int32_t hi2)
{
    if (*hi == *lo) {
        *lo = lo2;
        *hi = hi2;
    } else if (hi2 > lo2) {
        if (lo2 < *lo) *lo = lo2;
        if (hi2 > *hi) *hi = hi2;
    }
}

/* Widens k's windows (registers, local memory, parameter frames) by
 * function fi's and those of the functions it calls (calls form no cycle:
 * decode rejects recursion).  A function without a body (vprintf) has a
 * parameter frame, its callers' copies write. */
static void widen_window(const ws_program *p, ws_kernel *k, int32_t fi, bool *seen)
{
    if (fi < 0 || seen[fi]) return;
    seen[fi] = true;
    const ws_func *wf = &p->funcs[fi];
    widen_bytes(&k->tparam_lo, &k->tparam_size, wf->tparam_off, wf->tparam_end);
    widen_bytes(&k->local_lo, &k->local_size, wf->local_off, wf->local_end);
    if (wf->start < 0) return;
    k->funcs[k->nfuncs++] = fi;         /* room for every function: register_windows */
    widen_range(&k->reg_lo, &k->reg_hi, wf->reg_base, wf->reg_base + wf->nregs);
    widen_range(&k->code_lo, &k->code_hi, wf->start, wf->end + 1);
    widen_range(&k->row_lo, &k->row_hi, wf->row_base, wf->row_base + wf->nrows);
    for (int32_t pc = wf->start; pc < wf->end; pc++) {
        const ws_insn *in = &p->code[pc];
        if (in->cls == WS_I_CALL) widen_window(p, k, p->calls[in->aux].callee, seen);
        /* bar.sync a, b and bar.red.op d, a, b, c */
        if (in->cls == WS_I_BAR && in->nops > (in->m.subop == PTX_SUB_BAR_RED ? 3 : 1)) k->counted_barriers = true;
    }
}

/* Each kernel's windows: the span of the code, the registers (local memory,
 * parameter frames) of its function and of every function it can call;
 * and those functions (ws_kernel.funcs).
 * Functions' registers are laid out one after another, and so are their
 * local variables and frames, so a kernel that calls nothing gets exactly
 * its own, and an empty kernel none, however large the rest of the module
 * is. */
static bool register_windows(ws_program *p)
{
    bool *seen = malloc((size_t)p->nfuncs + 1);
    if (!seen) return false;
    for (int32_t i = 0; i < p->nkernels; i++) {
        ws_kernel *k = &p->kernels[i];
        memset(seen, 0, (size_t)p->nfuncs + 1);
        k->reg_lo = k->reg_hi = p->funcs[k->func].reg_base;
        k->row_lo = k->row_hi = p->funcs[k->func].row_base;
        k->code_lo = k->code_hi = p->funcs[k->func].start;
        k->local_lo = k->local_size = k->tparam_lo = k->tparam_size = 0;
        k->counted_barriers = false;
        k->nfuncs = 0;
        if (!(k->funcs = malloc(sizeof *k->funcs * (size_t)p->nfuncs))) {
            free(seen);
            return false;
        }
        widen_window(p, k, k->func, seen);
        int32_t *fit = realloc(k->funcs, sizeof *k->funcs * (size_t)k->nfuncs);
        if (fit) k->funcs = fit;
    }
    free(seen);
    return true;
}

ws_program *ws_program_load(const ptx_module *m, ws_devmem *mem, ws_error *err)
{
    ws_program *p = calloc(1, sizeof *p);
    err->msg[0] = '\0';
    if (!p) {
        ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        return NULL;
    }
    p->m = m;
    p->target = m->target;
    p->mem = mem;
    if (!place_globals(p, err) || !ws_decode_module(p, err) || !name_functions(p) ||
        !layout_params(p) || !ws_program_pack_rows(p) || !register_windows(p) || !ws_kernels_zero_rows(p)) {
        if (!err->msg[0]) ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        ws_program_free(p);
        return NULL;
    }
    return p;
}

void ws_program_free(ws_program *p)
{
    if (!p) return;
    for (int32_t i = 0; i < p->nglobals; i++)
        if (p->globals[i].addr) ws_devmem_free(p->mem, p->globals[i].addr);
    for (int32_t i = 0; i < p->nkernels; i++) {
        free(p->kernels[i].shared_off);
        free(p->kernels[i].param_off);
        free(p->kernels[i].param_size);
        free(p->kernels[i].zero_rows);
        free(p->kernels[i].funcs);
    }
    free(p->kernels);
    free(p->globals);
    free(p->shared);
    free(p->copies);
    free(p->calls);
    for (int32_t i = 0; p->funcs && i < p->nfuncs; i++) free(p->funcs[i].shown);
    free(p->funcs);
    free(p->reg_width);
    free(p->row_of);
    free(p->vec);
    free(p->code);
    free(p->sass_group);
    free(p->sass_lead);
    free(p->sass_source);
    free(p);
}

const ws_kernel *ws_program_kernel(const ws_program *p, const char *name)
{
    const ptx_function *f = ptx_find_kernel(p->m, name);
    for (int32_t i = 0; i < p->nkernels; i++)
        if (p->funcs[p->kernels[i].func].f == f ||
            (!f && !strcmp(p->funcs[p->kernels[i].func].f->name, name)))
            return &p->kernels[i];
    return NULL;
}

const ptx_function *ws_kernel_function(const ws_kernel *k)
{
    return k->p->funcs[k->func].f;
}

const char *ws_kernel_name(const ws_kernel *k)
{
    return k->p->funcs[k->func].name;
}

ws_param_layout ws_kernel_params(const ws_kernel *k)
{
    return (ws_param_layout){.count = k->nparams, .offset = k->param_off, .size = k->param_size,
                             .total = k->params_size};
}

uint32_t ws_kernel_static_smem(const ws_kernel *k)
{
    return k->static_smem;
}

uint64_t ws_program_symbol(const ws_program *p, const char *name, uint64_t *size)
{
    for (int32_t i = 0; i < p->nglobals; i++)
        if (p->globals[i].addr && !strcmp(p->globals[i].name, name)) {
            if (size) *size = p->globals[i].size;
            return p->globals[i].addr;
        }
    return 0;
}

uint32_t ws_program_code_size(const ws_program *p)
{
    return (uint32_t)p->ncode;
}

void ws_program_pc_source(const ws_program *p, uint32_t pc, ws_pc_source *out)
{
    out->ptx_line = 0;
    out->cu_file = NULL;
    out->cu_line = 0;
    if (pc >= (uint32_t)p->ncode || !p->code[pc].pos.line) return;
    const ws_srcpos *pos = &p->code[pc].pos;
    const char *cu = ws_program_cu_path(p, pos->cu_file);
    out->ptx_line = pos->line;
    if (pos->cu_line > 0 && cu) {
        out->cu_file = cu;
        out->cu_line = pos->cu_line;
    }
}

const char *ws_program_cu_path(const ws_program *p, int32_t file)
{
    const ptx_module *m = p->m;
    return file > 0 && file < m->nfiles ? m->files[file] : NULL;
}

const char *ws_cu_file(const ws_program *p, const ws_insn *in)
{
    const char *f = ws_program_cu_path(p, in->pos.cu_file);
    return f ? f : "?";
}

const char *ws_program_path(const ws_program *p)
{
    return p->m->path;
}
