/* The SVG line chart (see svg_plot.h). */
#include "svg_plot.h"

#include <math.h>
#include <string.h>

enum { W = 760, H = 480, LEFT = 72, RIGHT = 24, TOP = 64, BOTTOM = 64 };

typedef struct frame {
    double xmin, xmax, ymin, ymax;
} frame;

static double px(const frame *f, double x)
{
    return LEFT + (x - f->xmin) / (f->xmax - f->xmin) * (W - LEFT - RIGHT);
}

static double py(const frame *f, double y)
{
    return H - BOTTOM - (y - f->ymin) / (f->ymax - f->ymin) * (H - TOP - BOTTOM);
}

static void text_escaped(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out); break;
        }
    }
}

/* The legend: one row above the plot area, left to right. */
static void legend(FILE *out, const ws_svg_chart *c)
{
    int x = LEFT, y = TOP - 14;
    for (size_t i = 0; i < c->nseries; i++) {
        const ws_svg_series *s = &c->series[i];
        fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                x, y, x + 26, y, s->color, s->dashed ? " stroke-dasharray=\"6 4\"" : "");
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"12\">", x + 32, y + 4);
        text_escaped(out, s->name);
        fprintf(out, "</text>\n");
        x += 32 + 8 * (int)(s->name ? strlen(s->name) : 0) + 24;
    }
}

/* A tick step of 1, 2 or 5 times a power of ten giving at most ~8 ticks. */
static double tick_step(double span)
{
    double raw = span / 8, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void axes(FILE *out, const ws_svg_chart *c, const frame *f)
{
    double xs = tick_step(f->xmax - f->xmin), ys = tick_step(f->ymax - f->ymin);
    fprintf(out, "<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333\">\n");
    for (double y = ceil(f->ymin / ys) * ys; y <= f->ymax + 1e-9; y += ys) {
        fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
                LEFT, py(f, y), W - RIGHT, py(f, y));
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                LEFT - 6, py(f, y) + 4, y);
    }
    for (double x = ceil(f->xmin / xs) * xs; x <= f->xmax + 1e-9; x += xs) {
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>\n",
                px(f, x), H - BOTTOM, px(f, x), H - BOTTOM + 5);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                px(f, x), H - BOTTOM + 19, x);
    }
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#666\"/>\n",
            LEFT, TOP, W - LEFT - RIGHT, H - TOP - BOTTOM);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\">",
            (LEFT + W - RIGHT) / 2, H - 18);
    text_escaped(out, c->xlabel);
    fprintf(out, "</text>\n<text transform=\"translate(20 %d) rotate(-90)\" text-anchor=\"middle\" font-size=\"14\">",
            (TOP + H - BOTTOM) / 2);
    text_escaped(out, c->ylabel);
    fprintf(out, "</text>\n<text x=\"%d\" y=\"26\" font-size=\"16\" font-weight=\"bold\">", LEFT);
    text_escaped(out, c->title);
    fprintf(out, "</text>\n</g>\n");
}

static void series(FILE *out, const ws_svg_series *s, const frame *f)
{
    if (s->n == 0)
        return;
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
            s->color, s->dashed ? " stroke-dasharray=\"6 4\"" : "");
    for (size_t i = 0; i < s->n; i++) {
        if (s->steps && i > 0)
            fprintf(out, "%.1f,%.1f ", px(f, s->x[i]), py(f, s->y[i - 1]));
        fprintf(out, "%.1f,%.1f ", px(f, s->x[i]), py(f, s->y[i]));
    }
    fprintf(out, "\"/>\n");
}

int ws_svg_line_chart(FILE *out, const ws_svg_chart *c)
{
    frame f = {c->xmin, c->xmax, c->ymin, c->ymax};
    if (!(f.xmax > f.xmin))
        f.xmax = f.xmin + 1;
    if (!(f.ymax > f.ymin))
        f.ymax = f.ymin + 1;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
                 "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H, W, H);
    axes(out, c, &f);
    for (size_t i = 0; i < c->nseries; i++)
        series(out, &c->series[i], &f);
    legend(out, c);
    if (c->mark) {
        double x = px(&f, c->mark_x), y = py(&f, c->mark_y);
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#d62728\" stroke=\"white\" stroke-width=\"1.5\"/>\n", x, y);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#d62728\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" text-anchor=\"%s\">",
                x + (x > W / 2 ? -8 : 8), y - 8 < TOP + 12 ? y + 18 : y - 8, x > W / 2 ? "end" : "start");
        text_escaped(out, c->mark_label);
        fprintf(out, "</text>\n");
    }
    fprintf(out, "</svg>\n");
    return ferror(out) ? -1 : 0;
}
