/* An estimate of a kernel's registers per thread from its PTX (see
 * ws_estimate_regs in timing.h): PTX registers are virtual and ptxas
 * allocates far fewer, so the peak of overlapping live ranges is a better
 * guess than the declared count. */
#include <stdlib.h>

#include "insn_deps.h"
#include "timing.h"

int32_t ws_estimate_regs(const ws_program *p, const ws_kernel *k)
{
    const ws_func *f = &p->funcs[k->func];
    /* its registers lie in its window (program.h), whatever else the module holds */
    int32_t n = k->reg_hi - k->reg_lo, lo = f->start, hi = f->end;
    int32_t *first = malloc(sizeof *first * (size_t)(n ? n : 1));
    int32_t *last = malloc(sizeof *last * (size_t)(n ? n : 1));
    int32_t *delta = calloc((size_t)(hi - lo + 2), sizeof *delta);
    int32_t peak = 0;
    if (!first || !last || !delta) goto out;
    for (int32_t r = 0; r < n; r++) first[r] = last[r] = -1;
    for (int32_t pc = lo; pc <= hi; pc++) {
        ws_insn_deps d;
        ws_insn_deps_of(p, &p->code[pc], &d);
        for (uint32_t i = 0; i < (uint32_t)d.nsrc + d.ndst; i++) {
            int32_t r = (i < d.nsrc ? d.src[i] : d.dst[i - d.nsrc]) - k->reg_lo;
            if (first[r] < 0) first[r] = pc;
            last[r] = pc;
        }
    }
    /* a value live into a loop stays live through its back edge; twice,
     * for loops nested in loops */
    for (int pass = 0; pass < 2; pass++)
        for (int32_t pc = lo; pc <= hi; pc++) {
            const ws_insn *in = &p->code[pc];
            if (in->cls != WS_I_BRA || in->target > pc) continue;
            for (int32_t r = 0; r < n; r++)
                if (first[r] >= 0 && first[r] < in->target && last[r] >= in->target && last[r] < pc)
                    last[r] = pc;
        }
    for (int32_t r = 0; r < n; r++) {
        if (first[r] < 0) continue;
        int32_t w = p->reg_width[k->reg_lo + r] == 8 ? 2 : 1;
        delta[first[r] - lo] += w;
        delta[last[r] - lo + 1] -= w;
    }
    for (int32_t i = 0, live = 0; i <= hi - lo; i++) {
        live += delta[i];
        if (live > peak) peak = live;
    }
out:
    free(first); free(last); free(delta);
    peak += 2;
    return peak < 16 ? 16 : peak > 255 ? 255 : peak;
}
