/* The issue trace: one event per warp instruction the timing model (or the
 * functional launcher) issues, saying when, where, what, for which lanes,
 * and what a memory access cost (banks and passes in shared memory;
 * sectors and lines in global memory).  Filters (kernel, launch, block,
 * warp, PC range, cycle window) keep it readable and a limit keeps it from
 * filling the disk.  Three writers: text for reading, JSON lines for
 * scripts, and Chrome trace-event JSON for a timeline in Perfetto or
 * chrome://tracing (docs/TRACE.md says how it is laid out).  With no trace
 * the simulator tests one pointer per issue. */
#ifndef WARPSIM_TRACE_H
#define WARPSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum ws_trace_format { WS_TRACE_TEXT, WS_TRACE_JSON, WS_TRACE_CHROME } ws_trace_format;

typedef struct ws_trace_filter {
    int64_t block;              /* linear block index, -1 = every block */
    int64_t warp;               /* warp index within its block, -1 = every warp */
    int32_t pc_lo, pc_hi;       /* decoded instruction indices, inclusive; hi -1 = no bound */
    uint64_t cycle_lo, cycle_hi;/* inclusive, cycles of the launch; hi 0 = no bound */
    /* Launches traced: those of the kernel kernel names (NULL = every
     * kernel): by the name the summary shows, with or without its template
     * arguments and scope, or, all digits, by the order in which the
     * program first launched each kernel (0 = the first kernel).  Of
     * those, launch >= 0 keeps the launch-th alone (0 = the first). */
    const char *kernel;
    int64_t launch;
    uint64_t limit;             /* events written at most; 0 = no limit */
} ws_trace_filter;

/* Events a trace stops at unless told otherwise (--trace-limit). */
#define WS_TRACE_DEFAULT_LIMIT 2000000u

/* Every event of every launch, up to the default limit. */
#define WS_TRACE_FILTER_ALL {.block = -1, .warp = -1, .pc_lo = 0, .pc_hi = -1, .cycle_lo = 0, \
                             .cycle_hi = 0, .kernel = NULL, .launch = -1, .limit = WS_TRACE_DEFAULT_LIMIT}

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
    char insn[96];              /* mnemonic with modifiers, "ld.global.f32" */
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

/* Starts a trace written to out (which the caller closes); filter->kernel
 * must outlive it.  NULL when out of memory. */
ws_trace *ws_trace_open(FILE *out, ws_trace_format fmt, const ws_trace_filter *filter);
/* The GPU's clock, for the Chrome writer's timestamps in microseconds
 * (cycles stay in each event's arguments); 0 or no call: 1 GHz. */
void ws_trace_set_clock(ws_trace *t, int32_t khz);
/* Starts the events of one launch: kernel names it in every event, and
 * cycle 0 of the launch is written as cycle base (a program's launches
 * follow each other on one timeline).  Without a call: no name, base 0.
 * Whether the launch is traced follows the filter's kernel and launch. */
void ws_trace_begin_launch(ws_trace *t, const char *kernel, uint64_t base);
/* Whether the launch begun last can write an event: its kernel and launch
 * pass the filter and the trace has not reached its limit.  A launch that
 * cannot is run without the trace (in windows of cycles, on several
 * threads, reused when it repeats an earlier one), as if there were none. */
bool ws_trace_launch_on(const ws_trace *t);
/* Ends it after cycles cycles: the Chrome writer shows the launch as a
 * slice on a track of its own. */
void ws_trace_end_launch(ws_trace *t, uint64_t cycles);
/* Whether an event with these coordinates passes the filter; cheap, so the
 * caller builds the event only then. */
bool ws_trace_wants(const ws_trace *t, uint64_t block, uint32_t warp, int32_t pc, uint64_t cycle);
void ws_trace_issue(ws_trace *t, const ws_trace_event *e);
/* Whether the trace reached its limit and stopped (it said so in the
 * trace and on stderr). */
bool ws_trace_stopped(const ws_trace *t);
/* Finishes the output (the Chrome writer closes its array) and frees t.
 * Returns the number of events written. */
uint64_t ws_trace_close(ws_trace *t);

/* "text", "json", "chrome" -> format; false when none. */
bool ws_trace_parse_format(const char *s, ws_trace_format *fmt);

/* Sets the filter's field that the option --trace-NAME sets from its
 * value, checked: "block" N, "warp" N (0-31), "pc" A:B and "cycles" A:B
 * (either end may be left out), "kernel" NAME or INDEX, "launch" N,
 * "limit" N (0 = none).  The value must outlive f.  false with a message
 * naming the option in err when the value is bad or NAME unknown. */
bool ws_trace_parse_option(ws_trace_filter *f, const char *name, const char *value, char *err, size_t errsize);

#endif
