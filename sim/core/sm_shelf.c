/* Each SM's L1 and load/store queue kept between launches (sm_shelf.h). */
#include "sm_shelf.h"

#include <stdlib.h>
#include <string.h>

static void kept_free(ws_sm_kept *k)
{
    ws_l1_free(&k->l1);
    free(k->a);
    free(k->req);
    free(k->dep);
    memset(k, 0, sizeof *k);
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
    memset(k, 0, sizeof *k);            /* lent: the shelf holds nothing for sm */
    sm->run_storage = true;
    return true;
}

void ws_sm_shelf_put_back(ws_sm_shelf *shelf, ws_sm *sm)
{
    ws_lsu_queue *q = &sm->lsu_q;
    if (!shelf || !sm->run_storage || !q->a || !q->req || !q->dep) return;
    if (sm->id >= shelf->n) {
        ws_sm_kept *more = realloc(shelf->kept, sizeof *more * ((size_t)sm->id + 1));
        if (!more) return;
        memset(more + shelf->n, 0, sizeof *more * (size_t)(sm->id + 1 - shelf->n));
        shelf->kept = more;
        shelf->n = sm->id + 1;
    }
    ws_sm_kept *k = &shelf->kept[sm->id];
    kept_free(k);                       /* one of another shape, left there */
    *k = (ws_sm_kept){.l1 = sm->l1, .a = q->a, .req = q->req, .dep = q->dep,
                      .alloc = q->alloc, .reqalloc = q->reqalloc, .depalloc = q->depalloc};
    sm->run_storage = false;
    memset(&sm->l1, 0, sizeof sm->l1);
    q->a = NULL;
    q->req = NULL;
    q->dep = NULL;
}

void ws_sm_shelf_free(ws_sm_shelf *shelf)
{
    for (int32_t i = 0; shelf && i < shelf->n; i++) kept_free(&shelf->kept[i]);
    if (shelf) free(shelf->kept);
}
