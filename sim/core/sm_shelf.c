/* Each SM's L1, load/store queue and slots kept between launches (sm_shelf.h). */
#include "sm_shelf.h"

#include <stdlib.h>
#include <string.h>

ws_sm_shape ws_sm_shape_of(const ws_tsim *s)
{
    const ws_kernel *k = s->x.k;
    return (ws_sm_shape){
        .nblocks = (uint32_t)s->disp.occ.blocks_per_sm, .nsp = (uint32_t)s->g->subPartitionsPerMultiprocessor,
        .nwarps = s->nwarps, .nthreads = s->nthreads, .smem = s->smem,
        .rows = ws_kernel_rows(k), .reg_rows = ws_kernel_reg_rows(k),
        .local_size = k->local_size, .tparam_size = k->tparam_size, .checks = s->x.l->checks,
    };
}

static bool same_shape(const ws_sm_shape *a, const ws_sm_shape *b)
{
    return a->nblocks == b->nblocks && a->nsp == b->nsp && a->nwarps == b->nwarps && a->nthreads == b->nthreads &&
           a->smem == b->smem && a->rows == b->rows && a->reg_rows == b->reg_rows &&
           a->local_size == b->local_size && a->tparam_size == b->tparam_size && a->checks == b->checks;
}

/* k's arrays moved into sm's, k left empty. */
static void lend_slots(ws_sm *sm, ws_sm_kept_slots *k)
{
    sm->slots = k->slots;
    sm->blocks = k->blocks;
    sm->sp = k->sp;
    sm->reserved = k->reserved;
    sm->freed_at = k->freed_at;
    sm->by_start = k->by_start;
    sm->placed = k->placed;
    memset(k, 0, sizeof *k);
}

static void slots_free(ws_sm_kept_slots *k)
{
    if (!k->slots) return;
    ws_sm t;
    memset(&t, 0, sizeof t);
    t.nblocks = k->shape.nblocks;
    lend_slots(&t, k);
    ws_sm_free_slots(&t);
}

/* k holding no L1 or queue any more (freed or lent), its slots kept. */
static void forget_l1_and_queue(ws_sm_kept *k)
{
    ws_sm_kept_slots slots = k->slots;
    memset(k, 0, sizeof *k);
    k->slots = slots;
}

/* The L1 and the queue's storage. */
static void kept_free(ws_sm_kept *k)
{
    ws_l1_free(&k->l1);
    free(k->a);
    free(k->req);
    free(k->dep);
    forget_l1_and_queue(k);
}

/* shelf's entry for SM id, made where it has none; NULL when out of memory. */
static ws_sm_kept *entry_for(ws_sm_shelf *shelf, int32_t id)
{
    if (id >= shelf->n) {
        ws_sm_kept *more = realloc(shelf->kept, sizeof *more * ((size_t)id + 1));
        if (!more) return NULL;
        memset(more + shelf->n, 0, sizeof *more * (size_t)(id + 1 - shelf->n));
        shelf->kept = more;
        shelf->n = id + 1;
    }
    return &shelf->kept[id];
}

bool ws_sm_shelf_take(ws_sm_shelf *shelf, ws_sm *sm, const ws_gpu_config *g)
{
    ws_sm_kept *k = shelf && sm->id < shelf->n ? &shelf->kept[sm->id] : NULL;
    if (!k || !k->a || !ws_scache_shaped(&k->l1.tags, g->l1CacheSize, (uint32_t)g->l1Associativity)) return false;
    sm->l1 = k->l1;
    ws_scache_reset(&sm->l1.tags);
    sm->l1.latency = (uint32_t)g->latencyL1Hit;
    sm->l1.lookups = sm->l1.hits = 0;
    ws_lsu_queue *q = &sm->lsu_q;
    q->a = k->a;
    q->req = k->req;
    q->dep = k->dep;
    q->alloc = k->alloc;
    q->reqalloc = k->reqalloc;
    q->depalloc = k->depalloc;
    ws_lsu_queue_init_on(q, sm->nsp);
    forget_l1_and_queue(k);             /* lent: the shelf holds no L1 or queue for sm */
    sm->run_storage = true;
    return true;
}

void ws_sm_shelf_fit_slots(ws_sm_shelf *shelf, const ws_sm_shape *shape)
{
    for (int32_t i = 0; shelf && i < shelf->n; i++) {
        ws_sm_kept_slots *k = &shelf->kept[i].slots;
        if (k->slots && !same_shape(&k->shape, shape)) slots_free(k);
    }
}

bool ws_sm_shelf_take_slots(ws_sm_shelf *shelf, ws_sm *sm, const ws_sm_shape *shape)
{
    ws_sm_kept_slots *k = shelf && sm->id < shelf->n ? &shelf->kept[sm->id].slots : NULL;
    if (!k || !k->slots) return false;
    if (!same_shape(&k->shape, shape)) {
        slots_free(k);
        return false;
    }
    lend_slots(sm, k);
    return true;
}

void ws_sm_shelf_put_back_slots(ws_sm_shelf *shelf, ws_sm *sm, const ws_sm_shape *shape)
{
    if (!shelf || !sm->slots || !sm->blocks || !sm->sp || !sm->reserved || !sm->freed_at || !sm->by_start ||
        !sm->placed)
        return;
    ws_sm_kept *e = entry_for(shelf, sm->id);
    if (!e) return;
    slots_free(&e->slots);
    e->slots = (ws_sm_kept_slots){.shape = *shape, .slots = sm->slots, .blocks = sm->blocks, .sp = sm->sp,
                                  .reserved = sm->reserved, .freed_at = sm->freed_at, .by_start = sm->by_start,
                                  .placed = sm->placed};
    sm->slots = NULL;
    sm->blocks = NULL;
    sm->sp = NULL;
    sm->reserved = sm->freed_at = sm->by_start = NULL;
    sm->placed = NULL;
    sm->nblocks = sm->nslots = 0;
}

void ws_sm_shelf_put_back(ws_sm_shelf *shelf, ws_sm *sm)
{
    ws_lsu_queue *q = &sm->lsu_q;
    if (!shelf || !sm->run_storage || !q->a || !q->req || !q->dep) return;
    ws_sm_kept *k = entry_for(shelf, sm->id);
    if (!k) return;
    kept_free(k);                       /* one of another shape, left there */
    *k = (ws_sm_kept){.l1 = sm->l1, .a = q->a, .req = q->req, .dep = q->dep,
                      .alloc = q->alloc, .reqalloc = q->reqalloc, .depalloc = q->depalloc, .slots = k->slots};
    sm->run_storage = false;
    memset(&sm->l1, 0, sizeof sm->l1);
    q->a = NULL;
    q->req = NULL;
    q->dep = NULL;
}

void ws_sm_shelf_free(ws_sm_shelf *shelf)
{
    for (int32_t i = 0; shelf && i < shelf->n; i++) {
        kept_free(&shelf->kept[i]);
        slots_free(&shelf->kept[i].slots);
    }
    if (shelf) free(shelf->kept);
}
