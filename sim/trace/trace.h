/* The issue trace: one event per warp instruction the timing model issues,
 * saying when, where, what, for which lanes, and what a memory access cost
 * (banks and passes in shared memory; sectors and lines in global memory).
 * Filters (block, warp, PC range, cycle window) keep it readable.  Three
 * writers: text for reading, JSON lines for scripts, Chrome trace-event
 * JSON for a timeline in Perfetto or chrome://tracing.  With no trace the
 * timing model tests one pointer per issue. */
#ifndef WARPSIM_TRACE_H
#define WARPSIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum ws_trace_format { WS_TRACE_TEXT, WS_TRACE_JSON, WS_TRACE_CHROME } ws_trace_format;

typedef struct ws_trace_filter {
    int64_t block;              /* linear block index, -1 = every block */
    int64_t warp;               /* warp index within its block, -1 = every warp */
    int32_t pc_lo, pc_hi;       /* decoded instruction indices, inclusive; hi -1 = no bound */
    uint64_t cycle_lo, cycle_hi;/* inclusive; hi 0 = no bound */
} ws_trace_filter;

/* What a memory instruction did, when it did something. */
typedef enum ws_trace_mem { WS_TRACE_MEM_NONE, WS_TRACE_MEM_SHARED, WS_TRACE_MEM_GLOBAL,
                            WS_TRACE_MEM_LOCAL, WS_TRACE_MEM_OTHER } ws_trace_mem;

typedef struct ws_trace_event {
    uint64_t cycle;             /* issue */
    uint64_t done;              /* its result is ready (>= cycle) */
    int32_t sm;
    uint64_t block;             /* linear block index */
    uint32_t bx, by, bz;        /* the block's index */
    uint32_t warp;              /* within the block */
    int32_t pc;
    const char *insn;           /* mnemonic with modifiers, "ld.global.f32" */
    uint32_t active, mask;      /* lanes on the path; lanes that executed (guard applied) */
    const char *ptx_file; int32_t ptx_line;
    const char *cu_file; int32_t cu_line;       /* NULL / 0 without .loc */
    uint8_t mem;                /* ws_trace_mem */
    bool store;
    uint32_t wavefronts, degree;                /* shared: passes, n-way */
    uint32_t pass_banks[32];                    /* shared: banks of each pass */
    uint32_t sectors, lines;                    /* global/local */
} ws_trace_event;

typedef struct ws_trace ws_trace;

/* Starts a trace written to out (which the caller closes).  NULL when out
 * of memory. */
ws_trace *ws_trace_open(FILE *out, ws_trace_format fmt, const ws_trace_filter *filter);
/* Starts the events of one launch: kernel names it in every event, and
 * cycle 0 of the launch is written as cycle base (a program's launches
 * follow each other on one timeline).  Without a call: no name, base 0. */
void ws_trace_begin_launch(ws_trace *t, const char *kernel, uint64_t base);
/* Whether an event with these coordinates passes the filter; cheap, so the
 * caller builds the event only then. */
bool ws_trace_wants(const ws_trace *t, uint64_t block, uint32_t warp, int32_t pc, uint64_t cycle);
void ws_trace_issue(ws_trace *t, const ws_trace_event *e);
/* Finishes the output (the Chrome writer closes its array) and frees t.
 * Returns the number of events written. */
uint64_t ws_trace_close(ws_trace *t);

/* "text", "json", "chrome" -> format; false when none. */
bool ws_trace_parse_format(const char *s, ws_trace_format *fmt);

#endif
