/* The Chrome trace-event writer of the issue trace (sim/trace/trace.h):
 * a JSON object {"traceEvents":[...]} in the Trace Event Format, laid out
 * so that Perfetto and chrome://tracing open it without import errors.
 *
 *  - a process per SM ("SM 3"), a thread per warp of a block of a launch
 *    ("vecAdd block (1,0,0) warp 2"), both named by metadata events and
 *    sorted by number; one more process holds a slice per launch;
 *  - a complete ("X") slice per issued instruction, from its issue to its
 *    result or to the warp's next issue, whichever is first (at least one
 *    cycle): slices of one warp never overlap.  Instructions of the same
 *    kind at consecutive pcs issued back to back (each before the last
 *    one's result), such as an unrolled run of fma, are one slice ("n"
 *    in its arguments): the trace is half as long, and nothing a viewer
 *    shows is lost;
 *  - timestamps in microseconds at the GPU's clock, each a whole number of
 *    nanoseconds, so that readers that round them to nanoseconds keep the
 *    slices apart; the cycles stay in each slice's arguments ("cycle",
 *    "ready") and the clock in otherData ("clock_khz").
 *
 * Only the trace writer (trace.c) uses this. */
#ifndef WARPSIM_TRACE_CHROME_H
#define WARPSIM_TRACE_CHROME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "trace.h"

typedef struct ws_chrome ws_chrome;

ws_chrome *ws_chrome_open(FILE *out);
void ws_chrome_set_clock(ws_chrome *c, int32_t khz);
/* The launch whose events follow: launch counts the launches traced so
 * far, kernel names it ("" when unnamed). */
void ws_chrome_begin_launch(ws_chrome *c, uint64_t launch, const char *kernel);
/* Shows the launch as a slice from cycle base to end on the launch track. */
void ws_chrome_launch_slice(ws_chrome *c, const char *kernel, uint64_t base, uint64_t end);
/* One issue; cycle and done are the trace's (the launch's base added).
 * It is written when the warp's next issue, or the flush at the launch's
 * end, says where its slice stops. */
void ws_chrome_issue(ws_chrome *c, const ws_trace_event *e, uint64_t cycle, uint64_t done);
/* Writes the slices still held (the last issue of each warp). */
void ws_chrome_flush(ws_chrome *c);
/* The launch under way has ended: its slices are written and its tracks
 * forgotten. */
void ws_chrome_end_launch(ws_chrome *c);
/* An instant event across the whole timeline at cycle, named text. */
void ws_chrome_note(ws_chrome *c, uint64_t cycle, const char *text);
/* Slices written so far. */
uint64_t ws_chrome_slices(const ws_chrome *c);
/* Flushes, closes the JSON object (otherData says whether the trace
 * stopped at its limit) and frees c. */
void ws_chrome_close(ws_chrome *c, bool stopped);

#endif
