/* The decoded instruction: what the executor's hot loop reads.
 *
 * Decoding happens once per module.  Registers are resolved to indices in
 * the program's register file (each function has its own range) and to the
 * rows of a warp's storage that hold their values (reg_rows.c), branch
 * targets and reconvergence points to indices in the program's code array,
 * immediates to canonical values of the operand type, and symbols to
 * addresses (shared symbols to an index the kernel's layout resolves). */
#ifndef WARPSIM_INSN_H
#define WARPSIM_INSN_H

#include <stdbool.h>
#include <stdint.h>
#include "../../isa/ptx_isa.h"
#include "../base/pipe.h"

#define WS_MAX_OPERANDS 6   /* as the front end's PTX_MAX_OPERANDS (decode.c checks) */

/* Where an instruction is written: its .ptx line and column, and the .cu
 * position of its .loc (cu_file indexes the module's .file table, 0 when
 * the PTX has none).  line is 0 for instructions decode synthesizes. */
typedef struct ws_srcpos {
    int32_t line, col;
    int32_t cu_file, cu_line;
} ws_srcpos;

/* Operand kinds after decoding. */
typedef enum ws_okind {
    WS_OK_NONE = 0,
    WS_OK_REG,      /* reg (+ reg2 for "d|p") */
    WS_OK_IMM,      /* imm (+ the kernel's offset of shared symbol sym) */
    WS_OK_SREG,     /* special register sreg.comp */
    WS_OK_ADDR,     /* [reg + imm (+ shared symbol sym)]; reg -1 when none */
    WS_OK_VEC,      /* elements p->vec[elem0 .. elem0+nelems) */
    WS_OK_SINK
} ws_okind;

typedef struct ws_opnd {
    uint8_t kind;       /* ws_okind */
    bool neg;           /* !%p */
    uint8_t sreg, comp;
    uint8_t nelems;
    bool narrow, narrow2;   /* reg, reg2 of 32 bits or fewer: a row of 4-byte lanes */
    int32_t reg, reg2;  /* program register indices, -1 when none */
    int32_t row, row2;  /* where the executor finds them in a warp's register
                           storage, in 128-byte units (reg_rows.c), -1 when none */
    int32_t sym;        /* shared symbol index, -1 when none */
    int32_t elem0;
    uint64_t imm;       /* immediate value or constant address part */
} ws_opnd;

/* What the executor does with an instruction, and what the timing model
 * and the scheduler may assume of every instruction of the class:
 * C(CLASS, class flags).  Opcodes name their class in isa/ptx_opcodes.def.
 *   DST     writes its first operand (SOME_DST: some forms do, decided per
 *           instruction by ws_insn_classify)
 *   FIXED   keeps its order with every other FIXED instruction and every
 *           load (memory writes, synchronization, calls, ...)
 *   LOAD    reads memory no kernel writes while it runs: scheduled early
 *   WSYNC   a warp-synchronous exchange: keeps its order among them
 *   END     ends a basic block */
#define WS_ICLASSES(C) \
    C(ALU,        DST)          /* ws_alu_exec */ \
    C(MOV,        DST)          /* scalar mov (registers, immediates, special registers) */ \
    C(PACK,       DST)          /* mov d, {a, b, ...} */ \
    C(UNPACK,     DST)          /* mov {a, b, ...}, d */ \
    C(CVTA,       DST) \
    C(LD,         DST | LOAD) \
    C(ST,         FIXED) \
    C(ATOM,       SOME_DST | FIXED)     /* atom and red */ \
    C(BAR,        SOME_DST | FIXED)     /* bar.sync / barrier.sync; bar.red */ \
    C(NOP,        FIXED)        /* membar, fence, prefetch, nanosleep, \
                                   cp.async.commit_group / wait_group / wait_all */ \
    C(WARPSYNC,   FIXED)        /* bar.warp.sync */ \
    C(SHFL,       DST | WSYNC) \
    C(VOTE,       DST | WSYNC) \
    C(ACTIVEMASK, DST) \
    C(WMMA,       SOME_DST | FIXED) \
    C(REDUX,      DST | WSYNC) \
    C(MATCH,      DST | WSYNC) \
    C(TEX,        DST | LOAD)   /* tex and tld4 on a texture object (timed as a global load) */ \
    C(TXQ,        DST)          /* txq: an attribute of a texture object */ \
    C(CP_ASYNC,   FIXED)        /* cp.async copy: aux = what its fourth operand is (ws_cp_extra) */ \
    C(MBARRIER,   SOME_DST | FIXED)     /* mbarrier.*, cp.async.mbarrier.arrive */ \
    C(BRA,        FIXED | END) \
    C(CALL,       FIXED | END)  /* call of a .func with a body */ \
    C(PRINTF,     FIXED)        /* call vprintf */ \
    C(ASSERT,     FIXED)        /* call __assertfail */ \
    C(RET,        FIXED | END)  /* in a .func: jump to the function's end; in a kernel: exit */ \
    C(EXIT,       FIXED | END) \
    C(TRAP,       FIXED | END) \
    C(FEND,       FIXED | END)  /* synthesized end of every function (the CFG's exit) */

