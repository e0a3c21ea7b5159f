/* The decoded instruction: what the executor's hot loop reads.
 *
 * Decoding happens once per module.  Registers are resolved to indices in
 * the program's register file (each function has its own range), branch
 * targets and reconvergence points to indices in the program's code array,
 * immediates to canonical values of the operand type, and symbols to
 * addresses (shared symbols to an index the kernel's layout resolves). */
#ifndef WARPSIM_INSN_H
#define WARPSIM_INSN_H

#include <stdbool.h>
#include <stdint.h>
#include "../../frontend/ptx/ptx_ir.h"

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
    int32_t reg, reg2;  /* program register indices, -1 when none */
    int32_t sym;        /* shared symbol index, -1 when none */
    int32_t elem0;
    uint64_t imm;       /* immediate value or constant address part */
} ws_opnd;

/* What the executor does with an instruction. */
typedef enum ws_iclass {
    WS_I_ALU,       /* ws_alu_exec */
    WS_I_MOV,       /* scalar mov (registers, immediates, special registers) */
    WS_I_PACK,      /* mov d, {a, b, ...} */
    WS_I_UNPACK,    /* mov {a, b, ...}, d */
    WS_I_CVTA,
    WS_I_LD, WS_I_ST,
    WS_I_ATOM,      /* atom and red */
    WS_I_BAR,       /* bar.sync / barrier.sync */
    WS_I_NOP,       /* membar, fence, prefetch, nanosleep,
                       cp.async.commit_group / wait_group / wait_all */
    WS_I_WARPSYNC,  /* bar.warp.sync */
    WS_I_SHFL, WS_I_VOTE, WS_I_ACTIVEMASK, WS_I_WMMA,
    WS_I_REDUX, WS_I_MATCH,
    WS_I_TEX,       /* tex and tld4 on a texture object (timed as a global load) */
    WS_I_TXQ,       /* txq: an attribute of a texture object */
    WS_I_CP_ASYNC,  /* cp.async copy: aux = what its fourth operand is (ws_cp_extra) */
    WS_I_MBARRIER,  /* mbarrier.*, cp.async.mbarrier.arrive */
    WS_I_BRA,
    WS_I_CALL,      /* call of a .func with a body */
    WS_I_PRINTF,    /* call vprintf */
    WS_I_ASSERT,    /* call __assertfail */
    WS_I_RET,       /* in a .func: jump to the function's end; in a kernel: exit */
    WS_I_EXIT,
    WS_I_TRAP,
    WS_I_FEND       /* synthesized end of every function (the CFG's exit) */
} ws_iclass;

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
    uint8_t space;      /* ws_space, memory instructions */
    uint8_t nops;
    bool guard_neg;
    int32_t guard;      /* predicate register, -1 when none */
    int32_t target;     /* bra: target pc; call: callee's first pc */
    int32_t rpc;        /* bra / guarded ret: reconvergence pc */
    int32_t func;       /* index of the function it belongs to */
    int32_t aux;        /* call: index into the program's call table; cp.async: ws_cp_extra */
    ws_opnd ops[PTX_MAX_OPERANDS];
    const ptx_insn *src;    /* source position, NULL for synthesized ones */
} ws_insn;

#endif
