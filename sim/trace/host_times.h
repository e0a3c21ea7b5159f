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

#include "../base/stats.h"

typedef struct ws_host_time {
    const char *kernel;         /* as the summary names it */
    uint64_t launch_no;         /* the launch's number in the program (from 1; run: 1) */
    int32_t threads;            /* --threads as asked (0: none given, the machine's cores) */
    bool functional;            /* no timing model */
    bool reused;                /* its results taken from an identical earlier launch (docs/REUSE.md) */
    uint64_t host_ns;           /* wall-clock time of the launch in the simulator */
    uint64_t warp_insts;        /* warp instructions the launch executed */
    uint64_t cycles;            /* simulated cycles, launch overhead included (not read when functional) */
    const ws_window_times *windows;     /* read for a simulated timed launch only; NULL: none */
    const struct ws_program *program;   /* the launch's, for where a reason to run cycle by cycle lies; may be NULL */
} ws_host_time;

/* One line:
 *   {"kernel":K,"launch":N,"threads":T,"how":H,"host_s":S,
 *    "warp_instructions":W,"cycles":C,"warp_instructions_per_s":R}
 * T the threads the SMs could run on (1 when functional); H "reused",
 * "functional" or "timed"; C 0 when functional; R over the host time, null
 * for a reused launch (its results were taken, not simulated: its host
 * time is the taking) and when the time is 0.  A simulated timed launch
 * adds where its windows of cycles (docs/THREADS.md) spent the time,
 * before the closing brace:
 *   ,"windows":{"on_threads":N,"sms_s":A,"busiest_sm_s":B,"sm_windows_s":K,
 *    "ends_s":E,"settle_s":L,"end_wait_s":V,"alone":M,"alone_s":O,
 *    "window_cycles":W,"shortened":H[,"cycle_by_cycle":Y]}
 * N windows whose SMs ran on the threads, A their SMs' part, B of it each
 * window's longest SM window summed (no spreading of SMs over threads
 * goes under it), K every SM window of those windows summed (the work
 * the threads shared), E the ends of the windows on the
 * threads, L of E the calling thread's settling of blocks and V its wait
 * for the other threads' part of the ends (the requests on the threads,
 * or the writes or requests one by one beside it); M windows run
 * on the calling thread alone, O their time; all zero for a launch run
 * cycle by cycle.  W the cycles a window (1: cycle by cycle, and then Y
 * says why: the option that asked for it, or what in the kernel's code
 * and where, timing_window.h), its longest; H how many times the windows
 * were halved because a slot of an SM ended two blocks in one (sm_team.c:
 * settle_blocks). */
void ws_host_time_write(FILE *out, const ws_host_time *t);

#endif
