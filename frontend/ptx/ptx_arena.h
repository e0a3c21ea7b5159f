/* The module arena: every string and array of a ptx_module lives here and
 * goes away with one ptx_arena_free.  Blocks are individually allocated and
 * linked so that growing arrays (instructions, registers) can be reallocated
 * while the parser builds them. */
#ifndef WARPSIM_PTX_ARENA_H
#define WARPSIM_PTX_ARENA_H

#include <stddef.h>

typedef struct ptx_arena ptx_arena;

ptx_arena *ptx_arena_new(void);
void ptx_arena_free(ptx_arena *a);
/* Zeroed memory; NULL only when malloc fails. */
void *ptx_arena_alloc(ptx_arena *a, size_t size);
/* Grows (or shrinks) a block from this arena; p may be NULL.  New bytes are zeroed. */
void *ptx_arena_realloc(ptx_arena *a, void *p, size_t old_size, size_t new_size);
char *ptx_arena_strdup(ptx_arena *a, const char *s);
char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n);

#endif
