/* The progress line (progress_line.h). */
#include "progress_line.h"

#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"

#define REDRAW_NS UINT64_C(250000000)

struct ws_progress_line {
    FILE *out;
    ws_progress_clock clock;
    void *clock_ctx;
    char kernel[96];
    uint64_t show_after_ns, start_ns, drawn_ns;
    bool timed, shown;
};

static uint64_t monotonic_ns(void *ctx)
{
    (void)ctx;
    return ws_clock_ns();
}

ws_progress_line *ws_progress_line_create(FILE *out, uint64_t show_after_ns, ws_progress_clock clock,
                                          void *clock_ctx)
{
    ws_progress_line *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->out = out;
    p->show_after_ns = show_after_ns;
    p->clock = clock ? clock : monotonic_ns;
    p->clock_ctx = clock_ctx;
    return p;
}

void ws_progress_line_free(ws_progress_line *p)
{
    free(p);
}

void ws_progress_line_begin(ws_progress_line *p, const char *kernel, bool timed)
{
    p->timed = timed;
    snprintf(p->kernel, sizeof p->kernel, "%s", kernel ? kernel : "?");
    p->start_ns = p->clock(p->clock_ctx);
    p->drawn_ns = 0;
    p->shown = false;
}

/* 1234 -> "1234", 1234567 -> "1.23M", ... */
static void human(char *buf, size_t size, double v)
{
    if (v >= 1e9) snprintf(buf, size, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(buf, size, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(buf, size, "%.1fk", v / 1e3);
    else snprintf(buf, size, "%.0f", v);
}

void ws_progress_line_format(char *buf, size_t size, const char *kernel, bool timed,
                             const ws_progress_state *s, double elapsed_s)
{
    char cycles[32] = "", rate[32], eta[32] = "?";
    double done = s->blocks_total ? (double)s->blocks_done / (double)s->blocks_total : 0;
    if (timed) {
        human(cycles, sizeof cycles, (double)s->cycles);
        strcat(cycles, " cycles  ");
    }
    human(rate, sizeof rate, elapsed_s > 0 ? (double)s->warp_insts / elapsed_s : 0);
    if (s->blocks_done > 0 && s->blocks_done <= s->blocks_total) {
        /* the blocks still to run, at the rate of those done so far */
        double left = elapsed_s * (double)(s->blocks_total - s->blocks_done) / (double)s->blocks_done;
        unsigned long sec = (unsigned long)(left + 0.5);
        snprintf(eta, sizeof eta, "%lu:%02lu", sec / 60, sec % 60);
    }
    snprintf(buf, size, "warpsim: %s  blocks %llu/%llu (%.0f%%)  %s%s warp insts/s  ETA %s", kernel,
             (unsigned long long)s->blocks_done, (unsigned long long)s->blocks_total, done * 100.0, cycles,
             rate, eta);
}

void ws_progress_line_poll(ws_progress_line *p, const ws_progress_state *s)
{
    uint64_t now = p->clock(p->clock_ctx);
    if (now - p->start_ns < p->show_after_ns || (p->shown && now - p->drawn_ns < REDRAW_NS)) return;
    char line[256];
    ws_progress_line_format(line, sizeof line, p->kernel, p->timed, s, (double)(now - p->start_ns) / 1e9);
    /* back to the start of the line, the new text, the rest of the old erased */
    fprintf(p->out, "\r%s\033[K", line);
    fflush(p->out);
    p->shown = true;
    p->drawn_ns = now;
}

void ws_progress_line_end(ws_progress_line *p)
{
    if (p->shown) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
    p->shown = false;
}
