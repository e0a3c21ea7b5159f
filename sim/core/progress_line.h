/* The progress line: while a launch that has run for more than a second
 * goes on, one line on a terminal (stderr under `warpsim exec`) says how
 * far it is:
 *
 *   warpsim: fcForward  blocks 1234/4096 (30%)  1.2e+06 cycles  2.1M warp insts/s  ETA 0:42
 *
 * refreshed at most four times a second and erased when the launch ends,
 * so that what comes after (the summary, the program's output) starts on
 * a clean line.  The simulator polls it every WS_PROGRESS_POLL_STEPS warp
 * instructions (ws_launch.progress); only then is the clock read.  The
 * runtime makes one only when stderr is a terminal: pipes and files see
 * nothing. */
#ifndef WARPSIM_PROGRESS_LINE_H
#define WARPSIM_PROGRESS_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Warp instructions between two polls: a power of two (a mask test). */
#define WS_PROGRESS_POLL_STEPS 16384u

typedef struct ws_progress_line ws_progress_line;

/* Where a launch stands when polled. */
typedef struct ws_progress_state {
    uint64_t blocks_done, blocks_total;
    uint64_t cycles;            /* simulated cycles so far; timed launches only */
    uint64_t warp_insts;
} ws_progress_state;

/* Monotonic nanoseconds; tests give a fake clock. */
typedef uint64_t (*ws_progress_clock)(void *ctx);

/* The default time a launch runs before its line shows. */
#define WS_PROGRESS_SHOW_AFTER_NS UINT64_C(1000000000)

/* A progress line written to out, shown show_after_ns into a launch;
 * clock NULL = CLOCK_MONOTONIC.  NULL when out of memory. */
ws_progress_line *ws_progress_line_create(FILE *out, uint64_t show_after_ns, ws_progress_clock clock,
                                          void *clock_ctx);
void ws_progress_line_free(ws_progress_line *p);

/* A launch of kernel starts (timed: by the timing model, which has
 * cycles): its clock starts, nothing is shown yet. */
void ws_progress_line_begin(ws_progress_line *p, const char *kernel, bool timed);
/* Called by the simulator every WS_PROGRESS_POLL_STEPS warp instructions:
 * (re)draws the line when the launch has run show_after_ns and the last
 * draw is a quarter of a second old. */
void ws_progress_line_poll(ws_progress_line *p, const ws_progress_state *s);
/* The launch ended: the line, if shown, is erased. */
void ws_progress_line_end(ws_progress_line *p);

/* The text of the line (no carriage return), elapsed_s seconds into the
 * launch; what poll draws. */
void ws_progress_line_format(char *buf, size_t size, const char *kernel, bool timed,
                             const ws_progress_state *s, double elapsed_s);

#endif
