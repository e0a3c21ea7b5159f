/* The host allocator's settings for a process that simulates (host_malloc.h). */
#include "host_malloc.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define TRIM_THRESHOLD_BYTES (1 << 30)
#define TOP_PAD_BYTES (64 << 20)
#define MMAP_THRESHOLD_BYTES (32 << 20)

bool ws_host_malloc_tune(void)
{
#ifdef __GLIBC__
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (tunables && strstr(tunables, "glibc.malloc.")) return false;
    return mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES) == 1 && mallopt(M_TOP_PAD, TOP_PAD_BYTES) == 1 &&
           mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1;
#else
    return false;
#endif
}
