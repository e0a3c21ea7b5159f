/* Asking the host's caches for a line ahead of its use. */
#ifndef WARPSIM_PREFETCH_H
#define WARPSIM_PREFETCH_H

/* Asks for the line holding p (p need not be valid: a prefetch does not
 * fault).  GCC counts __builtin_prefetch as free of side effects, so it
 * drops a function that does nothing else, and the calls to it; on x86 the
 * instruction is written out so that it stays. */
static inline void ws_prefetch(const void *p)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)p));
#else
    __builtin_prefetch(p);
#endif
}

#endif
