/* A block's functional state from its storage to its start: the one
 * place that sizes, clears and sets it up, for the functional launcher
 * (launch.c) and the timed SMs (sm.c) alike. */
#include <stdlib.h>
#include <string.h>

#include "warp.h"

bool ws_block_alloc(ws_block *b, const ws_kernel *k, uint32_t nthreads, uint32_t smem)
{
    memset(b, 0, sizeof *b);
    b->nthreads = nthreads;
    b->nwarps = (nthreads + WS_WARP_SIZE - 1) / WS_WARP_SIZE;
    b->shared_size = smem;
    size_t rows = (size_t)ws_kernel_rows(k) * b->nwarps;
    b->warps = calloc(b->nwarps, sizeof *b->warps);
    /* each 128-byte unit two lines of the host's (sm.c asks for them) */
    b->regs = aligned_alloc(sizeof *b->regs, sizeof *b->regs * (rows ? rows : 1));
    b->shared = malloc(smem ? smem : 1);
    b->local = malloc((size_t)k->local_size * nthreads + 1);       /* the kernel's windows */
    b->tparam = malloc((size_t)k->tparam_size * nthreads + 1);
    if (b->warps && b->regs && b->shared && b->local && b->tparam) return true;
    ws_block_free(b);
    return false;
}

void ws_block_free(ws_block *b)
{
    for (uint32_t w = 0; b->warps && w < b->nwarps; w++) ws_warp_free(&b->warps[w]);
    free(b->warps); free(b->regs); free(b->shared); free(b->local); free(b->tparam);
    ws_race_free(&b->race);
    ws_init_free(&b->init);
    memset(b, 0, sizeof *b);
}

bool ws_block_begin(ws_exec *x, ws_block *b, uint64_t linear, uint32_t smid, uint32_t warpid0)
{
    const ws_dim3 g = x->l->grid;
    const ws_kernel *k = x->k;
    size_t rows = (size_t)ws_kernel_rows(k);
    b->idx = (ws_dim3){(uint32_t)(linear % g.x), (uint32_t)(linear / g.x % g.y),
                       (uint32_t)(linear / ((uint64_t)g.x * g.y))};
    b->smid = smid;
    b->warpid0 = warpid0;
    /* the registers a thread may read before it writes them read as zero */
    if (!k->zero_rows) {
        memset(b->regs, 0, sizeof *b->regs * rows * b->nwarps);
    } else {
        for (uint32_t wi = 0; wi < b->nwarps; wi++)
            for (int32_t i = 0; i < k->nzero_rows; i++)
                memset(b->regs[wi * rows + (size_t)k->zero_rows[i]], 0, sizeof *b->regs);
    }
    memset(b->shared, 0, b->shared_size);
    memset(b->local, 0, (size_t)k->local_size * b->nthreads);
    memset(b->tparam, 0, (size_t)k->tparam_size * b->nthreads);
    if ((x->l->checks & WS_CHECK_RACE) && !ws_race_begin(&b->race, b->shared_size)) return false;
    if ((x->l->checks & WS_CHECK_INIT) && !ws_init_begin(&b->init, b->shared_size)) return false;
    for (uint32_t wi = 0; wi < b->nwarps; wi++) {
        uint32_t n = b->nthreads - wi * WS_WARP_SIZE;
        uint32_t lanes = n >= WS_WARP_SIZE ? UINT32_MAX : (UINT32_C(1) << n) - 1;
        ws_warp *w = &b->warps[wi];
        w->regs = ws_row_window(b->regs + wi * rows, sizeof *b->regs, k);     /* indexed by row */
        if (!ws_warp_start(x, w, wi, lanes)) return false;
    }
    return true;
}
