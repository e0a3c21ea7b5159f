/* Zeroed arrays that cost what is touched (zeroed.h). */
/* mmap and MAP_ANONYMOUS */
#define _DEFAULT_SOURCE
#include "zeroed.h"

#include <stdlib.h>
#include <sys/mman.h>

void *ws_zeroed(size_t n, size_t size)
{
    size_t bytes = n * size;
#ifdef MAP_ANONYMOUS
    if (bytes >= ZEROED_MAPPED_BYTES) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
#endif
    return calloc(n, size);
}

void ws_zeroed_advise_huge(void *p, size_t n, size_t size)
{
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    /* a hint: where it is refused, nothing changes */
    if (p && n * size >= ZEROED_MAPPED_BYTES) (void)madvise(p, n * size, MADV_HUGEPAGE);
#else
    (void)p, (void)n, (void)size;
#endif
}

void ws_zeroed_free(void *p, size_t n, size_t size)
{
    if (!p) return;
#ifdef MAP_ANONYMOUS
    if (n * size >= ZEROED_MAPPED_BYTES) {
        munmap(p, n * size);
        return;
    }
#endif
    free(p);
}
