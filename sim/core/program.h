/* The decoded program: internal to sim/core (the executor, the launcher and
 * the core tests read it; everything else goes through sim.h). */
#ifndef WARPSIM_PROGRAM_H
#define WARPSIM_PROGRAM_H

#include "insn.h"
#include "sim.h"

typedef struct ptx_srcloc ptx_srcloc;

/* One decoded function: code [start, end] where end is its synthesized
 * WS_I_FEND instruction. */
typedef struct ws_func {
    const ptx_function *f;  /* loading only: the executor reads what decode copied out */
    bool is_entry;          /* a kernel (.entry), not a .func */
    const char *name;       /* its name in the PTX (mangled) */
    char *shown;            /* its name as messages show it: demangled where ptx_demangle can, else name */
    int32_t start, end;
    int32_t reg_base, nregs;    /* its registers: [reg_base, reg_base + nregs) */
    /* Its registers' rows of storage: units [row_base, row_base + nrows)
     * of 128 bytes (a 64-bit register's row takes two), fewer than its
     * registers where their values' lifetimes allow (reg_rows.c). */
    int32_t row_base, nrows;
    uint32_t tparam_off;    /* its params and rets in the thread param frame: [tparam_off, tparam_end) */
    uint32_t local_off;     /* its .local variables in the thread's local memory: [local_off, local_end) */
    uint32_t tparam_end, local_end;
} ws_func;

/* A call of a .func: copy args in before, rets out after. */
typedef struct ws_copy { uint32_t dst, src, size; } ws_copy;
typedef struct ws_call {
    int32_t callee;         /* function index */
    int32_t first;          /* copies [first, first+nargs) then [.., +nrets) in p->copies */
    int32_t nargs, nrets;
} ws_call;

typedef struct ws_shared_sym {
    const char *name;
    uint64_t size;
    uint32_t align;
    bool is_extern;
} ws_shared_sym;

typedef struct ws_global_sym {
    const char *name;
    uint64_t addr, size;
} ws_global_sym;

struct ws_kernel {
    const ws_program *p;
    int32_t func;
    uint32_t *shared_off;   /* per shared symbol: offset in the block's shared memory */
    uint32_t static_smem;   /* bytes of static shared memory */
    uint32_t dyn_off;       /* where the extern dynamic shared memory starts */
    /* its .param list packed (kernel_params.c), laid out once at load */
    int32_t nparams;
    uint32_t *param_off, *param_size;
    uint32_t params_size;
    /* Its register window (program.c): the registers its code and the
     * functions it can call name all lie in [reg_lo, reg_hi), so a warp
     * of it needs state for those only, whatever else the module holds. */
    int32_t reg_lo, reg_hi;
    /* Its code window likewise: the pcs of its function and of those it
     * can call lie in [code_lo, code_hi); and those functions themselves
     * (with code: funcs, nfuncs of them, its own first), so that what a
     * launch works out per instruction it works out for their code only,
     * not for a function laid out between them. */
    int32_t code_lo, code_hi;
    int32_t *funcs;
    int32_t nfuncs;
    /* The rows of storage the registers of that window map to lie in
     * units [row_lo, row_hi): a warp's values take that many, while the
     * timing model keeps its per-register state by register (reg_rows.c). */
    int32_t row_lo, row_hi;
    /* Its windows of the module's per-thread local memory and .func
     * parameter frames, likewise: [local_lo, local_lo + local_size) holds
     * the .local variables of its function and those it can call, and
     * [tparam_lo, tparam_lo + tparam_size) their parameter frames, so a
     * block of it stores those bytes per thread and no more. */
    uint32_t local_lo, local_size, tparam_lo, tparam_size;
    /* The units of its storage window (row - row_lo; both of a 64-bit
     * row) holding a register some path of its code may read before
     * writing it, which a block's start zeroes (reg_init.c); NULL: every
     * unit. */
    int32_t *zero_rows;
    int32_t nzero_rows;
    /* Whether its code or a function it can call has a barrier that names
     * its thread count (bar.sync a, b): one that can complete while other
     * threads of the block still run (block_sync.h ws_block_may_release). */
    bool counted_barriers;
};

/* Finds each kernel's zero_rows (reg_init.c).  False on out of memory. */
bool ws_kernels_zero_rows(ws_program *p);

