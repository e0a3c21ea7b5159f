/* The parser's state, shared by the lexer, the grammar actions and the IR
 * builder (ptx_build_*.c).  Internal to frontend/ptx. */
#ifndef WARPSIM_PTX_PSTATE_H
#define WARPSIM_PTX_PSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include "ptx_arena.h"
#include "ptx_ir.h"
#include "ptx_parse.h"

/* Bounds that keep hostile input from exhausting memory or time: far
 * above anything nvcc emits (a few thousand virtual registers, blocks a
 * few deep). */
#define PTX_MAX_REGS 1000000        /* registers per function */
#define PTX_MAX_SCOPE_DEPTH 256     /* nested { } blocks in a function body */

/* What a name declared in a scope stands for. */
typedef enum ptx_bind_kind { PTX_BIND_NONE = 0, PTX_BIND_REG, PTX_BIND_SYM } ptx_bind_kind;

typedef struct ptx_binding {
    const char *key;        /* name as written */
    int32_t kind;           /* ptx_bind_kind */
    int32_t reg;            /* PTX_BIND_REG: register index */
    const char *sym;        /* PTX_BIND_SYM: the (possibly renamed) symbol */
    int32_t depth;          /* scope depth of the declaration */
} ptx_binding;

/* Scoped names: one open-addressing table; leaving a scope restores what
 * each name meant before it (the undo log). */
typedef struct ptx_names {
    ptx_binding *slots; uint32_t cap, used;
    struct { uint32_t slot; ptx_binding old; } *undo; uint32_t nundo, capundo;
    uint32_t *marks; uint32_t nmarks, capmarks;      /* undo length at each scope entry */
} ptx_names;

/* An initializer element, before it is laid out as bytes. */
typedef struct ptx_initval {
    enum { PTX_IV_INT, PTX_IV_F32BITS, PTX_IV_F64BITS, PTX_IV_FLOAT, PTX_IV_SYM } kind;
    uint64_t u;             /* INT (two's complement), F32BITS, F64BITS */
    double d;               /* FLOAT */
    const char *sym;        /* SYM */
    int64_t off;            /* SYM: added offset */
} ptx_initval;

/* An identifier operand resolved when the function ends (labels may be
 * forward references). */
typedef struct ptx_pending {
    int32_t insn, op, elem; /* elem = -1 unless inside a ( ) list */
    bool addr;              /* base of an address: must be a variable */
    const char *name;
    int32_t line, col;
} ptx_pending;

typedef enum ptx_decl_target {
    PTX_DT_MODULE, PTX_DT_PARAMS, PTX_DT_RETS, PTX_DT_BODY, PTX_DT_PROTO
} ptx_decl_target;

typedef struct ptx_pstate {
    ptx_module *m;
    ptx_arena *arena;
    ptx_error *err;
    bool failed;            /* an error was recorded: the module will not be built */
    bool fatal;             /* one the parse cannot go on after (or too many) */
    int32_t last_error_line;
    const char *path;

    /* lexer position and the last token's text, for messages */
    int32_t line, col;
    char tok[48];
    int32_t first_line, first_col;  /* the module's first token (0: none yet) */

    int32_t cap_globals, cap_funcs, cap_files;

    /* the function being built */
    bool in_func;
    ptx_function f;
    int32_t cap_params, cap_rets, cap_regs, cap_locals, cap_insns, cap_labels;
    int32_t linkage;        /* bit 0: .extern, from the linkage directives just read */
    ptx_names declared;     /* every name declared in this function, for renaming */
    uint64_t perf[3]; int32_t nperf;
    int32_t scope_depth;
    int32_t rename_serial;
    ptx_pending *pend; int32_t npend, cap_pend;

    /* the declaration being parsed */
    ptx_decl_target dt;
    ptx_var decl;
    bool decl_ptr;          /* after .ptr: the next space and .align describe the pointee */
    bool decl_extern;
    const char *item_name;
    int32_t item_line, item_col;
    uint64_t item_count;
    bool item_unsized, item_dims;
    ptx_initval *inits; int32_t ninits, cap_inits;

    /* the instruction being parsed */
    const char *mnem;
    ptx_mods mods;          /* decoded when the mnemonic is read */
    int32_t insn_line, insn_col;
    int32_t guard; bool guard_neg;
    ptx_operand ops[PTX_MAX_OPERANDS + 1];
    bool ops_paren[PTX_MAX_OPERANDS + 1];
    int32_t nops;
    ptx_operand *elems; int32_t nelems, cap_elems;
    bool elems_paren;
    int32_t list_depth;

    /* most recent .loc */
    int32_t cu_file, cu_line;

    ptx_names names;
} ptx_pstate;

/* Records an error: the first in err's head, later ones (one per line, up
 * to PTX_MAX_ERRORS) after it.  Returns false so actions can write
 * `if (!ptx_ps_error(...)) YYERROR`. */
