/* A window's L2 requests answered on several threads (sm_team.c), with the
 * answers, counts and L2 state the window's order gives them one by one:
 * the three steps of l2_dram.h, each thread owning the slices and the
 * channels whose number is its own modulo the threads.
 *
 * Each thread calls the steps in order with its own index, all threads
 * passing a barrier between steps (ws_l2_split_run does both):
 *  route     the requests of its share of the SMs, to their slices' owners;
 *  slices    its slices' requests, sorted into the window's order, through
 *            the slices (step 1); the channel work to the channels' owners;
 *  channels  its channels' work, merged into the window's order (step 2);
 *  settle    the hits that waited and the fills (step 3).
 * A request's place in the window's order is one key: its cycle within the
 * window, its SM's place among the due SMs (which is by index), its index
 * in the SM's list; the key is also the ticket of a miss's fill. */
#ifndef WARPSIM_L2_SPLIT_H
#define WARPSIM_L2_SPLIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "sm.h"

#define WS_L2_SPLIT_MAX_THREADS 64

typedef struct ws_l2_split ws_l2_split;

/* For nthreads threads (at most WS_L2_SPLIT_MAX_THREADS); NULL on out of
 * memory. */
ws_l2_split *ws_l2_split_create(int32_t nthreads);
void ws_l2_split_free(ws_l2_split *sp);

/* Whether a window of ndue SMs from cycle start to end fits the keys (else
 * its requests go one by one). */
bool ws_l2_split_fits(int32_t ndue, uint64_t start, uint64_t end);

/* Sets up the window's answer: its due SMs (their lsu queues) and l2. */
void ws_l2_split_begin(ws_l2_split *sp, ws_sm *sms, const int32_t *due, int32_t ndue, uint64_t start,
                       uint64_t end, ws_l2_dram *l2);

/* Every step for thread index (0 .. nthreads - 1), with the barriers
 * between them.  A window with atomics has one more step after the route,
 * before anything changes: each slice's owner checks that every atomic of
 * its slices will find its sector valid with its time known (a hit whose
 * data no fill of the window still brings), which step 1 then takes whole
 * (ws_l2_slice_atomic); where one may not, no thread goes on: nothing has
 * changed, and ws_l2_split_end says so. */
void ws_l2_split_run(ws_l2_split *sp, int32_t index);

typedef enum { WS_L2_SPLIT_ANSWERED, WS_L2_SPLIT_NOT_SPLIT, WS_L2_SPLIT_NO_MEMORY, WS_L2_SPLIT_LOST } ws_l2_split_result;

/* After every thread's run: the counts into l2's.  NOT_SPLIT: nothing was
 * answered or changed (an atomic the check could not vouch for); NO_MEMORY:
 * the L2's state is lost; LOST: an atomic did not find its sector as the
 * check said it would (a fault of the check, the L2's state lost). */
ws_l2_split_result ws_l2_split_end(ws_l2_split *sp);

#endif
