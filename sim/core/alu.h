/* Lane-wise instruction semantics: one call executes one ALU-class
 * instruction for the active lanes of a warp.
 *
 * Register values are canonical: a value of a W-bit type is held in the low
 * W bits of a uint64_t with the rest zero (f16 in 16 bits, f32 as its bit
 * pattern in 32, predicates as 0 or 1).  Operands follow the PTX operand
 * order: dst[0] is the first destination (dst[1] the second predicate of
 * "setp ... p|q", else NULL); src[i] is the i-th source.  Each row holds 32
 * lanes; the caller broadcasts immediates and special registers into rows
 * and has already applied "!" to negated predicate sources.  A NULL dst row
 * is a sink ("_").  cc is the per-lane carry flag used by .cc, addc, subc,
 * madc (NULL when the instruction does not touch it).
 *
 * Opcodes handled here: abs add addc and bfe bfi bfind bmsk brev clz cnot
 * copysign cos cvt div dp4a ex2 fma fns lg2 lop3 mad mad24 madc max min mov
 * (scalar) mul mul24 neg not or popc prmt rcp rem rsqrt sad selp set setp shf
 * shl shr sin slct sqrt sub subc tanh testp xor.  Results are bit-exact with
 * the GPU where PTX defines them exactly; .approx functions are within the
 * PTX ISA's documented bounds. */
#ifndef WARPSIM_ALU_H
#define WARPSIM_ALU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../../isa/ptx_isa.h"

#define WS_WARP_SIZE 32

/* True when ws_alu_exec handles this opcode with these modifiers; else
 * false with a one-line reason ("cvt.rn.f16.f64 is not supported") in why. */
bool ws_alu_supports(const ptx_mods *m, char *why, size_t why_size);

/* True when the opcode is one this module executes (whatever modifiers):
 * its row in isa/ptx_opcodes.def names an ALU family. */
bool ws_alu_handles(ptx_opcode op);

/* The families of ALU instructions, each executed by one alu_*.c file.
 * ARITH and FARITH appear only in the opcode table: an instruction of
 * such an opcode is INT, FLOAT or HALF by its type. */
typedef enum ws_alu_family {
    WS_FAM_NONE, WS_FAM_INT, WS_FAM_BITS, WS_FAM_FLOAT, WS_FAM_HALF, WS_FAM_CMP,
    WS_FAM_CVT, WS_FAM_SFU, WS_FAM_ARITH, WS_FAM_FARITH
} ws_alu_family;

/* The family that executes m (never ARITH or FARITH); NONE when none does. */
ws_alu_family ws_alu_family_of(const ptx_mods *m);

/* Executes m with the family decode resolved (ws_alu_family_of(m)). */
void ws_alu_run(ws_alu_family family, const ptx_mods *m, uint32_t mask,
                uint64_t *const dst[2], const uint64_t *const src[4], uint64_t *cc);

/* The commonest forms (32- and 64-bit integer add, sub, mul, mad, shifts
 * and logic; f32/f64 add, sub, mul, fma; setp without a boolean operation;
 * selp; the common cvt forms) have handlers of their own (alu_fast.c):
 * ws_alu_fast_of gives m's handler index, 0 when m takes ws_alu_run.  A
 * handler computes exactly what ws_alu_run computes for one destination row
 * d (not a sink, no second predicate, no carry) and sources a, b, c (rows
 * of zeros where absent), so decode picks one once per instruction. */
typedef void (*ws_alu_fast_fn)(uint32_t mask, uint64_t *d, const uint64_t *a,
                               const uint64_t *b, const uint64_t *c);
extern const ws_alu_fast_fn ws_alu_fast_fns[];
/* The same handlers on rows of 4-byte lanes, for an instruction whose
 * destination and sources are all 32 bits or fewer (predicates included):
 * what the 8-byte form computes from the sources' low 32 bits, cut to its
 * low 32 bits. */
typedef void (*ws_alu_fast_fn32)(uint32_t mask, uint32_t *d, const uint32_t *a,
                                 const uint32_t *b, const uint32_t *c);
extern const ws_alu_fast_fn32 ws_alu_fast_fns32[];
uint8_t ws_alu_fast_of(const ptx_mods *m);

/* ws_alu_run with the family looked up. */
void ws_alu_exec(const ptx_mods *m, uint32_t mask,
                 uint64_t *const dst[2], const uint64_t *const src[4],
                 uint64_t *cc);

#endif
