/* A small SVG line chart: axes with ticks and labels, a legend, series
 * drawn as steps or lines, and one marked point. */
#ifndef WARPSIM_SVG_PLOT_H
#define WARPSIM_SVG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct ws_svg_series {
    const char *name;           /* in the legend */
    const double *x, *y;
    size_t n;
    const char *color;          /* "#1f77b4" */
    bool dashed;
    bool steps;                 /* piecewise constant: hold y until the next x */
} ws_svg_series;

typedef struct ws_svg_chart {
    const char *title, *xlabel, *ylabel;
    double xmin, xmax, ymin, ymax;
    const ws_svg_series *series;
    size_t nseries;
    bool mark;                  /* draw the marked point */
    double mark_x, mark_y;
    const char *mark_label;
} ws_svg_chart;

/* Writes the chart as a standalone SVG document.  Returns 0, or -1 when
 * writing failed. */
int ws_svg_line_chart(FILE *out, const ws_svg_chart *c);

#endif
