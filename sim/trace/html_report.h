/* `--report FILE.html`: one self-contained HTML file (inline CSS, SVG and
 * script; nothing fetched when it is viewed) with, per kernel, its summary,
 * its occupancy and what limits it, the per-source-line table beside the
 * source, charts of stalls, bank conflicts and sectors per line, and a
 * warp-issue timeline per SM.
 *
 * Use: per launch, ws_html_report_timeline before a timed launch (its
 * result goes into ws_timing_options.timeline), ws_html_report_add after
 * a launch that completed; at the end ws_html_report_write with the
 * per-line counters (sim/trace/lines.h) the launches were given. */
#ifndef WARPSIM_HTML_REPORT_H
#define WARPSIM_HTML_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "../base/gpu_config.h"
#include "../core/sim.h"
#include "../base/stats.h"
#include "issue_timeline.h"
#include "lines.h"
#include "summary.h"

typedef struct ws_html_report ws_html_report;

ws_html_report *ws_html_report_create(void);
void ws_html_report_free(ws_html_report *r);

/* An empty issue timeline for the next timed launch on g, owned by r;
 * NULL when out of memory (that launch then has no timeline). */
ws_issue_timeline *ws_html_report_timeline(ws_html_report *r, const ws_gpu_config *g);

typedef struct ws_html_launch {
    const ws_summary_info *info;    /* name, geometry; timing NULL when functional */
    const ws_launch_stats *stats;
    const ws_gpu_config *gpu;       /* the timed launch's config; NULL when functional */
    const ws_kernel *kernel;        /* for its static shared memory (the occupancy) */
    int32_t carveout;               /* as the launch's ws_timing_options */
    bool optin;
} ws_html_launch;

/* Adds a launch that completed to its kernel's section: the kernel's
 * longest launch gives the summary, the occupancy and the timeline (the
 * one ws_html_report_timeline gave for it).  False when out of memory. */
bool ws_html_report_add(ws_html_report *r, const ws_html_launch *l);

/* The report; lines may be NULL (no per-line sections).  0, or -1 when
 * writing failed. */
int ws_html_report_write(FILE *out, const ws_html_report *r, const ws_lines *lines);

#endif
