/* The functional launcher: blocks one after another (x fastest), the warps
 * of a block stepped round-robin, barriers released when every running
 * thread of the block has arrived; a cooperative launch's blocks side by
 * side, a turn each; a launch run apart for a lent timing, its blocks
 * split over threads (ws_launch_kernel_apart).
 *
 * Special registers that name hardware places get fixed values: %nsmid and
 * %nwarpid are the launch's sm_count and warps_per_sm (1 and 64 when not
 * given), %smid the block's linear index modulo %nsmid (blocks dealt
 * round-robin, as the timing model's first wave deals them), and %warpid
 * the warp's index within its block. */
#include <stdlib.h>
#include <string.h>

#include "block_sync.h"
#include "checks.h"
#include "executor.h"
#include "thread_pool.h"
#include "trace_issue.h"

/* step under a trace, apart: its record (ws_step_info, with room for
 * every lane's addresses) is made only here, not on every step's way. */
static __attribute__((noinline)) ws_step_result step_traced(ws_exec *x, ws_block *b, ws_warp *w)
{
    uint64_t now = x->steps;
    ws_step_info info;
    info.mem = false;
    int32_t pc = ws_warp_next_pc(w);
    ws_step_result r = ws_warp_step(x, b, w, now + 1, &info);
    if (r != WS_STEP_FAULT && pc >= 0)
        ws_trace_warp_issue(x->l->trace, x, b, w, (int32_t)b->smid, pc, &info, now, now + 1);
    return r;
}

/* Functional mode has no cycles: a step's cycle (%clock) is the count of
 * warp steps with it, and it goes into the issue trace as one cycle, on
 * the SM of %smid. */
static inline ws_step_result step(ws_exec *x, ws_block *b, ws_warp *w)
{
    if (__builtin_expect(x->l->trace == NULL, 1)) return ws_warp_step(x, b, w, x->steps + 1, NULL);
    return step_traced(x, b, w);
}

typedef enum { BLOCK_RUNS, BLOCK_DONE, BLOCK_FAILED } block_turn;

/* One turn of block b: each ready warp one step (x->warps_through: steps
 * until it waits or ends), then the barriers its warps completed
 * released. */
static block_turn block_round(ws_exec *x, ws_block *b)
{
    bool ready = false, waiting = false;
    for (uint32_t i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        if (w->state != WS_WARP_READY) { waiting |= w->state == WS_WARP_BARRIER; continue; }
        ws_step_result r;
        do r = step(x, b, w);
        while (x->warps_through && r == WS_STEP_OK && w->state == WS_WARP_READY);
        if (r == WS_STEP_FAULT) return BLOCK_FAILED;
        /* A step that arrived at a barrier may leave other lanes of the
         * warp running (a thread-granular barrier). */
        if (w->state == WS_WARP_READY) ready = true;
        if (r == WS_STEP_BLOCKED || w->state == WS_WARP_BARRIER) waiting = true;
    }
    if (waiting && ws_block_may_release(x, ready) && ws_block_release_barriers(x, b) > 0) return BLOCK_RUNS;
    if (ready) return BLOCK_RUNS;
    if (!waiting) return BLOCK_DONE;    /* every warp is done */
    ws_block_deadlock(x, b);
    return BLOCK_FAILED;
}

static bool run_block(ws_exec *x, ws_block *b)
{
    for (;;) {
        block_turn t = block_round(x, b);
        if (t != BLOCK_RUNS) return t == BLOCK_DONE;
    }
}

/* A block's threads and shared memory bytes for launch l of k. */
static void block_shape(const ws_kernel *k, const ws_launch *l, uint32_t *nthreads, uint32_t *smem)
{
    *nthreads = l->block.x * l->block.y * l->block.z;
    *smem = l->dynamic_smem ? k->dyn_off + l->dynamic_smem : k->static_smem;
}

/* Storage for one block of x's launch; false (x->err set) when out of
 * memory, b then holding nothing (ws_block_free may still be called). */
static bool block_storage(ws_exec *x, ws_block *b)
{
    uint32_t nthreads, smem;
    block_shape(x->k, x->l, &nthreads, &smem);
    if (ws_block_alloc(b, x->k, nthreads, smem)) return true;
    ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory for launching kernel %s", x->p->funcs[x->k->func].shown);
    return false;
}

/* Blocks [lo, hi) of the grid one after another, in the storage b. */
static bool run_blocks_in(ws_exec *x, ws_block *b, uint64_t lo, uint64_t hi, ws_launch_stats *st)
{
    for (uint64_t bi = lo; bi < hi; bi++) {
        if (!ws_block_begin(x, b, bi, (uint32_t)(bi % x->nsmid), 0)) {
            ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory");
            return false;
        }
        st->blocks++;
        st->warps += b->nwarps;
        x->blocks_started = bi + 1;     /* one block at a time */
        x->blocks_done = bi;
        if (!run_block(x, b)) return false;
    }
    return true;
}

