/* The host allocator's settings for a process that simulates: the C
 * library's malloc keeps the memory it frees rather than giving it back
 * at once.
 *
 * By default glibc returns the free top of a heap to the system once it
 * passes 128 KiB (brk, or madvise and mprotect on a thread's heap), and
 * grows it again at the next allocation.  Each such return of pages makes
 * the kernel stop every core that runs the process (a TLB shootdown), and
 * each change of the map makes the page faults of the other threads wait:
 * `convolution 100000 256 32` under `exec` on four threads made 770 brk
 * and 600 mprotect calls, and on 16 threads a tenth of its samples lay in
 * the kernel's locks and shootdowns (bench/README.md, "Threads").
 * ws_host_malloc_tune sets the trim threshold to 1 GiB, grows heaps 64 MiB
 * at a time (address space only: a page costs when touched) and fixes the
 * size from which malloc maps a block of its own at 32 MiB (glibc raises it
 * as it goes, to the size of the biggest block freed). */
#ifndef WARPSIM_HOST_MALLOC_H
#define WARPSIM_HOST_MALLOC_H

#include <stdbool.h>

/* Applies the settings above when the C library is glibc and the
 * environment's GLIBC_TUNABLES sets none of malloc's (a user's own
 * settings win).  True when it applied them. */
bool ws_host_malloc_tune(void);

#endif
