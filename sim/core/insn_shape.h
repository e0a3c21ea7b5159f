/* Operand counts and address operands of the PTX instructions whose shape
 * is fixed, checked when a program is loaded so that the executor never
 * reads an operand an instruction does not have. */
#ifndef WARPSIM_INSN_SHAPE_H
#define WARPSIM_INSN_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include "frontend/ptx/ptx_ir.h"

/* True when in has as many operands as its opcode takes and an address
 * ([...]) where one is needed; otherwise false with the reason ("add.s32
 * takes 3 operands, not 2") in why. */
bool ws_insn_shape_ok(const ptx_insn *in, const char *mnemonic, char *why, size_t why_size);

/* The PTX ISA's type rule for a register source operand: an integer
 * register (.sN/.uN) where a floating-point type is wanted, or the
 * reverse, is an error (.bN registers go with either); false with the
 * reason in why.  index counts from 0. */
bool ws_operand_type_ok(const ptx_function *f, const ptx_operand *o, ptx_type want, int index,
                        const char *mnemonic, char *why, size_t why_size);

#endif
