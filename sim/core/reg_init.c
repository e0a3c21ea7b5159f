/* Which rows a block's start must zero (program.h, ws_kernel.zero_rows).
 *
 * A register a thread reads before it ever wrote it reads as zero, so a
 * block starts with zeroed registers.  Zeroing every row of every warp is
 * most of the cost of starting a small block, and compiled code writes
 * nearly every register before it reads it.  A must-be-written analysis
 * over the kernel's code finds the registers some path may read first:
 * at each instruction, the registers written on every path from the entry
 * (an instruction under a guard writes only some lanes, so it counts as no
 * write); a read of a register outside that set makes the register one to
 * zero.  Each lane follows some path of the code, so a register no path
 * reads first is written by each lane before the lane reads it. */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "insn_deps.h"
#include "regset.h"

/* Register sets of the kernel's window, nw 64-bit words each. */
typedef struct regset_table {
    uint64_t *bits;
    uint32_t nw;
} regset_table;

static uint64_t *set_at(const regset_table *t, int32_t i)
{
    return ws_regset_at(t->bits, t->nw, i);
}

/* Intersects dst with src; whether dst changed. */
static bool meet(uint64_t *dst, const uint64_t *src, uint32_t nw)
{
    bool changed = false;
    for (uint32_t i = 0; i < nw; i++) {
        uint64_t v = dst[i] & src[i];
        changed |= v != dst[i];
        dst[i] = v;
    }
    return changed;
}

/* Finds k's registers to zero; false on out of memory. */
static bool find_rows(const ws_program *p, ws_kernel *k)
{
    const ws_func *f = &p->funcs[k->func];
    int32_t nregs = k->reg_hi - k->reg_lo, n = f->end - f->start + 1;
    k->zero_rows = NULL;                /* every row, unless shown otherwise */
    k->nzero_rows = 0;
    if (nregs <= 0 || f->start < 0) return true;
    for (int32_t pc = f->start; pc <= f->end; pc++)
        if (p->code[pc].cls == WS_I_CALL) return true;     /* the callee's code is elsewhere */
    regset_table in = {.nw = (uint32_t)(nregs + 63) / 64};
    if ((uint64_t)in.nw * (uint64_t)n > (UINT64_C(1) << 22)) return true;     /* too big to be worth it */
    in.bits = malloc(sizeof *in.bits * in.nw * (size_t)n);
    uint64_t *out = malloc(sizeof *out * in.nw);
    ws_insn_deps *deps = malloc(sizeof *deps * (size_t)n);
    if (!in.bits || !out || !deps) {
        free(in.bits);
        free(out);
        free(deps);
        return false;
    }
    /* none written at the entry; everything elsewhere, to be cut down */
    memset(in.bits, 0xff, sizeof *in.bits * in.nw * (size_t)n);
    memset(set_at(&in, 0), 0, sizeof *in.bits * in.nw);
    for (int32_t i = 0; i < n; i++) ws_insn_deps_of(p, &p->code[f->start + i], &deps[i]);
    for (bool changed = true; changed;) {
        changed = false;
        for (int32_t i = 0; i < n; i++) {
            const ws_insn *ins = &p->code[f->start + i];
            memcpy(out, set_at(&in, i), sizeof *out * in.nw);
            if (ins->guard < 0)
                for (uint8_t d = 0; d < deps[i].ndst; d++) {
                    int32_t r = deps[i].dst[d] - k->reg_lo;
                    if (r >= 0 && r < nregs) ws_regset_add(out, r);
                }
            int32_t succ[2];
            int ns = ws_cfg_successors(ins, f->start + i, succ);
            for (int j = 0; j < ns; j++) {
                int32_t s = succ[j] - f->start;
                if (s >= 0 && s < n) changed |= meet(set_at(&in, s), out, in.nw);
            }
        }
    }
    /* the reads of what may not be written yet; unreachable code keeps
     * every register written and reads none of them first */
    uint64_t *zero = out;
    memset(zero, 0, sizeof *zero * in.nw);
    int32_t count = 0;
    for (int32_t i = 0; i < n; i++) {
        const uint64_t *written = set_at(&in, i);
        if (deps[i].nsrc >= WS_DEPS_MAX) {      /* the list may be cut short: no knowing */
            free(in.bits);
            free(out);
            free(deps);
            return true;
        }
        for (uint8_t s = 0; s < deps[i].nsrc; s++) {
            int32_t r = deps[i].src[s] - k->reg_lo;
            if (r < 0 || r >= nregs || ws_regset_has(written, r) || ws_regset_has(zero, r)) continue;
            ws_regset_add(zero, r);
            count++;
        }
    }
    /* the units of storage that hold them (registers may share a row, and
     * a 64-bit register's row is two units) */
    int32_t nrows = ws_kernel_rows(k);
    bool *listed = calloc((size_t)nrows + 1, sizeof *listed);
    k->zero_rows = malloc(sizeof *k->zero_rows * (size_t)(2 * count + 1));
    for (int32_t r = 0; listed && k->zero_rows && r < nregs; r++) {
        int32_t row = ws_regset_has(zero, r) ? p->row_of[k->reg_lo + r] - k->row_lo : -1;
        if (row < 0 || listed[row]) continue;
        listed[row] = true;
        k->zero_rows[k->nzero_rows++] = row;
        if (p->reg_width[k->reg_lo + r] > 4) k->zero_rows[k->nzero_rows++] = row + 1;
    }
    bool ok = listed && k->zero_rows;
    free(listed);
    free(in.bits);
    free(out);
    free(deps);
    return ok;
}

bool ws_kernels_zero_rows(ws_program *p)
{
    for (int32_t i = 0; i < p->nkernels; i++)
        if (!find_rows(p, &p->kernels[i])) return false;
    return true;
}