bool ptx_ps_error(ptx_pstate *ps, int32_t line, int32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* After an error in a statement: forgets the instruction being built. */
void ptx_b_recover(ptx_pstate *ps);
/* Grows *arr (elem bytes each, *cap elements) from the arena to hold n. */
bool ptx_ps_grow(ptx_pstate *ps, void **arr, int32_t *cap, int32_t n, size_t elem);

/* Names (ptx_names.c) */
void ptx_names_free(ptx_names *t);
const ptx_binding *ptx_names_get(const ptx_names *t, const char *key);
bool ptx_names_bind(ptx_names *t, const char *key, ptx_binding b);
bool ptx_names_push(ptx_names *t);
void ptx_names_pop(ptx_names *t);

/* Mnemonics (ptx_mnemonic.c): fills *m from "ld.global.v4.f32"; on error
 * writes a message (without position) into msg and returns false. */
bool ptx_mnemonic_decode(const char *mnem, ptx_mods *m, char *msg, size_t msgsize);

/* Literals (ptx_literals.c) */
bool ptx_lit_int(const char *text, uint64_t *out);     /* hex, octal, binary, decimal, U suffix */
bool ptx_lit_sreg(const char *name, uint8_t *sreg, uint8_t *comp, bool *known_base);

/* Grammar actions (ptx_build_*.c); each returns false after recording an error. */
bool ptx_b_version(ptx_pstate *ps, const char *text, int32_t line, int32_t col);
bool ptx_b_target(ptx_pstate *ps, const char *name);
/* After the whole module: it began with .version and has a .target. */
bool ptx_b_module_end(ptx_pstate *ps);
bool ptx_b_file(ptx_pstate *ps, uint64_t idx, const char *path, int32_t line, int32_t col);
void ptx_b_loc(ptx_pstate *ps, uint64_t file, uint64_t line);

void ptx_b_decl_begin(ptx_pstate *ps, int32_t space, bool is_extern);
bool ptx_b_decl_type(ptx_pstate *ps, int32_t type, int32_t line, int32_t col);
bool ptx_b_decl_align(ptx_pstate *ps, uint64_t align, int32_t line, int32_t col);
bool ptx_b_decl_vec(ptx_pstate *ps, int32_t vec, int32_t line, int32_t col);
bool ptx_b_decl_space(ptx_pstate *ps, int32_t space, int32_t line, int32_t col);
void ptx_b_decl_ptr(ptx_pstate *ps);
void ptx_b_item_begin(ptx_pstate *ps, const char *name, int32_t line, int32_t col);
bool ptx_b_item_dim(ptx_pstate *ps, bool has_size, uint64_t n, int32_t line, int32_t col);
bool ptx_b_item_init(ptx_pstate *ps, ptx_initval v, int32_t line, int32_t col);
bool ptx_b_item_end(ptx_pstate *ps);
bool ptx_b_item_range(ptx_pstate *ps, uint64_t n, int32_t line, int32_t col);

void ptx_b_func_begin(ptx_pstate *ps, bool is_entry, bool is_extern, int32_t line, int32_t col);
bool ptx_b_func_name(ptx_pstate *ps, const char *name, int32_t line, int32_t col);
bool ptx_b_perf_value(ptx_pstate *ps, uint64_t v, int32_t line, int32_t col);
bool ptx_b_generic(ptx_pstate *ps, const char *word, int32_t line, int32_t col);
bool ptx_b_func_perf(ptx_pstate *ps, int32_t which, const uint64_t *v, int32_t n, int32_t line, int32_t col);
bool ptx_b_func_end(ptx_pstate *ps, bool has_body);
bool ptx_b_scope_push(ptx_pstate *ps);
void ptx_b_scope_pop(ptx_pstate *ps);
bool ptx_b_label(ptx_pstate *ps, const char *name, int32_t line, int32_t col);
bool ptx_b_proto(ptx_pstate *ps, const char *name, int32_t line, int32_t col);

bool ptx_b_insn_begin(ptx_pstate *ps, const char *mnem, int32_t line, int32_t col);
bool ptx_b_guard(ptx_pstate *ps, const char *reg, bool neg, int32_t line, int32_t col);
bool ptx_b_insn_end(ptx_pstate *ps);
/* Operands: each fills *op; ptx_b_push_op appends to the instruction
 * (or to the open { } / ( ) list). */
bool ptx_b_op_reg(ptx_pstate *ps, const char *name, int32_t line, int32_t col, ptx_operand *op);
bool ptx_b_op_ident(ptx_pstate *ps, const char *name, int32_t line, int32_t col, ptx_operand *op);
bool ptx_b_op_sreg(ptx_pstate *ps, const char *text, int32_t line, int32_t col, ptx_operand *op);
bool ptx_b_op_pair(ptx_pstate *ps, const char *first, int32_t line1, int32_t col1,
                   const char *second, int32_t line2, int32_t col2, ptx_operand *op);
bool ptx_b_op_addr(ptx_pstate *ps, const ptx_operand *base, int64_t off, int32_t line, int32_t col, ptx_operand *op);
void ptx_b_list_begin(ptx_pstate *ps, bool paren);
bool ptx_b_list_end(ptx_pstate *ps, ptx_operand *op);
bool ptx_b_push_op(ptx_pstate *ps, const ptx_operand *op, int32_t line, int32_t col);

void ptx_pstate_free_temps(ptx_pstate *ps);

#endif
