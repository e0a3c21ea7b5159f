/* The host's clocks in nanoseconds: the monotonic one (wall-clock limits,
 * the progress line, the launches' host times) and the calling thread's
 * CPU time. */
#ifndef WARPSIM_CLOCK_H
#define WARPSIM_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t ws_clock_ns_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

static inline uint64_t ws_clock_ns(void) { return ws_clock_ns_of(CLOCK_MONOTONIC); }

#endif