/* The grid's blocks one after another, in the same storage. */
static bool run_blocks_in_turn(ws_exec *x, ws_launch_stats *st)
{
    ws_block b;
    bool ok = block_storage(x, &b) && run_blocks_in(x, &b, 0, x->grid_blocks, st);
    ws_block_free(&b);
    return ok;
}

/* A cooperative launch's blocks side by side, each in storage of its own,
 * a turn each in linear order until all are done: its blocks wait for
 * each other at grid-wide barriers (through global memory), which blocks
 * run one after another would never pass.  Its grid fits the GPU at once
 * (the runtime checks), so its storage is what the GPU's SMs hold. */
static bool run_blocks_together(ws_exec *x, ws_launch_stats *st)
{
    const ws_kernel *k = x->k;
    uint32_t nthreads, smem;
    block_shape(k, x->l, &nthreads, &smem);
    uint64_t n = x->grid_blocks;
    ws_block *blocks = calloc(n ? n : 1, sizeof *blocks);
    bool *done = calloc(n ? n : 1, sizeof *done);
    uint64_t made = 0;      /* blocks whose storage is made (ws_block_free frees them) */
    bool ok = blocks && done;
    for (uint64_t i = 0; ok && i < n; i++) {
        ok = ws_block_alloc(&blocks[i], k, nthreads, smem);
        if (!ok) break;
        made = i + 1;
        ok = ws_block_begin(x, &blocks[i], i, (uint32_t)(i % x->nsmid), 0);
        if (ok) {
            st->blocks++;
            st->warps += blocks[i].nwarps;
        }
    }
    if (!ok) ws_error_set(x->err, WS_ERR_NO_MEMORY, "out of memory for the %llu blocks of cooperative kernel %s",
                          (unsigned long long)n, x->p->funcs[x->k->func].shown);
    x->blocks_started = made;
    for (uint64_t left = n; ok && left > 0;)
        for (uint64_t i = 0; ok && i < n; i++) {
            if (done[i]) continue;
            block_turn t = block_round(x, &blocks[i]);
            ok = t != BLOCK_FAILED;
            if (t == BLOCK_DONE) {
                done[i] = true;
                left--;
                x->blocks_done++;
            }
        }
    for (uint64_t i = 0; i < made; i++) ws_block_free(&blocks[i]);
    free(blocks);
    free(done);
    return ok;
}

/* The executor of launch l of k, its statistics into *st and faults into
 * *err: the grid's size, and the fixed values of %nsmid and %nwarpid. */
static ws_exec exec_for(ws_program *p, const ws_kernel *k, const ws_launch *l, ws_launch_stats *st, ws_error *err)
{
    return (ws_exec){.p = p, .k = k, .l = l, .stats = st, .err = err, .out = l->printf_out ? l->printf_out : stdout,
                     .nsmid = l->sm_count ? l->sm_count : 1, .nwarpid = l->warps_per_sm ? l->warps_per_sm : 64,
                     .grid_blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z};
}

bool ws_launch_kernel(ws_program *p, const ws_kernel *k, const ws_launch *l,
                      ws_launch_stats *stats, ws_error *err)
{
    ws_launch_stats st;
    memset(&st, 0, sizeof st);
    err->msg[0] = '\0';
    err->kind = WS_ERR_NONE;
    ws_exec x = exec_for(p, k, l, &st, err);
    if (!ws_launch_check(p, k, l, err)) return false;
    ws_watchdog_start(&x);
    ws_check_log checks;
    memset(&checks, 0, sizeof checks);
    if (l->checks) x.checks = &checks;
    bool ok = l->grid_workspace ? run_blocks_together(&x, &st) : run_blocks_in_turn(&x, &st);
    free(x.bank_memo);
    ws_checks_summary(&x);
    if (stats) *stats = st;
    return ok;
}

/* ---- blocks apart, on several threads ------------------------------------ */

/* Blocks a thread takes at least: fewer are not worth waking it. */
#define APART_BLOCKS_FOR_A_THREAD 8

/* One thread's share of a launch run apart: the blocks [lo, hi), in
 * linear order, with an executor, statistics and error of its own, its
 * global stores put off into its own list (captured, as a window's are). */
typedef struct apart_share {
    ws_exec x;
    ws_launch l;            /* the launch's, without its progress line */
    ws_launch_stats st;
    ws_error err;
    ws_deferred_list defer;
    ws_check_log checks;    /* what the checks run quietly found */
    /* Its blocks' storage, one after another: the stores put off name its
     * block and warps (a warp's index), so it lives till they are made. */
    ws_block b;
    uint64_t lo, hi;
    bool ok;
} apart_share;

static void *run_share(void *arg)
{
    apart_share *sh = arg;
    sh->ok = block_storage(&sh->x, &sh->b) && run_blocks_in(&sh->x, &sh->b, sh->lo, sh->hi, &sh->st);
    return NULL;
}

/* The share's stores whose host bytes were found when they were put off
 * (hosted): bytes moved, nothing else, so the shares' run at once. */
static void *make_hosted_stores(void *arg)
{
    apart_share *sh = arg;
    for (uint32_t j = 0; j < sh->defer.n; j++)
        if (sh->defer.a[j].hosted) ws_exec_apply_deferred(&sh->x, &sh->defer, &sh->defer.a[j]);
    return NULL;
}

