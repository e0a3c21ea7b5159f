/* Warps, blocks and one launch in execution: the state the executor steps.
 *
 * ws_warp_step executes exactly one decoded instruction of a warp, so a
 * timing model can decide when each warp issues; the functional launcher
 * (launch.c) simply steps the warps of a block round-robin. */
#ifndef WARPSIM_WARP_H
#define WARPSIM_WARP_H

#include <stdarg.h>
#include "alu.h"
#include "program.h"
#include "simt_stack.h"

/* Runs the statement that follows once for each lane set in mask, lowest
 * first, with lane bound to its index. */
#define FOR_LANES(mask, lane) \
    for (uint32_t _m = (mask); _m; _m &= _m - 1) \
        for (int lane = __builtin_ctz(_m), _once = 1; _once; _once = 0)

typedef enum ws_warp_state { WS_WARP_READY, WS_WARP_BARRIER, WS_WARP_DONE } ws_warp_state;

typedef struct ws_frame { int32_t ret_pc, call; } ws_frame;

typedef struct ws_warp {
    uint32_t index;         /* warp index within the block */
    uint32_t lanes;         /* lanes that exist (a partial last warp has fewer) */
    uint32_t exited;        /* lanes that have exited */
    uint8_t state;          /* ws_warp_state */
    uint32_t bar_id, bar_count;     /* the barrier it waits at; count 0 = all threads */
    int32_t bar_pc;
    uint32_t bar_true;              /* bar.red: arrived threads whose predicate is true */
    ws_simt_stack stack;
    ws_frame *frames; int32_t nframes, framecap;    /* .func calls */
    uint64_t (*regs)[WS_WARP_SIZE];
    uint64_t cc[WS_WARP_SIZE];      /* carry flags */
    uint64_t insts;
} ws_warp;

typedef struct ws_block {
    ws_dim3 idx;
    uint32_t nthreads, nwarps;
    ws_warp *warps;
    uint8_t *shared; uint32_t shared_size;
    uint8_t *local;         /* nthreads * program local_size */
    uint8_t *tparam;        /* nthreads * program tparam_size */
} ws_block;

/* One launch of a kernel. */
typedef struct ws_exec {
    const ws_program *p;
    const ws_kernel *k;
    const ws_launch *l;
    ws_launch_stats *stats;
    ws_error *err;
    FILE *out;              /* device printf */
    uint64_t clock;         /* %clock in functional mode: warp steps so far */
} ws_exec;

typedef enum ws_step_result {
    WS_STEP_OK, WS_STEP_BLOCKED, WS_STEP_DONE, WS_STEP_FAULT
} ws_step_result;

/* What one step did, for a timing model or a trace. */
typedef struct ws_step_info {
    int32_t pc;
    uint32_t active;        /* lanes of the path that issued */
    uint32_t mask;          /* lanes that executed (guard applied) */
    bool mem;               /* a memory access: addr[], size, space, store */
    bool store;
    uint8_t space;          /* ws_space as resolved (generic resolved per lane is not kept) */
    uint32_t size;          /* bytes per lane */
    uint64_t addr[WS_WARP_SIZE];
} ws_step_info;

/* Executes the next instruction of w.  info may be NULL. */
ws_step_result ws_warp_step(ws_exec *x, ws_block *b, ws_warp *w, ws_step_info *info);

/* Sets a warp up at the kernel's first instruction (regs must point to
 * x->p->nregs zeroed rows). */
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
                  uint32_t mask);
bool ws_exec_cvta(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, uint32_t mask);
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
/* Control flow: bra, call, ret, exit, fend, bar, printf, assert, trap.
 * Leaves the stack's top pc where the warp goes next. */
ws_step_result ws_exec_ctrl(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in,
                            int32_t pc, uint32_t active, uint32_t mask);

/* The grid, the block and the parameter buffer of a launch are ones a GPU
 * would take; if not, false with *err filled (launch.c). */
bool ws_launch_check(const ws_program *p, const ws_kernel *k, const ws_launch *l, ws_error *err);

#endif
