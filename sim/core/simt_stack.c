/* The per-warp reconvergence stack. */
#include "simt_stack.h"

#include <stdlib.h>

bool ws_stack_init(ws_simt_stack *s, int32_t pc, uint32_t mask)
{
    s->n = 1;
    s->first[0] = (ws_stack_entry){pc, WS_NO_RPC, mask};
    return true;
}

void ws_stack_free(ws_simt_stack *s)
{
    free(s->more);
    s->more = NULL;
    s->n = s->cap = 0;
}

bool ws_stack_push(ws_simt_stack *s, int32_t pc, int32_t rpc, uint32_t mask)
{
    if (s->n >= WS_STACK_INLINE && s->n - WS_STACK_INLINE == s->cap) {
        int32_t cap = s->cap ? s->cap * 2 : 8;
        ws_stack_entry *e = realloc(s->more, sizeof *e * (size_t)cap);
        if (!e) return false;
        s->more = e;
        s->cap = cap;
    }
    *ws_stack_at(s, s->n++) = (ws_stack_entry){pc, rpc, mask};
    return true;
}

bool ws_stack_pop_finished(ws_simt_stack *s)
{
    while (s->n > 0) {
        ws_stack_entry *t = ws_stack_top(s);
        if (t->mask != 0 && t->pc != t->rpc) return true;
        s->n--;
    }
    return false;
}

void ws_stack_remove_lanes(ws_simt_stack *s, uint32_t lanes)
{
    for (int32_t i = 0; i < s->n; i++) ws_stack_at(s, i)->mask &= ~lanes;
}

int ws_stack_branch(ws_simt_stack *s, uint32_t taken, int32_t target,
                     int32_t fallthrough, int32_t rpc)
{
    ws_stack_entry *t = ws_stack_top(s);
    uint32_t mask = t->mask;
    taken &= mask;
    if (taken == mask) { t->pc = target; return 0; }
    if (taken == 0) { t->pc = fallthrough; return 0; }
    t->pc = rpc;
    /* The taken path goes on top and runs first. */
    if (!ws_stack_push(s, fallthrough, rpc, mask & ~taken)) return -1;
    if (!ws_stack_push(s, target, rpc, taken)) return -1;
    return 1;
}

uint32_t ws_stack_lanes(const ws_simt_stack *s)
{
    uint32_t m = 0;
    for (int32_t i = 0; i < s->n; i++) m |= ws_stack_at_c(s, i)->mask;
    return m;
}

bool ws_stack_split(ws_simt_stack *s, uint32_t lanes, ws_simt_stack *dst)
{
    dst->n = 0;
    for (int32_t i = 0; i < s->n; i++) {
        const ws_stack_entry *e = ws_stack_at_c(s, i);
        uint32_t m = e->mask & lanes;
        if (m && !ws_stack_push(dst, e->pc, e->rpc, m)) return false;
    }
    ws_stack_remove_lanes(s, lanes);
    return true;
}

bool ws_stack_holds(const ws_simt_stack *s, int32_t pc, int32_t rpc)
{
    for (int32_t i = 0; i + 1 < s->n; i++) {
        const ws_stack_entry *e = ws_stack_at_c(s, i);
        if (e->pc == pc && e->rpc == rpc && e->mask) return true;
    }
    return false;
}

bool ws_stack_merge(ws_simt_stack *dst, const ws_simt_stack *src)
{
    if (dst->n == 0 || src->n == 0) return false;
    const ws_stack_entry *st = ws_stack_at_c(src, src->n - 1), *dt = ws_stack_at_c(dst, dst->n - 1);
    if (st->pc != dt->pc || st->rpc != dt->rpc) return false;
    /* Match from the top down so the tops pair with each other. */
    int32_t match[64];
    if (src->n > 64) return false;
    int32_t j = dst->n - 1;
    for (int32_t i = src->n - 1; i >= 0; i--, j--) {
        const ws_stack_entry *se = ws_stack_at_c(src, i);
        while (j >= 0 && (ws_stack_at_c(dst, j)->pc != se->pc || ws_stack_at_c(dst, j)->rpc != se->rpc)) j--;
        if (j < 0) return false;
        match[i] = j;
    }
    for (int32_t i = 0; i < src->n; i++) ws_stack_at(dst, match[i])->mask |= ws_stack_at_c(src, i)->mask;
    return true;
}
