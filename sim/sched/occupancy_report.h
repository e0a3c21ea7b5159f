/* Explaining an occupancy result: the text report, the JSON object, the
 * comparison of the two rules, and sweeps over one input. */
#ifndef WARPSIM_OCCUPANCY_REPORT_H
#define WARPSIM_OCCUPANCY_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "occupancy.h"

/* The full report: inputs, blocks, warps, occupancy, each resource's limit
 * and how it arose, the limiter; then the other rule's answer and, where
 * the rules differ, why.  shown is the rule asked for; hw and tb are the
 * results of both rules for the same input. */
void ws_occ_print_report(FILE *out, const ws_gpu_config *g, const char *gpu_label,
                         const ws_occ_input *in, ws_occ_rule shown,
                         const ws_occ_result *hw, const ws_occ_result *tb);

/* One JSON object: blocks_per_sm, active_warps, max_warps, occupancy,
 * limiter, limits {warps, registers, shared_memory, blocks} (null for a
 * resource the kernel does not use), rule; plus error and message when the
 * block cannot launch.  No newline after it. */
void ws_occ_print_json(FILE *out, const ws_occ_result *r);

/* Where and why the rules differ, one sentence per line ending in '\n';
 * empty when every limit agrees.  Returns the length written. */
size_t ws_occ_explain_difference(const ws_gpu_config *g, const ws_occ_input *in,
                                 const ws_occ_result *hw, const ws_occ_result *tb,
                                 char *buf, size_t size);

/* The launch error as the CUDA runtime reports it, with the reason:
 * "cudaErrorLaunchOutOfResources (too many resources requested for
 * launch): 256 threads x 255 registers need ...". */
void ws_occ_format_error(const ws_gpu_config *g, const ws_occ_input *in,
                         const ws_occ_result *r, char *buf, size_t size);

typedef enum ws_occ_sweep_var { WS_SWEEP_THREADS, WS_SWEEP_REGS, WS_SWEEP_SMEM } ws_occ_sweep_var;

typedef struct ws_occ_sweep_point {
    int64_t x;                  /* threads, registers, or bytes of dynamic shared memory */
    ws_occ_result hw, tb;
} ws_occ_sweep_point;

/* The x values a sweep visits on g: threads 1..maxThreadsPerBlock,
 * registers 0..maxRegsPerThread, dynamic shared memory 0..the per-block
 * limit in steps of the allocation unit.  Writes at most max points and
 * returns how many there are. */
size_t ws_occ_sweep(const ws_gpu_config *g, const ws_occ_input *in, ws_occ_sweep_var var,
                    ws_occ_sweep_point *pts, size_t max);

/* The sweep as a table, consecutive x with the same answer merged. */
void ws_occ_print_sweep(FILE *out, ws_occ_sweep_var var, ws_occ_rule shown,
                        const ws_occ_sweep_point *pts, size_t n);

const char *ws_occ_sweep_var_name(ws_occ_sweep_var v);  /* "threads", "regs", "smem" */

#endif
