/* An SM's own writes of a window of cycles (own_writes.h). */
#include "own_writes.h"

#include <stdlib.h>
#include <string.h>

#define LINE 128u
#define LANE_BYTES 64u      /* the most one lane of a store writes (.v8 of 8 bytes) */

/* The bytes of a line written so far, and which (a bit each). */
typedef struct own_line {
    uint64_t key;           /* the line's address / LINE + 1; 0: a free slot */
    uint64_t valid[LINE / 64];
    uint8_t data[LINE];
} own_line;

/* A lane's write not seen yet: its store's cycle has not ended. */
typedef struct own_pending {
    uint64_t cycle, addr;
    uint32_t size;
    uint8_t bytes[LANE_BYTES];
} own_pending;

struct ws_own_writes {
    own_line *lines;
    uint32_t cap, n, shift;         /* open addressing: cap slots (a power of two), n used */
    uint32_t *used;                 /* the slots in use, to empty them */
    own_pending *pend;
    uint32_t npend, head, pendcap;  /* pend[head, npend) not seen yet, in issue order */
    uint64_t lo, hi;                /* every byte written lies in [lo, hi) */
};

static uint32_t slot_of(const ws_own_writes *o, uint64_t key)
{
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> o->shift);
}

static own_line *find(const ws_own_writes *o, uint64_t key)
{
    for (uint32_t i = slot_of(o, key);; i = (i + 1) & (o->cap - 1)) {
        if (o->lines[i].key == key) return &o->lines[i];
        if (o->lines[i].key == 0) return NULL;
    }
}

/* A table of cap slots (a power of two) holding o's lines. */
static bool grow(ws_own_writes *o, uint32_t cap)
{
    own_line *lines = calloc(cap, sizeof *lines);
    uint32_t *used = malloc(sizeof *used * cap / 2);
    if (!lines || !used) {
        free(lines);
        free(used);
        return false;
    }
    ws_own_writes old = *o;
    o->lines = lines;
    o->used = used;
    o->cap = cap;
    o->shift = 64u - (uint32_t)__builtin_ctz(cap);
    o->n = 0;
    for (uint32_t k = 0; k < old.n; k++) {
        const own_line *l = &old.lines[old.used[k]];
        uint32_t i = slot_of(o, l->key);
        while (o->lines[i].key) i = (i + 1) & (cap - 1);
        o->lines[i] = *l;
        o->used[o->n++] = i;
    }
    free(old.lines);
    free(old.used);
    return true;
}

/* The line of key, added (no byte valid) when it is not there; NULL when
 * out of memory. */
static own_line *line_for(ws_own_writes *o, uint64_t key)
{
    own_line *l = find(o, key);
    if (l) return l;
    if (2 * (o->n + 1) > o->cap && !grow(o, 2 * o->cap)) return NULL;
    uint32_t i = slot_of(o, key);
    while (o->lines[i].key) i = (i + 1) & (o->cap - 1);
    o->lines[i].key = key;
    memset(o->lines[i].valid, 0, sizeof o->lines[i].valid);
    o->used[o->n++] = i;
    return &o->lines[i];
}

static bool apply(ws_own_writes *o, const own_pending *p)
{
    for (uint32_t i = 0; i < p->size;) {
        uint64_t a = p->addr + i;
        uint32_t at = (uint32_t)(a % LINE), len = LINE - at < p->size - i ? LINE - at : p->size - i;
        own_line *l = line_for(o, a / LINE + 1);
        if (!l) return false;
        memcpy(l->data + at, p->bytes + i, len);
        for (uint32_t b = at; b < at + len; b++) l->valid[b / 64] |= UINT64_C(1) << (b % 64);
        i += len;
    }
    if (p->addr < o->lo) o->lo = p->addr;
    if (p->addr + p->size > o->hi) o->hi = p->addr + p->size;
    return true;
}

/* The writes of the cycles before now made seen; false when out of memory. */
static bool settle(ws_own_writes *o, uint64_t now)
{
    while (o->head < o->npend && o->pend[o->head].cycle < now)
        if (!apply(o, &o->pend[o->head++])) return false;
    if (o->head == o->npend) o->head = o->npend = 0;
    return true;
}

ws_own_writes *ws_own_writes_create(void)
{
    ws_own_writes *o = calloc(1, sizeof *o);
    if (!o || !grow(o, 64)) {
        free(o);
        return NULL;
    }
    o->lo = UINT64_MAX;
    return o;
}

void ws_own_writes_free(ws_own_writes *o)
{
    if (!o) return;
    free(o->lines);
    free(o->used);
    free(o->pend);
    free(o);
}

void ws_own_writes_clear(ws_own_writes *o)
{
    for (uint32_t k = 0; k < o->n; k++) o->lines[o->used[k]].key = 0;
    o->n = 0;
    o->head = o->npend = 0;
    o->lo = UINT64_MAX;
    o->hi = 0;
}

bool ws_own_writes_add(ws_own_writes *o, uint64_t cycle, const uint64_t *addrs, const uint64_t *values,
                       uint32_t nv, uint32_t es, uint32_t mask)
{
    if (!settle(o, cycle)) return false;
    uint32_t lanes = (uint32_t)__builtin_popcount(mask);
    if (o->npend + lanes > o->pendcap) {
        uint32_t cap = o->pendcap ? 2 * o->pendcap : 64;
        while (cap < o->npend + lanes) cap *= 2;
        own_pending *p = realloc(o->pend, sizeof *p * cap);
        if (!p) return false;
        o->pend = p;
        o->pendcap = cap;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        own_pending *p = &o->pend[o->npend++];
        p->cycle = cycle;
        p->addr = addrs[lane];
        p->size = es * nv;
        for (uint32_t k = 0; k < nv; k++) {
            uint64_t v = values[(size_t)k * WS_WARP_SIZE + lane];
            for (uint32_t b = 0; b < es; b++) p->bytes[k * es + b] = (uint8_t)(v >> (8 * b));
        }
    }
    return true;
}

bool ws_own_writes_touch(ws_own_writes *o, uint64_t now, uint64_t lo, uint64_t hi)
{
    if (!settle(o, now)) return true;   /* out of memory: the caller looks lane by lane, and finds it */
    return o->n && lo < o->hi && hi > o->lo;
}

bool ws_own_writes_overlay(ws_own_writes *o, uint64_t now, uint64_t addr, uint8_t *buf, uint32_t size,
                           bool *any)
{
    *any = false;
    if (!settle(o, now)) return false;
    for (uint32_t i = 0; i < size;) {
        uint64_t a = addr + i;
        uint32_t at = (uint32_t)(a % LINE), len = LINE - at < size - i ? LINE - at : size - i;
        const own_line *l = o->n ? find(o, a / LINE + 1) : NULL;
        for (uint32_t b = 0; l && b < len; b++)
            if (l->valid[(at + b) / 64] >> ((at + b) % 64) & 1) {
                buf[i + b] = l->data[at + b];
                *any = true;
            }
        i += len;
    }
    return true;
}
