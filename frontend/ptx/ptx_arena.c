/* The module arena (see ptx_arena.h). */
#include "ptx_arena.h"

#include <stdlib.h>
#include <string.h>

typedef struct ptx_block {
    struct ptx_block *prev, *next;
    max_align_t align_[];   /* payload follows, suitably aligned */
} ptx_block;

struct ptx_arena {
    ptx_block head;         /* sentinel of a circular list */
};

ptx_arena *ptx_arena_new(void)
{
    ptx_arena *a = malloc(sizeof *a);
    if (!a)
        return NULL;
    a->head.prev = a->head.next = &a->head;
    return a;
}

void ptx_arena_free(ptx_arena *a)
{
    if (!a)
        return;
    ptx_block *b = a->head.next;
    while (b != &a->head) {
        ptx_block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void *ptx_arena_alloc(ptx_arena *a, size_t size)
{
    ptx_block *b = calloc(1, sizeof *b + size);
    if (!b)
        return NULL;
    b->next = a->head.next;
    b->prev = &a->head;
    a->head.next->prev = b;
    a->head.next = b;
    return b->align_;
}

void *ptx_arena_realloc(ptx_arena *a, void *p, size_t old_size, size_t new_size)
{
    if (!p)
        return ptx_arena_alloc(a, new_size);
    ptx_block *b = (ptx_block *)((char *)p - offsetof(ptx_block, align_));
    ptx_block *prev = b->prev, *next = b->next;
    ptx_block *nb = realloc(b, sizeof *nb + new_size);
    if (!nb)
        return NULL;
    prev->next = nb;
    next->prev = nb;
    if (new_size > old_size)
        memset((char *)nb->align_ + old_size, 0, new_size - old_size);
    return nb->align_;
}

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n)
{
    char *d = ptx_arena_alloc(a, n + 1);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *ptx_arena_strdup(ptx_arena *a, const char *s)
{
    return ptx_arena_strndup(a, s, strlen(s));
}
