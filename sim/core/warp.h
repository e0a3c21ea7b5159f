/* The executor's own parts: what its files (exec*.c, alu*, warp_*.c,
 * block.c, ...) share among themselves.  Launchers use executor.h. */
#ifndef WARPSIM_WARP_H
#define WARPSIM_WARP_H

#include <stdarg.h>
#include "alu.h"
#include "executor.h"

/* Runs the statement that follows once for each lane set in mask, lowest
 * first, with lane bound to its index. */
#define FOR_LANES(mask, lane) \
    for (uint32_t _m = (mask); _m; _m &= _m - 1) \
        for (int lane = __builtin_ctz(_m), _once = 1; _once; _once = 0)

/* Runs stmt for each lane set in mask, as FOR_LANES does; a full warp as
 * a plain loop over the 32 lanes, which the compiler can vectorize. */
#define FOR_LANES_DO(mask, lane, stmt) \
    do { \
        if ((mask) == UINT32_MAX) { \
            for (int lane = 0; lane < WS_WARP_SIZE; lane++) { stmt; } \
        } else { \
            FOR_LANES(mask, lane) { stmt; } \
        } \
    } while (0)

/* A warp's registers (reg_rows.c): a narrow row is 32 lanes of 4 bytes,
 * its values zero-extended; a wide (64-bit) row 32 lanes of 8 bytes, two
 * of the storage's 128-byte units.  Within a launch each unit is always
 * read and written as one of the two. */
static inline uint32_t *ws_row32(const ws_warp *w, int32_t row)
{
    return w->regs[row];
}

static inline uint64_t *ws_row64(const ws_warp *w, int32_t row)
{
    return (uint64_t *)(void *)w->regs[row];
}

static inline uint64_t ws_row_get(const ws_warp *w, int32_t row, bool narrow, int lane)
{
    return narrow ? ws_row32(w, row)[lane] : ws_row64(w, row)[lane];
}

/* A narrow row keeps v's low 32 bits. */
static inline void ws_row_set(const ws_warp *w, int32_t row, bool narrow, int lane, uint64_t v)
{
    if (narrow) ws_row32(w, row)[lane] = (uint32_t)v;
    else ws_row64(w, row)[lane] = v;
}

/* Operand o's register (reg, not reg2) in lane. */
static inline uint64_t ws_reg_get(const ws_warp *w, const ws_opnd *o, int lane)
{
    return ws_row_get(w, o->row, o->narrow, lane);
}

static inline void ws_reg_set(const ws_warp *w, const ws_opnd *o, int lane, uint64_t v)
{
    ws_row_set(w, o->row, o->narrow, lane, v);
}

/* A row as 64-bit lanes, for code that works on those: a wide row itself,
 * a narrow one widened into tmp.  What is written to it reaches a narrow
 * row by ws_row_put. */
static inline uint64_t *ws_row_view(const ws_warp *w, int32_t row, bool narrow, uint64_t tmp[WS_WARP_SIZE])
{
    if (!narrow) return ws_row64(w, row);
    const uint32_t *r = ws_row32(w, row);
    for (int i = 0; i < WS_WARP_SIZE; i++) tmp[i] = r[i];
    return tmp;
}

static inline void ws_row_put(const ws_warp *w, int32_t row, bool narrow, const uint64_t tmp[WS_WARP_SIZE])
{
    if (!narrow) return;
    uint32_t *r = ws_row32(w, row);
    for (int i = 0; i < WS_WARP_SIZE; i++) r[i] = (uint32_t)tmp[i];
}

static inline void ws_progress(ws_exec *x, ws_warp *w)
{
    if (x->steps > x->progress_at) x->progress_at = x->steps;
    w->progress_at = w->insts;
}

/* Sets a warp up at the kernel's first instruction (regs must index the
 * kernel's rows of register storage by row, ws_kernel_rows(k) rows whose
 * zero_rows are zeroed). */
bool ws_warp_start(ws_exec *x, ws_warp *w, uint32_t index, uint32_t lanes);
void ws_warp_free(ws_warp *w);

/* Thread coordinates of lane of w. */
void ws_thread_of(const ws_exec *x, const ws_warp *w, int lane, ws_dim3 *tid);

/* Fills x->err with a kernel fault: text, then the thread (lane >= 0) or
 * warp (lane < 0), block, kernel, pc and source line. */
void ws_fault(ws_exec *x, const ws_block *b, const ws_warp *w, int lane, int32_t pc,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Executors of instruction classes (exec_mem.c, exec_ctrl.c); each returns
 * false on a fault (x->err filled). */
uint64_t ws_opnd_lane(const ws_exec *x, const ws_block *b, const ws_warp *w,
                      const ws_opnd *o, int lane);
const uint64_t *ws_opnd_row(const ws_exec *x, const ws_block *b, const ws_warp *w,
                            const ws_opnd *o, uint64_t scratch[WS_WARP_SIZE]);
bool ws_exec_ld(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                uint32_t mask, ws_step_info *info);
bool ws_exec_st(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                uint32_t mask, ws_step_info *info);
bool ws_exec_atom(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                  uint32_t mask, ws_step_info *info);
bool ws_exec_wmma(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                  uint32_t mask, ws_step_info *info);
bool ws_exec_cvta(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint32_t mask);
/* tex, tld4 and txq on the launch's texture objects (exec_tex.c). */
bool ws_exec_tex(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                 uint32_t mask, ws_step_info *info);
bool ws_exec_txq(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask);
/* cp.async (exec_mem.c): the copy done as it issues, bytes past src-size
 * zero-filled; counted as a global load and a shared store. */
bool ws_exec_cp_async(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                      uint32_t mask, ws_step_info *info);
/* mbarrier.* and cp.async.mbarrier.arrive (exec_mbarrier.c). */
bool ws_exec_mbarrier(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                      uint32_t mask, ws_step_info *info);
/* Reads or writes size bytes of one lane's memory in space. */
bool ws_mem_access(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc, uint8_t space,
                   uint64_t addr, void *buf, uint32_t size, bool write, const char *what);
/* Warp-synchronous operations (exec_warpsync.c): shfl.sync, vote.sync,
 * redux.sync, match.sync,
 * bar.warp.sync.  ws_warpsync_members_opnd gives the membermask operand's
 * index, -1 for an operation that does not wait for other lanes. */
int ws_warpsync_members_opnd(const ws_insn *in);
ws_step_result ws_exec_warpsync(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in,
                                int32_t pc, uint32_t active, uint32_t mask);
/* After groups of w changed (lanes exited, a barrier released, a group
 * waits): completes warp-synchronous operations whose lanes have all
 * arrived and picks the running group.  False on a fault (x->err filled). */
bool ws_warp_settle(ws_exec *x, ws_block *b, ws_warp *w);

/* Control flow: bra, call, ret, exit, fend, bar, printf, assert, trap.
 * Leaves the stack's top pc where the warp goes next. */
ws_step_result ws_exec_ctrl(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in,
                            int32_t pc, uint32_t active, uint32_t mask);

#endif