typedef enum ws_iclass {
#define C(name, flags) WS_I_##name,
    WS_ICLASSES(C)
#undef C
    WS_I_COUNT
} ws_iclass;

/* Facts of one decoded instruction (ws_insn.flags), resolved by decode
 * from its class, its opcode's row and its form. */
enum {
    WS_IF_DST        = 1u << 0,     /* writes its first operand */
    WS_IF_FIXED      = 1u << 1,     /* keeps its order (see WS_ICLASSES; also carry and clock reads) */
    WS_IF_LOAD       = 1u << 2,
    WS_IF_WARP_SYNC  = 1u << 3,
    WS_IF_ENDS_BLOCK = 1u << 4,
    WS_IF_CARRY      = 1u << 5,     /* reads or writes the carry flag (addc, add.cc, ...) */
    WS_IF_NARROW     = 1u << 6,     /* an ALU instruction with a handler (fast) whose destination and
                                     * register sources are all narrow: ws_alu_fast_fns32 runs it */
    WS_IF_SHARED_WORD = 1u << 7,    /* ld.shared or st.shared of one 4-byte word between a 4-byte
                                     * register and the address in a narrow register: their own path
                                     * (exec_mem.c, shared_word_halves) */
    WS_IF_GLOBAL_WORD = 1u << 8     /* ld.global of one 4-byte word into a 4-byte register from the
                                     * address in a 64-bit register: its own path (exec_mem.c,
                                     * ld_global_words) */
};

/* The optional fourth operand of a cp.async copy. */
typedef enum ws_cp_extra {
    WS_CP_NONE,         /* all cp-size bytes are copied */
    WS_CP_SRC_SIZE,     /* src-size: bytes read, the rest of cp-size zero-filled */
    WS_CP_IGNORE_SRC    /* ignore-src predicate: when true, cp-size zero bytes */
} ws_cp_extra;

/* Memory spaces as the executor resolves them. */
typedef enum ws_space {
    WS_SP_GENERIC = 0, WS_SP_GLOBAL, WS_SP_SHARED, WS_SP_LOCAL, WS_SP_PARAM
} ws_space;

/* Param-space addresses: below WS_TPARAM_BASE the kernel's launch parameter
 * buffer, at and above it the thread's .func parameter frames. */
#define WS_TPARAM_BASE UINT64_C(0x0000300000000000)

typedef struct ws_insn {
    ptx_mods m;
    uint8_t cls;        /* ws_iclass */
    uint8_t pipe;       /* ws_pipe */
    uint16_t flags;     /* WS_IF_* */
    uint8_t alu;        /* ws_alu_family of a WS_I_ALU instruction, resolved by type */
    uint8_t fast;       /* WS_I_ALU: its handler in ws_alu_fast_fns, 0 for the general path */
    uint8_t sext_from;  /* cvt to a signed type narrower than its register: the type's bits */
    uint8_t sext_to;    /* ... sign-extended to the register's bits (0 when neither) */
    uint8_t space;      /* ws_space, memory instructions */
    uint8_t nops;
    bool guard_neg;
    int32_t guard;      /* predicate register, -1 when none */
    int32_t guard_row;  /* its row of register storage (narrow), -1 when none */
    int32_t target;     /* bra: target pc; call: callee's first pc */
    int32_t rpc;        /* bra / guarded ret: reconvergence pc */
    int32_t func;       /* index of the function it belongs to */
    int32_t aux;        /* call: index into the program's call table; cp.async: ws_cp_extra */
    uint64_t wmask;     /* mask of types[0]'s width (mov; predicates 1) */
    ws_opnd ops[WS_MAX_OPERANDS];
    ws_srcpos pos;
} ws_insn;

#endif
