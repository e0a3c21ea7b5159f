/* The simulator's columns of the opcode table (isa/ptx_opcodes.def): for
 * every opcode the executor's class, the ALU family, the default pipe and
 * the opcode's flags; and the per-instruction facts decode resolves from
 * them once, so that the executor, the timing model and the scheduler
 * never look an opcode up while running. */
#ifndef WARPSIM_INSN_TABLE_H
#define WARPSIM_INSN_TABLE_H

#include "alu.h"
#include "insn.h"

/* Flags of an opcode, whatever its modifiers (the FLAGS column). */
enum {
    WS_OPF_NONE     = 0,
    WS_OPF_CARRY    = 1u << 0,  /* reads the carry flag: addc, subc, madc */
    WS_OPF_NORESULT = 1u << 1,  /* never writes a register: red */
    WS_OPF_REFUSED  = 1u << 2   /* recognized only to be refused with a reason: brkpt */
};

typedef struct ws_opcode_info {
    uint8_t cls;        /* ws_iclass */
    uint8_t alu;        /* ws_alu_family, WS_FAM_NONE when the ALU does not execute it */
    uint8_t pipe;       /* ws_pipe, before decode refines it by type */
    uint8_t flags;      /* WS_OPF_* */
} ws_opcode_info;

/* The row of op; a row of an unknown opcode is the trap's, refused. */
const ws_opcode_info *ws_opcode_info_of(ptx_opcode op);

/* Class flags (WS_ICLASSES). */
enum {
    WS_CF_DST = 1u << 0, WS_CF_SOME_DST = 1u << 1, WS_CF_FIXED = 1u << 2,
    WS_CF_LOAD = 1u << 3, WS_CF_WSYNC = 1u << 4, WS_CF_END = 1u << 5
};
uint8_t ws_iclass_flags(ws_iclass c);
const char *ws_iclass_name(ws_iclass c);    /* "ALU", "?" when out of range */

/* Fills in->pipe, in->flags and in->alu from in->cls, in->m and the
 * operands: called by decode once an instruction is complete. */
void ws_insn_classify(ws_insn *in);

#endif
