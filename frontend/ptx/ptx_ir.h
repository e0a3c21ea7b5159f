/* The PTX module IR: what the parser builds and the decoder reads.
 *
 * Names are resolved as far as the parser can: registers to indices in the
 * function's register table (nested { } scopes renamed), labels to
 * instruction indices.  Variables, parameters and functions stay names; the
 * decoder resolves them against the function and the module.  Every
 * instruction keeps its source position for error messages and traces. */
#ifndef WARPSIM_PTX_IR_H
#define WARPSIM_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../isa/ptx_isa.h"

typedef enum ptx_operand_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,       /* reg (+ reg2 for the "d|p" pair of setp/shfl) */
    PTX_OPND_IMM_INT,   /* i: as written (a negative literal is sign-extended) */
    PTX_OPND_IMM_F32,   /* f32_bits: 0fXXXXXXXX */
    PTX_OPND_IMM_F64,   /* f64: 0dXXXXXXXXXXXXXXXX or a decimal literal */
    PTX_OPND_SREG,      /* sreg, component (0..2 = x, y, z; 0 where none) */
    PTX_OPND_SYMBOL,    /* name: a variable, parameter or function */
    PTX_OPND_LABEL,     /* target: instruction index in the same function */
    PTX_OPND_ADDR,      /* [base + offset] */
    PTX_OPND_VEC,       /* {e0, e1, ...}: elems[0..nelems); [a, {c0, c1}] of tex and
                           tld4 is elems {a, c0, c1} with bracketed set */
    PTX_OPND_SINK       /* _ */
} ptx_operand_kind;

typedef enum ptx_addr_base {
    PTX_ADDR_NONE = 0,  /* [imm] */
    PTX_ADDR_REG,       /* [%r + imm] */
    PTX_ADDR_SYMBOL     /* [name + imm] */
} ptx_addr_base;

typedef struct ptx_operand ptx_operand;
struct ptx_operand {
    uint8_t kind;       /* ptx_operand_kind */
    bool neg;           /* !%p */
    bool bracketed;     /* PTX_OPND_VEC written as [a, {c...}] */
    int32_t reg;        /* PTX_OPND_REG, PTX_OPND_ADDR with REG base */
    int32_t reg2;       /* second register of "d|p", else -1 */
    union {
        int64_t i;
        uint32_t f32_bits;
        double f64;
        struct { uint8_t sreg; uint8_t component; } s;
        int32_t target;
    } v;
    const char *name;   /* PTX_OPND_SYMBOL; PTX_OPND_ADDR with SYMBOL base */
    uint8_t addr_base;  /* ptx_addr_base */
    int64_t offset;     /* PTX_OPND_ADDR */
    ptx_operand *elems; /* PTX_OPND_VEC */
    int32_t nelems;
};

#define PTX_MAX_OPERANDS 6

typedef struct ptx_srcloc {
    int32_t line, col;      /* in the .ptx file, 1-based */
    int32_t cu_file;        /* .loc file index, 0 if none */
    int32_t cu_line;        /* .loc line, 0 if none */
} ptx_srcloc;

typedef struct ptx_insn {
    ptx_mods m;
    int32_t guard;          /* predicate register, or -1 */
    bool guard_neg;         /* @!%p */
    uint8_t nops;
    ptx_operand ops[PTX_MAX_OPERANDS];
    /* call only: ops[0] = VEC of return params (may be empty), ops[1] =
     * SYMBOL callee (or REG for an indirect call), ops[2] = VEC of argument
     * params, ops[3] = SYMBOL prototype label when written. */
    ptx_srcloc loc;
} ptx_insn;

typedef struct ptx_reg {
    const char *name;       /* "%r12", "%p3", as written */
    ptx_type type;
    uint8_t vec;            /* .reg .v4 .f32: 4, else 1 (rare) */
} ptx_reg;

/* A variable in some state space: module-level .global/.const/.shared,
 * function-level .local/.shared/.reg-less arrays, and .param entries. */
typedef struct ptx_var {
    const char *name;
    ptx_space space;
    ptx_type type;
    uint32_t align;         /* bytes; 0 = natural alignment of type */
    uint8_t vec;            /* .v2/.v4 element vector, else 1 */
    uint64_t count;         /* array elements (1 for a scalar); 0 for extern unsized [] */
    bool is_extern;         /* extern .shared .b8 dyn[] */
    bool ptr_attr;          /* .param .u64 .ptr.global... */
    uint8_t *init;          /* initializer as little-endian bytes, or NULL */
    uint64_t init_size;
    const char **init_syms; /* initializers that name a symbol (generic address of it), else NULL */
    ptx_srcloc loc;
} ptx_var;

typedef struct ptx_label {
    const char *name;
    int32_t insn;           /* index of the instruction that follows the label */
} ptx_label;

typedef struct ptx_function {
    const char *name;
    bool is_entry;          /* .entry (kernel) vs .func */
    bool is_extern;         /* .extern .func vprintf(...) */
    bool is_decl;           /* prototype only, no body */
    ptx_var *params; int32_t nparams;       /* kernel / function parameters */
    ptx_var *rets; int32_t nrets;           /* .func return parameters */
    ptx_reg *regs; int32_t nregs;
    ptx_var *locals; int32_t nlocals;       /* .local, .shared, .param inside the body */
    ptx_insn *insns; int32_t ninsns;
    ptx_label *labels; int32_t nlabels;
    /* performance directives, 0 when absent */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    ptx_srcloc loc;
} ptx_function;

/* The newest PTX ISA version warpsim knows: what nvcc 13.0 emits (and
 * what its ptxas accepts at most). */
#define PTX_ISA_NEWEST_MAJOR 9
#define PTX_ISA_NEWEST_MINOR 0

typedef struct ptx_module {
    const char *path;               /* file name used in messages */
    uint32_t version_major, version_minor;   /* .version; newest accepted: PTX_ISA_NEWEST_* */
    char target[32];                /* "sm_80" */
    uint32_t address_size;          /* 64 */
    ptx_var *globals; int32_t nglobals;     /* .global .const .shared at module scope */
    ptx_function *funcs; int32_t nfuncs;
    const char **files; int32_t nfiles;     /* .file index -> path; files[0] unused */
    void *arena;                    /* owns every string and array above */
} ptx_module;

/* PTX instructions warpsim refuses by name (ptx_unsupported.def): the
 * reason for a mnemonic's first word, or NULL; and the list itself. */
const char *ptx_unsupported_why(const char *word);
size_t ptx_unsupported_count(void);
const char *ptx_unsupported_name(size_t i);

#endif
