/* Scoped name table for registers and function-level variables: an
 * open-addressing hash with an undo log per { } scope. */
#include <stdlib.h>
#include <string.h>
#include "ptx_pstate.h"

static uint32_t names_hash(const char *s)
{
    uint32_t h = 2166136261u;           /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static uint32_t names_find(const ptx_names *t, const char *key)
{
    uint32_t i = names_hash(key) & (t->cap - 1);
    while (t->slots[i].key && strcmp(t->slots[i].key, key))
        i = (i + 1) & (t->cap - 1);
    return i;
}

static bool names_rehash(ptx_names *t)
{
    uint32_t ncap = t->cap ? t->cap * 2 : 256;
    ptx_binding *old = t->slots;
    uint32_t ocap = t->cap;
    t->slots = calloc(ncap, sizeof *t->slots);
    if (!t->slots) {
        t->slots = old;
        return false;
    }
    t->cap = ncap;
    for (uint32_t i = 0; i < ocap; i++)
        if (old[i].key)
            t->slots[names_find(t, old[i].key)] = old[i];
    /* undo entries name slots: remap them */
    for (uint32_t u = 0; u < t->nundo; u++)
        t->undo[u].slot = names_find(t, old[t->undo[u].slot].key);
    free(old);
    return true;
}

void ptx_names_free(ptx_names *t)
{
    free(t->slots);
    free(t->undo);
    free(t->marks);
    memset(t, 0, sizeof *t);
}

const ptx_binding *ptx_names_get(const ptx_names *t, const char *key)
{
    if (!t->cap)
        return NULL;
    const ptx_binding *b = &t->slots[names_find(t, key)];
    return b->key && b->kind != PTX_BIND_NONE ? b : NULL;
}

bool ptx_names_bind(ptx_names *t, const char *key, ptx_binding b)
{
    if ((t->used + 1) * 2 > t->cap && !names_rehash(t))
        return false;
    uint32_t i = names_find(t, key);
    if (t->nmarks) {
        if (t->nundo == t->capundo) {
            uint32_t nc = t->capundo ? t->capundo * 2 : 64;
            void *p = realloc(t->undo, nc * sizeof *t->undo);
            if (!p)
                return false;
            t->undo = p;
            t->capundo = nc;
        }
        t->undo[t->nundo].slot = i;
        t->undo[t->nundo].old = t->slots[i];
        t->nundo++;
    }
    if (!t->slots[i].key)
        t->used++;
    b.key = key;
    t->slots[i] = b;
    return true;
}

bool ptx_names_push(ptx_names *t)
{
    if (t->nmarks == t->capmarks) {
        uint32_t nc = t->capmarks ? t->capmarks * 2 : 16;
        void *p = realloc(t->marks, nc * sizeof *t->marks);
        if (!p)
            return false;
        t->marks = p;
        t->capmarks = nc;
    }
    t->marks[t->nmarks++] = t->nundo;
    return true;
}

/* Restores every binding made since the matching push.  A name first bound
 * inside the scope keeps its slot with kind NONE (a tombstone). */
void ptx_names_pop(ptx_names *t)
{
    if (!t->nmarks)
        return;
    uint32_t mark = t->marks[--t->nmarks];
    while (t->nundo > mark) {
        t->nundo--;
        uint32_t s = t->undo[t->nundo].slot;
        const char *key = t->slots[s].key;
        t->slots[s] = t->undo[t->nundo].old;
        if (!t->slots[s].key) {
            t->slots[s].key = key;
            t->slots[s].kind = PTX_BIND_NONE;
        }
    }
}
