/* Each launch's host time: what `warpsim run` and `warpsim exec` write to
 * --host-times FILE, one JSON object a line, so that a user can tell the
 * simulator's own time from the rest of a program's (its host code, its
 * inputs and checks) and see what --threads buys a launch.  Apart from
 * the summary on purpose: the summary is the same byte for byte on any
 * number of threads, a host time never is. */
#ifndef WARPSIM_HOST_TIMES_H
#define WARPSIM_HOST_TIMES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ws_host_time {
    const char *kernel;         /* as the summary names it */
    uint64_t launch_no;         /* the launch's number in the program (from 1; run: 1) */
    int32_t threads;            /* --threads as asked (0: none given, the machine's cores) */
    bool functional;            /* no timing model */
    bool reused;                /* its results taken from an identical earlier launch (docs/REUSE.md) */
    uint64_t host_ns;           /* wall-clock time of the launch in the simulator */
    uint64_t warp_insts;        /* warp instructions the launch executed */
    uint64_t cycles;            /* simulated cycles, launch overhead included (not read when functional) */
} ws_host_time;

/* One line:
 *   {"kernel":K,"launch":N,"threads":T,"how":H,"host_s":S,
 *    "warp_instructions":W,"cycles":C,"warp_instructions_per_s":R}
 * T the threads the SMs could run on (1 when functional); H "reused",
 * "functional" or "timed"; C 0 when functional; R over the host time, null
 * for a reused launch (its results were taken, not simulated: its host
 * time is the taking) and when the time is 0. */
void ws_host_time_write(FILE *out, const ws_host_time *t);

#endif
