/* HTML escaping and inline SVG bar charts for the HTML report. */
#include "html_util.h"

#include <math.h>
#include <string.h>

void ws_html_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* A round step for an axis up to max: 1, 2 or 5 times a power of ten,
 * giving at most about 6 ticks. */
static double tick_step(double max)
{
    double raw = max / 6.0, p = pow(10.0, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* 1500, 2.5k, 3M: short labels for ticks. */
static void tick_label(FILE *out, double v)
{
    if (v >= 1e9) fprintf(out, "%gG", v / 1e9);
    else if (v >= 1e6) fprintf(out, "%gM", v / 1e6);
    else if (v >= 1e4) fprintf(out, "%gk", v / 1e3);
    else fprintf(out, "%g", v);
}

enum { CHART_W = 760, LABEL_W = 190, BAR_H = 14, ROW_H = 20, TOP = 28, LEGEND_ROW = 18 };

static double row_total(const ws_hbar_chart *c, const ws_hbar_row *r)
{
    double t = 0;
    for (size_t s = 0; s < c->nseries; s++) t += r->v[s];
    return t > r->mark ? t : r->mark;
}

/* The legend from y down: a swatch and name per series, wrapped; drawn
 * when out is not NULL.  Returns the rows it takes. */
static int legend(FILE *out, const ws_hbar_chart *c, double y)
{
    double x = LABEL_W;
    int rows = c->nseries > 1 || c->mark_name ? 1 : 0;
    for (size_t s = 0; c->nseries > 1 && s < c->nseries; s++) {
        if (x > CHART_W - 120) { x = LABEL_W; y += LEGEND_ROW; rows++; }
        if (out) fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                "<text x=\"%.0f\" y=\"%.0f\">", x, y, c->colors[s], x + 14, y + 9);
        if (out) {
            ws_html_text(out, c->series[s]);
            fputs("</text>", out);
        }
        x += 24 + 7.0 * (double)(c->series[s] ? strlen(c->series[s]) : 0);
    }
    if (c->mark_name && out)
        fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"mark\"/>"
                "<text x=\"%.0f\" y=\"%.0f\">%s</text>", x + 5, y - 1, x + 5, y + 11, x + 14, y + 9, c->mark_name);
    return rows;
}

void ws_html_hbar_chart(FILE *out, const ws_hbar_chart *c)
{
    double max = 0;
    for (size_t i = 0; i < c->nrows; i++)
        if (row_total(c, &c->rows[i]) > max) max = row_total(c, &c->rows[i]);
    if (max <= 0) max = 1;
    double step = tick_step(max);
    max = ceil(max / step) * step;
    double plot_w = CHART_W - LABEL_W - 20, axis_y = TOP + (double)c->nrows * ROW_H;
    double height = axis_y + 44 + legend(NULL, c, 0) * LEGEND_ROW;
    fprintf(out, "<svg class=\"chart\" id=\"%s\" role=\"img\" width=\"%d\" height=\"%.0f\" "
            "viewBox=\"0 0 %d %.0f\"><title>", c->id, CHART_W, height,
            CHART_W, height);
    ws_html_text(out, c->title);
    fprintf(out, "</title><text x=\"4\" y=\"16\" class=\"ctitle\">");
    ws_html_text(out, c->title);
    fputs("</text>", out);
    for (double t = 0; t <= max + step / 2; t += step) {
        double x = LABEL_W + t / max * plot_w;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\" class=\"grid\"/>"
                "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", x, TOP - 4, x, axis_y, x, axis_y + 14);
        tick_label(out, t);
        fputs("</text>", out);
    }
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", LABEL_W + plot_w / 2, axis_y + 30);
    ws_html_text(out, c->unit);
    fputs("</text>", out);
    for (size_t i = 0; i < c->nrows; i++) {
        const ws_hbar_row *r = &c->rows[i];
        double y = TOP + (double)i * ROW_H, x = LABEL_W;
        fprintf(out, "<text x=\"%d\" y=\"%.0f\" text-anchor=\"end\">", LABEL_W - 6, y + BAR_H - 3);
        ws_html_text(out, r->label);
        fputs("</text>", out);
        for (size_t s = 0; s < c->nseries; s++) {
            if (r->v[s] <= 0) continue;
            double w = r->v[s] / max * plot_w;
            fprintf(out, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", x, y,
                    w, BAR_H, c->colors[s]);
            ws_html_text(out, r->label);
            fputs(": ", out);
            if (c->nseries > 1) { ws_html_text(out, c->series[s]); fputc(' ', out); }
            fprintf(out, "%g</title></rect>", r->v[s]);
            x += w;
        }
        if (r->mark >= 0) {
            double mx = LABEL_W + r->mark / max * plot_w;
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" class=\"mark\"/>", mx, y - 2, mx,
                    y + BAR_H + 2);
        }
    }
    legend(out, c, axis_y + 38);
    fputs("</svg>\n", out);
}