/* Whether k's code has a store through a generic address: one whose
 * lanes may lie in the thread's local memory, which a thread reads back
 * and a store put off would not yet have written. */
static bool generic_stores(const ws_program *p, const ws_kernel *k)
{
    const ws_func *f = &p->funcs[k->func];
    for (int32_t pc = f->start; pc < f->end; pc++)
        if (p->code[pc].cls == WS_I_ST && p->code[pc].space == WS_SP_GENERIC) return true;
    return false;
}

ws_apart_result ws_launch_kernel_apart(ws_program *p, const ws_kernel *k, const ws_launch *l,
                                       const ws_launch_stats *expect, uint32_t quiet_checks,
                                       ws_launch_stats *stats, ws_error *err, int32_t nthreads,
                                       struct ws_thread_pool *pool)
{
    err->msg[0] = '\0';
    err->kind = WS_ERR_NONE;
    if (l->grid_workspace || l->checks || l->trace || l->pc_counts || l->printf_out || generic_stores(p, k))
        return WS_APART_NOT_RUN;
    if (!ws_launch_check(p, k, l, err)) return WS_APART_NOT_RUN;
    /* the quiet checks' findings are counted, their lines written nowhere */
    FILE *quiet = quiet_checks ? fopen("/dev/null", "w") : NULL;
    if (quiet_checks && !quiet) return WS_APART_NOT_RUN;
    uint64_t nblocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    uint64_t n = nblocks / APART_BLOCKS_FOR_A_THREAD;
    if (n > (uint64_t)nthreads) n = (uint64_t)nthreads;
    if (n < 1) n = 1;
    apart_share *sh = calloc(n, sizeof *sh);
    if (!sh) {
        if (quiet) fclose(quiet);
        return WS_APART_NOT_RUN;
    }
    for (uint64_t i = 0; i < n; i++) {
        apart_share *h = &sh[i];
        h->l = *l;
        h->l.progress = NULL;   /* no share knows the launch's blocks done */
        h->l.checks = quiet_checks;
        h->l.checks_shown = NULL;
        h->l.report_out = quiet;
        h->defer.capture = true;
        h->defer.zeros_to_sink = true;
        h->x = exec_for(p, k, &h->l, &h->st, &h->err);
        h->x.defer = &h->defer;
        /* racecheck, looking for an order that passes values, keeps the
         * warps' turns */
        h->x.warps_through = !quiet_checks;
        if (quiet_checks) h->x.checks = &h->checks;
        ws_watchdog_start(&h->x);
        h->lo = nblocks * i / n;
        h->hi = nblocks * (i + 1) / n;
    }
    ws_thread_pool_each(pool, (int32_t)n, run_share, sh, sizeof *sh);
    /* nothing written yet: a fault, or counters other than expected, leave
     * memory as it was */
    ws_apart_result result = WS_APART_DONE;
    ws_launch_stats st;
    memset(&st, 0, sizeof st);
    for (uint64_t i = 0; i < n; i++) {
        if (!sh[i].ok && result == WS_APART_DONE) {
            *err = sh[i].err;   /* the first in the order of the blocks */
            result = WS_APART_FAULT;
        }
        ws_launch_stats_add(&st, &sh[i].st);
    }
    if (result == WS_APART_DONE && expect && memcmp(&st, expect, sizeof st) != 0) result = WS_APART_OTHER;
    for (uint64_t i = 0; i < n && result == WS_APART_DONE; i++)
        if (sh[i].checks.total) result = WS_APART_FOUND;
    if (quiet) fclose(quiet);
    /* the stores (the launch's threads write no byte twice: any order
     * leaves the same bytes): those whose host bytes were found, each
     * share's on its thread, then the others here in the order of the
     * blocks, which may make pages */
    if (result == WS_APART_DONE && !ws_devmem_adopt_ahead(p->mem)) {
        ws_error_set(err, WS_ERR_NO_MEMORY, "out of memory");
        result = WS_APART_FAULT;
    }
    ws_exec x = exec_for(p, k, l, &st, err);
    bool ok = result == WS_APART_DONE;
    if (ok) ws_thread_pool_each(pool, (int32_t)n, make_hosted_stores, sh, sizeof *sh);
    for (uint64_t i = 0; i < n && ok; i++)
        for (uint32_t j = 0; ok && j < sh[i].defer.n; j++)
            if (!sh[i].defer.a[j].hosted) ok = ws_exec_apply_deferred(&x, &sh[i].defer, &sh[i].defer.a[j]);
    if (!ok && result == WS_APART_DONE) result = WS_APART_FAULT;
    for (uint64_t i = 0; i < n; i++) {
        ws_block_free(&sh[i].b);       /* zeroed where its storage was never made */
        free(sh[i].x.bank_memo);
        free(sh[i].defer.a);
        free(sh[i].defer.rows);
    }
    free(sh);
    if (stats) *stats = st;
    return result;
}
