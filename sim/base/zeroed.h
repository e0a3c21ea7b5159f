/* Zeroed arrays that cost what is touched: one of ZEROED_MAPPED_BYTES or
 * more comes straight from the system, whose pages are zero until first
 * touched, so that a big array used sparsely (an L2's tags, the reuse
 * recorder's table of pages) pays for the pages it uses, not for clearing
 * all of it; a smaller one comes from calloc. */
#ifndef WARPSIM_ZEROED_H
#define WARPSIM_ZEROED_H

#include <stddef.h>

#define ZEROED_MAPPED_BYTES ((size_t)64 * 1024)

/* n zeroed elements of size bytes; NULL when out of memory. */
void *ws_zeroed(size_t n, size_t size);
/* Asks the system for huge pages (2 MiB, where it gives them on request)
 * under what ws_zeroed(n, size) gave, when it was mapped: for an array
 * whose parts in use lie close together, which then costs a page fault a
 * huge page instead of one every 4 KiB. */
void ws_zeroed_advise_huge(void *p, size_t n, size_t size);
/* Frees what ws_zeroed(n, size) gave (NULL: nothing). */
void ws_zeroed_free(void *p, size_t n, size_t size);

#endif
