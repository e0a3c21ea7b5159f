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
 * the kernel's locks and shootdowns (bench/HISTORY.md, "Threads").
 * ws_host_malloc_tune sets the trim threshold to 1 GiB, grows heaps 64 MiB
 * at a time (address space only: a page costs when touched) and fixes the
 * size from which malloc maps a block of its own at 32 MiB (glibc raises it
 * as it goes, to the size of the biggest block freed).  `warpsim exec`
 * hands the program it runs the same settings through GLIBC_TUNABLES, with
 * malloc's transparent huge pages besides (ws_host_malloc_tunables_for). */
#ifndef WARPSIM_HOST_MALLOC_H
#define WARPSIM_HOST_MALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Applies the settings above when the C library is glibc and the
 * environment's GLIBC_TUNABLES sets none of malloc's (a user's own
 * settings win).  True when it applied them. */
bool ws_host_malloc_tune(void);

/* The same settings for a process still to start (the program `warpsim
 * exec` runs), as the GLIBC_TUNABLES value it should get, into out (size
 * bytes), given the caller's own (user, NULL when unset): theirs, then
 * ours, and with ours malloc's huge pages (glibc.malloc.hugetlb=1: the
 * heaps asked to be backed by transparent huge pages where the system
 * leaves that to the program).  False when user sets malloc's own already
 * (it wins: nothing to change) or out is too small.  A tunable a glibc
 * does not know is ignored. */
bool ws_host_malloc_tunables_for(const char *user, char *out, size_t size);

#endif
