/* Warp-wide operations and memory-operation helpers the executor calls:
 * shuffles, votes, reductions, matches, atomic read-modify-write, mbarrier
 * objects, wmma fragments, device printf.
 * Rows are 32 lanes of canonical register values (see alu.h). */
#ifndef WARPSIM_WARP_OPS_H
#define WARPSIM_WARP_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../../isa/ptx_isa.h"

/* shfl.sync.MODE.b32 d|p, a, b, c, membermask, for the lanes in exec_mask.
 * A lane whose source lane is out of range gets its own a (and p = 0), as
 * the PTX ISA specifies; one whose source lane is in range but not in
 * exec_mask gets 0 (and p = 1), as an H200 does.  p may be NULL. */
void ws_shfl_exec(ptx_subop mode, uint32_t exec_mask, const uint64_t a[32],
                  const uint64_t b[32], const uint64_t c[32],
                  uint64_t d[32], uint64_t p[32]);

/* vote.sync.MODE: pred holds each lane's (already negated) predicate.
 * ballot writes the 32-bit mask of active lanes whose pred is 1 into d;
 * all/any/uni write 0/1 predicates into d for the lanes in exec_mask. */
void ws_vote_exec(ptx_subop mode, uint32_t exec_mask, const uint64_t pred[32],
                  uint64_t d[32]);

/* redux.sync.OP.TYPE d, a, membermask for the lanes in exec_mask: every
 * one of them gets the reduction of a over all of them.  OP is m->subop
 * (PTX_SUB_ATOM_ADD, _MIN, _MAX with .u32 or .s32; _AND, _OR, _XOR with
 * .b32); add wraps modulo 2^32.  Results are zero-extended 32-bit values. */
void ws_redux_exec(const ptx_mods *m, uint32_t exec_mask, const uint64_t a[32], uint64_t d[32]);
/* Whether ws_redux_exec implements the form m; else false with a reason. */
bool ws_redux_supports(const ptx_mods *m, char *why, size_t why_size);

/* match.any.sync.TYPE d, a, membermask: d = the lanes of exec_mask whose a
 * equals the lane's own.  match.all.sync.TYPE d|p, a, membermask: d =
 * exec_mask and p = 1 when all of them hold the same a, else d = 0 and p =
 * 0.  TYPE .b32 compares the low 32 bits, .b64 all 64.  p may be NULL. */
void ws_match_exec(ptx_subop mode, ptx_type t, uint32_t exec_mask, const uint64_t a[32],
                   uint64_t d[32], uint64_t p[32]);

/* mbarrier objects, the 64-bit shared-memory word of the PTX ISA's
 * mbarrier.* instructions.  warpsim's encoding (opaque to programs): bits
 * 0-19 the pending arrivals of the current phase, 20-39 the expected
 * arrivals per phase, 40-62 the phase number.  A word whose expected count
 * is 0 is not initialized (or was invalidated). */
#define WS_MBAR_MAX_COUNT ((UINT32_C(1) << 20) - 1)
uint64_t ws_mbar_init(uint32_t count);
bool ws_mbar_valid(uint64_t word);
/* count arrivals (arrive_drop: and as many fewer expected from the next
 * phase on).  When the pending count reaches 0 the phase completes: the
 * phase number advances and the pending count is reset to the expected
 * count.  *state gets the phase the arrivals belong to and the pending
 * count before them (the PTX ISA's state "prior to the arrive-on
 * operation"; count when they completed the phase).  False, word unchanged, when
 * count exceeds the pending count (undefined in the PTX ISA). */
bool ws_mbar_arrive(uint64_t *word, uint32_t count, bool drop, uint64_t *state);
/* Whether the phase that state names has completed; with parity, state is
 * a phase parity (0 or 1): the phase of that parity among the current and
 * the one before. */
bool ws_mbar_phase_done(uint64_t word, uint64_t state, bool parity);
/* mbarrier.pending_count: the pending count a state recorded. */
uint32_t ws_mbar_pending(uint64_t state);

/* One atomic read-modify-write: given the old memory value, returns the new
 * one for atom/red with modifiers m (m->types[0] is the operand type; subop
 * the operation; b the operand, c the CAS new value).  Values canonical. */
uint64_t ws_atom_apply(const ptx_mods *m, uint64_t old, uint64_t b, uint64_t c);

/* Memory access callbacks for operations that touch memory on their own. */
typedef bool (*ws_read_fn)(void *ctx, uint64_t addr, void *dst, uint32_t size);
typedef bool (*ws_write_fn)(void *ctx, uint64_t addr, const void *src, uint32_t size);

/* wmma.load.{a,b,c} / wmma.store.d / wmma.mma for the m16n16k16 shape with
 * f16 A/B and f16 or f32 C/D.  frag[r][lane] is fragment register r of a
 * lane (the PTX vector operand's r-th element).  The whole warp takes part.
 * base is the matrix address in space addressing of ptr (the caller passes
 * addresses to its read/write callbacks unchanged); stride is the leading
 * dimension in elements.  Returns false (with why filled) on a memory fault
 * or an unsupported form. */
int ws_wmma_fragment_regs(const ptx_mods *m);   /* registers in the fragment operand */
/* wmma.mma only: registers in operand 0 = d, 1 = a, 2 = b, 3 = c (-1 when
 * the form is not supported).  ws_wmma_fragment_regs gives d's for mma. */
int ws_wmma_mma_regs(const ptx_mods *m, int operand);
/* A load reads the tile a run of 16 elements at a time (a row of a
 * row-major tile, a column of a column-major one) through rd_run where it
 * can; rd_run returns false (and reports nothing) to have that load's
 * elements read one by one through rd instead, which reports a fault
 * where it finds one.  rd_run may be NULL. */
bool ws_wmma_load(const ptx_mods *m, uint64_t base, uint32_t stride, ws_read_fn rd_run,
                  ws_read_fn rd, void *ctx, uint64_t *frag[], char *why, size_t why_size);
bool ws_wmma_store(const ptx_mods *m, uint64_t base, uint32_t stride,
                   ws_write_fn wr, void *ctx, uint64_t *const frag[], char *why, size_t why_size);
void ws_wmma_mma(const ptx_mods *m, uint64_t *d[], uint64_t *const a[],
                 uint64_t *const b[], uint64_t *const c[]);

/* The memory a wmma.load or wmma.store touches, as warp-wide accesses for
 * the memory counters and timing: each lane's distinct fragment elements
 * in order, the two elements of each pair (2r, 2r + 1) taken as one access
 * when every pair of every lane is adjacent in memory and aligned to the
 * two (as a 32-bit register holds two f16, or LDG.64 would load two f32),
 * else one access per element.  Access k of lane l is at base +
 * off[k * WS_WARP_SIZE + l], *size bytes; returns the number of accesses
 * (4 or 8), or 0 when m is not a supported load or store.  off holds
 * WS_WMMA_MAX_ACCESSES * 32 offsets. */
#define WS_WMMA_MAX_ACCESSES 8
int ws_wmma_accesses(const ptx_mods *m, uint32_t stride, uint64_t *off,
                     uint32_t *size);

/* Device printf (vprintf): fmt_addr is the device address of the format
 * string, args the packed argument buffer as nvcc lays it out (each argument
 * at its natural alignment; float promoted to double).  %s arguments are
 * device addresses read through rd.  Writes the formatted text to out.
 * Returns the number of characters, or -1 on a fault (why filled). */
int ws_device_printf(FILE *out, uint64_t fmt_addr, const uint8_t *args, size_t args_size,
                     ws_read_fn rd, void *ctx, char *why, size_t why_size);

#endif
