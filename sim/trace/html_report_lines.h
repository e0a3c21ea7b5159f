/* The HTML report's per-line sections of one kernel: the costliest lines
 * with what they cost and why, the source with each line's counters beside
 * it, and charts of stalls, bank conflicts and sectors per line. */
#ifndef WARPSIM_HTML_REPORT_LINES_H
#define WARPSIM_HTML_REPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "lines.h"

/* The sections of the kernel named kernel, with ids k<index>-...; a note
 * instead when lines is NULL or has no counters for it. */
void ws_html_lines_sections(FILE *out, const ws_lines *lines, const char *kernel, size_t index, bool timed);

#endif
