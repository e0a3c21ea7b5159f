/* The per-warp reconvergence stack. */
#include "simt_stack.h"

#include <stdlib.h>

bool ws_stack_init(ws_simt_stack *s, int32_t pc, uint32_t mask)
{
    if (!s->e) {
        s->cap = 8;
        s->e = malloc(sizeof *s->e * (size_t)s->cap);
        if (!s->e) return false;
    }
    s->n = 1;
    s->e[0] = (ws_stack_entry){pc, WS_NO_RPC, mask};
    return true;
}

void ws_stack_free(ws_simt_stack *s)
{
    free(s->e);
    s->e = NULL;
    s->n = s->cap = 0;
}

bool ws_stack_push(ws_simt_stack *s, int32_t pc, int32_t rpc, uint32_t mask)
{
    if (s->n == s->cap) {
        int32_t cap = s->cap ? s->cap * 2 : 8;
        ws_stack_entry *e = realloc(s->e, sizeof *e * (size_t)cap);
        if (!e) return false;
        s->e = e;
        s->cap = cap;
    }
    s->e[s->n++] = (ws_stack_entry){pc, rpc, mask};
    return true;
}

bool ws_stack_pop_finished(ws_simt_stack *s)
{
    while (s->n > 0) {
        ws_stack_entry *t = &s->e[s->n - 1];
        if (t->mask != 0 && t->pc != t->rpc) return true;
        s->n--;
    }
    return false;
}

void ws_stack_remove_lanes(ws_simt_stack *s, uint32_t lanes)
{
    for (int32_t i = 0; i < s->n; i++) s->e[i].mask &= ~lanes;
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
    for (int32_t i = 0; i < s->n; i++) m |= s->e[i].mask;
    return m;
}

bool ws_stack_split(ws_simt_stack *s, uint32_t lanes, ws_simt_stack *dst)
{
    dst->n = 0;
    for (int32_t i = 0; i < s->n; i++) {
        uint32_t m = s->e[i].mask & lanes;
        if (m && !ws_stack_push(dst, s->e[i].pc, s->e[i].rpc, m)) return false;
    }
    ws_stack_remove_lanes(s, lanes);
    return true;
}

bool ws_stack_holds(const ws_simt_stack *s, int32_t pc, int32_t rpc)
{
    for (int32_t i = 0; i + 1 < s->n; i++)
        if (s->e[i].pc == pc && s->e[i].rpc == rpc && s->e[i].mask) return true;
    return false;
}

bool ws_stack_merge(ws_simt_stack *dst, const ws_simt_stack *src)
{
    if (dst->n == 0 || src->n == 0) return false;
    const ws_stack_entry *st = &src->e[src->n - 1], *dt = &dst->e[dst->n - 1];
    if (st->pc != dt->pc || st->rpc != dt->rpc) return false;
    /* Match from the top down so the tops pair with each other. */
    int32_t match[64];
    if (src->n > 64) return false;
    int32_t j = dst->n - 1;
    for (int32_t i = src->n - 1; i >= 0; i--, j--) {
        while (j >= 0 && (dst->e[j].pc != src->e[i].pc || dst->e[j].rpc != src->e[i].rpc)) j--;
        if (j < 0) return false;
        match[i] = j;
    }
    for (int32_t i = 0; i < src->n; i++) dst->e[match[i]].mask |= src->e[i].mask;
    return true;
}
