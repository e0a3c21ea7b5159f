/* One warp-level memory access resolved once.
 *
 * The executor (exec_mem.c) splits an access's lanes by the space their
 * addresses fall in and applies the bank rule (shared_banks.h) to the
 * shared lanes and the coalescing rule (coalescer.h) to the global ones,
 * for its counters.  It leaves the results in the step's ws_step_info, and
 * the LSU's timing (sm_lsu.c) and the issue trace (trace_issue.c) take
 * them from there instead of evaluating the rules again.  A consumer that
 * needs the rule for other lanes or another width (local memory, a
 * SASS-merged width, a wmma's later accesses) evaluates it itself. */
#ifndef WARPSIM_MEM_ACCESS_H
#define WARPSIM_MEM_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "../mem/coalescer.h"
#include "../mem/shared_banks.h"

typedef struct ws_mem_resolved {
    bool valid;             /* set by the executor for this step's first access */
    bool load;              /* the bank rule applied as to a load (ld pairs lanes) */
    uint32_t size;          /* bytes per lane the rules were applied to */
    uint32_t smask;         /* lanes in shared memory: banks holds their rule's result */
    uint32_t gmask;         /* lanes in global memory: coalesce holds theirs */
    ws_bank_access banks;
    ws_coalesce coalesce;
} ws_mem_resolved;

struct ws_step_info;
struct ws_insn;

/* The resolved first access of info's step (in its instruction), or NULL
 * when the executor left none (a texture fetch, an mbarrier, a space the
 * counters do not split). */
const ws_mem_resolved *ws_step_resolved(const struct ws_step_info *info, const struct ws_insn *in);

/* The bank rule's result for the lanes in mask at size bytes: r's when it
 * was evaluated for exactly those, else evaluated into *own. */
static inline const ws_bank_access *ws_resolved_banks(const ws_mem_resolved *r, const uint64_t *off,
                                                      uint32_t mask, uint32_t size, bool load,
                                                      ws_bank_access *own)
{
    if (r && r->smask == mask && r->size == size && r->load == load) return &r->banks;
    ws_bank_access_eval(off, mask, size, load, own);
    return own;
}

/* The same for the coalescing rule. */
static inline const ws_coalesce *ws_resolved_coalesce(const ws_mem_resolved *r, const uint64_t *addr,
                                                      uint32_t mask, uint32_t size, ws_coalesce *own)
{
    if (r && r->gmask == mask && r->size == size) return &r->coalesce;
    ws_coalesce_eval(addr, mask, size, own);
    return own;
}

#endif
