/* Pieces the HTML report's files share: escaping text for HTML, and small
 * inline SVG bar charts. */
#ifndef WARPSIM_HTML_UTIL_H
#define WARPSIM_HTML_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* s with &, <, >, " and ' as entities (s NULL: nothing). */
void ws_html_text(FILE *out, const char *s);

#define WS_HBAR_SERIES 12

/* One row of a horizontal bar chart: its label and one value per series
 * (stacked), and optionally a mark (e.g. the ideal) drawn as a tick. */
typedef struct ws_hbar_row {
    const char *label;
    double v[WS_HBAR_SERIES];
    double mark;                /* < 0: none */
} ws_hbar_row;

typedef struct ws_hbar_chart {
    const char *id, *title, *unit;
    const char *const *series;  /* names, for the legend (one series: no legend) */
    const char *const *colors;
    size_t nseries;
    const ws_hbar_row *rows;
    size_t nrows;
    const char *mark_name;      /* what the tick means, for the legend */
} ws_hbar_chart;

/* The chart as an inline <svg> element. */
void ws_html_hbar_chart(FILE *out, const ws_hbar_chart *c);

#endif
