/* Threads kept from one timed launch to the next, and the one way warpsim
 * starts threads of its own (the SMs' team, sm_team.h; the reuse
 * recorder's copies, launch_reuse.h): a caller with no pool to keep makes
 * one for the job and frees it, which joins its threads.
 *
 * Starting N - 1 threads for each timed launch on N and joining them at
 * its end took about 30 us a thread on the 16-core machine, half a
 * millisecond or more a launch on 16 threads, which is a twentieth of a
 * short launch (convolution 100000 256 32: six launches of 8-17 ms each).
 * A program that launches many kernels keeps one pool in its context
 * instead: the pool's threads wait on a semaphore of their own between
 * launches (they take no CPU time while the program's host code runs) and
 * each launch hands them its workers' loop.
 *
 * A pool is used by one caller at a time.  After a fork the child's pool
 * has no threads (they stayed in the parent) and no jobs running, even
 * where the parent forked in the middle of a run; it starts new ones. */
#ifndef WARPSIM_THREAD_POOL_H
#define WARPSIM_THREAD_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct ws_thread_pool ws_thread_pool;

/* An empty pool (its threads start when a run needs them); NULL without
 * memory. */
ws_thread_pool *ws_thread_pool_create(void);

/* Runs fn(arg + k * stride), for k in [0, n), each on a thread of its own,
 * starting the threads the pool lacks.  Returns how many jobs it started:
 * n, or fewer (the first ones) where the system refused a thread.  Each
 * run is followed by ws_thread_pool_wait before the next. */
int32_t ws_thread_pool_run(ws_thread_pool *p, int32_t n, void *(*fn)(void *), void *arg, size_t stride);

/* Until every job of the last run has returned. */
void ws_thread_pool_wait(ws_thread_pool *p);

/* fn(arg + k * stride) for every k in [0, n): item 0 on the calling
 * thread, the others at once on p's threads (on a pool of the call's own
 * where p is NULL), any the system gave no thread to on the calling thread
 * after item 0.  Returns when every item has. */
void ws_thread_pool_each(ws_thread_pool *p, int32_t n, void *(*fn)(void *), void *arg, size_t stride);

/* The threads end and the pool is freed (NULL: nothing). */
void ws_thread_pool_free(ws_thread_pool *p);

/* How many threads the pool holds (tests). */
int32_t ws_thread_pool_size(const ws_thread_pool *p);

#endif
