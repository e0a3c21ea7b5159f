/* Control-flow graphs and immediate post-dominators: where divergent paths
 * of a branch reconverge. */
#ifndef WARPSIM_CFG_H
#define WARPSIM_CFG_H

#include <stdbool.h>
#include <stdint.h>
#include "insn.h"

/* Immediate post-dominators of a graph of n nodes whose successors of node i
 * are succ[off[i] .. off[i+1]), with exit the single exit node (no
 * successors).  ipdom[exit] = exit; a node that cannot reach exit (an
 * infinite loop) gets exit.  Cooper-Harvey-Kennedy on the reverse graph.
 * Returns false only when out of memory. */
bool ws_ipdom(int32_t n, const int32_t *off, const int32_t *succ, int32_t exit,
              int32_t *ipdom);

/* Sets rpc of every guarded branch (bra, and ret inside a .func) of the
 * function whose code is code[start..end], end being its WS_I_FEND: the first
 * instruction of the branch block's immediate post-dominator, or end when
 * that is the exit.  In a kernel ret/exit/trap end a path at the exit. */
bool ws_cfg_reconvergence(ws_insn *code, int32_t start, int32_t end, bool is_kernel);

/* The instructions a thread may run after instruction pc of a function, in
 * succ (at most two); none after the end of a path (exit, ret, trap, the
 * function's end). */
int ws_cfg_successors(const ws_insn *in, int32_t pc, int32_t succ[2]);

#endif