/* Maps each function's registers onto rows of storage (reg_rows.c): the
 * operands' row, row2 and guard_row, p->row_of and each function's
 * row_base and nrows.  False on out of memory. */
bool ws_program_pack_rows(ws_program *p);

/* Registers of k's window: the entries per warp of the timing model's
 * per-register arrays (its scoreboard), which point reg_lo entries before
 * their storage, so that it indexes them by register number; the code of
 * k never names a register below reg_lo. */
static inline int32_t ws_kernel_reg_rows(const ws_kernel *k)
{
    return k->reg_hi - k->reg_lo;
}

/* Units of register values (128 bytes each) a warp of k stores; a warp's
 * regs point row_lo units before its storage, so that the executor
 * indexes them by row. */
static inline int32_t ws_kernel_rows(const ws_kernel *k)
{
    return k->row_hi - k->row_lo;
}

/* Runs the statement that follows with pc each pc of the code of k's
 * functions in p (ws_kernel.funcs: its own and those it can call). */
#define WS_FOR_KERNEL_PCS(p, k, pc) \
    for (int32_t f_ = 0; f_ < (k)->nfuncs; f_++) \
        for (int32_t pc = (p)->funcs[(k)->funcs[f_]].start; pc <= (p)->funcs[(k)->funcs[f_]].end; pc++)

/* The pointer to index by number, for storage of entries of entry_size
 * bytes starting at number lo.  The offset is taken on the address as an
 * integer: that pointer may lie before the allocation, which C's pointer
 * arithmetic may not form. */
static inline void *ws_index_window(void *storage, size_t entry_size, int32_t lo)
{
    return (void *)((uintptr_t)storage - (uintptr_t)lo * entry_size);
}

/* A warp's per-register entries of k (the scoreboard's), by register. */
static inline void *ws_reg_window(void *storage, size_t entry_size, const ws_kernel *k)
{
    return ws_index_window(storage, entry_size, k->reg_lo);
}

/* A warp's register values of k, by row. */
static inline void *ws_row_window(void *storage, size_t row_size, const ws_kernel *k)
{
    return ws_index_window(storage, row_size, k->row_lo);
}

/* kernel_params.c: fills k's parameter layout from its function's .param
 * list; false when out of memory. */
bool ws_kernel_layout_params(ws_kernel *k, const ptx_function *f);

struct ws_program {
    const ptx_module *m;    /* loading only, as ws_func.f */
    const char *target;     /* the module's .target ("sm_90a") */
    ws_devmem *mem;
    ws_insn *code; int32_t ncode;
    ws_opnd *vec; int32_t nvec;             /* elements of vector operands */
    uint8_t *reg_width;                     /* bytes per register (predicates 1) */
    int32_t nregs;
    int32_t *row_of;                        /* per register: its row of storage, -1 when no code names it */
    ws_func *funcs; int32_t nfuncs;         /* parallel to m->funcs */
    ws_call *calls; int32_t ncalls;
    ws_copy *copies; int32_t ncopies;
    ws_shared_sym *shared; int32_t nshared;
    ws_global_sym *globals; int32_t nglobals;
    ws_kernel *kernels; int32_t nkernels;
    uint32_t local_size;    /* bytes of .local per thread (all functions) */
    uint32_t tparam_size;   /* bytes of .func parameter frames per thread */
    /* SASS-informed counters and timing (sass_groups.c): per pc, NULL when
     * counting PTX-exact; the pc of each grouped access's leader; and the
     * listing's path. */
    uint8_t *sass_group;
    int32_t *sass_lead;
    char *sass_source;
};

/* decode.c: fills code, vec, funcs, calls, shared, globals (p->m and
 * p->mem set; module variables placed by program.c first). */
bool ws_decode_module(ws_program *p, ws_error *err);

/* Formats "file:line:col: error: " + text for an instruction or variable. */
void ws_load_error(const ws_program *p, const ptx_srcloc *loc, ws_error *err,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The path of the module's .file number file, NULL when it has none. */
const char *ws_program_cu_path(const ws_program *p, int32_t file);

/* The .cu file of an instruction's position ("?" when the PTX has none). */
const char *ws_cu_file(const ws_program *p, const ws_insn *in);

/* "ld.global.v4.f32" into buf. */
const char *ws_insn_mnemonic(const ptx_mods *m, char *buf, size_t size);

#endif
