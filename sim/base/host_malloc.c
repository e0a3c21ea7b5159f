/* The host allocator's settings for a process that simulates (host_malloc.h). */
#include "host_malloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define TRIM_THRESHOLD_BYTES (1 << 30)
#define TOP_PAD_BYTES (64 << 20)
#define MMAP_THRESHOLD_BYTES (32 << 20)

/* Whether a GLIBC_TUNABLES value (NULL: unset) sets any of malloc's. */
static bool sets_malloc(const char *tunables)
{
    return tunables && strstr(tunables, "glibc.malloc.");
}

bool ws_host_malloc_tunables_for(const char *user, char *out, size_t size)
{
    if (sets_malloc(user)) return false;
    int n = snprintf(out, size,
                     "%s%sglibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=%d:glibc.malloc.top_pad=%d:"
                     "glibc.malloc.mmap_threshold=%d",
                     user ? user : "", user && *user ? ":" : "", TRIM_THRESHOLD_BYTES, TOP_PAD_BYTES,
                     MMAP_THRESHOLD_BYTES);
    return n > 0 && (size_t)n < size;
}

bool ws_host_malloc_tune(void)
{
#ifdef __GLIBC__
    if (sets_malloc(getenv("GLIBC_TUNABLES"))) return false;
    return mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES) == 1 && mallopt(M_TOP_PAD, TOP_PAD_BYTES) == 1 &&
           mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1;
#else
    return false;
#endif
}
