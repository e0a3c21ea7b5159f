/* A structural check of a Chrome trace-event file as warpsim writes it
 * (sim/trace/trace_chrome.h), against the Trace Event Format rather than
 * against warpsim's own code: it parses the JSON with cJSON and checks
 *  - the top level: an object with a traceEvents array and a positive
 *    otherData.clock_khz;
 *  - nesting: the complete ("X") slices of each (pid, tid) track either
 *    nest or are disjoint, in whole nanoseconds, as a viewer that reads
 *    microseconds into nanoseconds sees them;
 *  - names: every pid and (pid, tid) a slice uses has process_name and
 *    thread_name metadata; SM processes read "SM N", warp threads name a
 *    block and a warp;
 *  - units: ts is in microseconds: each slice's ts is its args.cycle at
 *    the clock (cycle * 10^6 / clock_khz ns, rounded down), and no slice
 *    ends before its start. */
#ifndef WARPSIM_TEST_CHROME_CHECK_H
#define WARPSIM_TEST_CHROME_CHECK_H

#include <stddef.h>
#include <stdint.h>

typedef struct chrome_report {
    uint64_t slices;            /* X events (instruction and launch slices) */
    uint64_t tracks;            /* (pid, tid) pairs with slices */
    uint64_t processes;
    uint64_t problems;          /* failed checks; 0 = the trace passes */
    char first[512];            /* the first problem, "" when none */
} chrome_report;

/* Checks the trace text (len bytes); returns report->problems == 0. */
int chrome_check(const char *text, size_t len, chrome_report *report);

#endif
