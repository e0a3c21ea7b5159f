/* The HTML report: what each kernel's launches leave for it, and the page
 * around the sections (html_report_lines.c writes the per-line ones). */
#include "html_report.h"
#include "html_report_lines.h"
#include "html_util.h"
#include "kernel_totals.h"
#include "../core/program.h"
#include "../sched/occupancy_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* What the report keeps of one kernel's launches. */
typedef struct kernel_entry {
    char *name;
    uint64_t launches;
    uint64_t reused;                        /* of them, with an earlier launch's timing (docs/REUSE.md) */
    uint64_t reused_other;                  /* of those, an earlier launch that read other values */
    uint64_t own_min, own_max, own_sum;     /* the kernel's own cycles (timed) */
    uint64_t longest;                       /* cycles of the launch kept below */
    bool timed;
    char *summary;                          /* ws_summary_text of the longest launch */
    ws_timing_stats ts;                     /* ... its timing */
    bool has_occ;
    ws_occ_result occ;                      /* ... its occupancy (hardware rule) */
    char *occ_text;                         /* ... explained (ws_occ_print_report) */
    ws_issue_timeline *timeline;            /* ... its issues; NULL = none */
    uint32_t nsp;                           /* sub-partitions per SM: issues per SM-cycle */
} kernel_entry;

struct ws_html_report {
    kernel_entry *k; size_t nk, cap;
    ws_issue_timeline *pending;             /* given to the launch in progress */
};

ws_html_report *ws_html_report_create(void)
{
    return calloc(1, sizeof(ws_html_report));
}

void ws_html_report_free(ws_html_report *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nk; i++) {
        free(r->k[i].name);
        free(r->k[i].summary);
        free(r->k[i].occ_text);
        ws_issue_timeline_free(r->k[i].timeline);
    }
    free(r->k);
    ws_issue_timeline_free(r->pending);
    free(r);
}

ws_issue_timeline *ws_html_report_timeline(ws_html_report *r, const ws_gpu_config *g)
{
    uint32_t nsm = g->multiProcessorCount > 0 ? (uint32_t)g->multiProcessorCount : 1;
    uint32_t slots = g->warpSize > 0 && g->maxThreadsPerMultiProcessor > 0
                     ? (uint32_t)(g->maxThreadsPerMultiProcessor / g->warpSize) : 64;
    if (r->pending && (r->pending->nsm != nsm || r->pending->slots != slots)) {
        ws_issue_timeline_free(r->pending);
        r->pending = NULL;
    }
    if (r->pending) ws_issue_timeline_clear(r->pending);
    else r->pending = ws_issue_timeline_create(nsm, slots);
    return r->pending;
}

static kernel_entry *entry_for(ws_html_report *r, const char *name)
{
    for (size_t i = 0; i < r->nk; i++)
        if (!strcmp(r->k[i].name, name)) return &r->k[i];
    if (r->nk == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        kernel_entry *k = realloc(r->k, sizeof *k * cap);
        if (!k) return NULL;
        r->k = k;
        r->cap = cap;
    }
    kernel_entry *e = &r->k[r->nk];
    memset(e, 0, sizeof *e);
    if (!(e->name = strdup(name))) return NULL;
    r->nk++;
    return e;
}

/* What f wrote, as a string (NULL when out of memory). */
static char *captured(void (*write)(FILE *, const void *), const void *arg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    write(f, arg);
    if (fclose(f) != 0) { free(text); return NULL; }
    return text;
}

typedef struct summary_args { const ws_summary_info *info; const ws_launch_stats *st; } summary_args;

static void write_summary(FILE *f, const void *arg)
{
    const summary_args *a = arg;
    ws_summary_text(f, a->info, a->st);
}

typedef struct occ_args {
    const ws_gpu_config *g; const ws_occ_input *in; const ws_occ_result *hw, *tb;
} occ_args;

static void write_occupancy(FILE *f, const void *arg)
{
    const occ_args *a = arg;
    ws_occ_print_report(f, a->g, a->g->name, a->in, WS_OCC_HARDWARE, a->hw, a->tb);
}

/* Keeps l as its kernel's launch to show: summary, occupancy, timeline. */
static bool keep_launch(ws_html_report *r, kernel_entry *e, const ws_html_launch *l)
{
    summary_args sa = {l->info, l->stats};
    char *summary = captured(write_summary, &sa);
    if (!summary) return false;
    free(e->summary);
    e->summary = summary;
    e->timed = l->info->timing != NULL;
    if (!e->timed) return true;
    e->ts = *l->info->timing;
    e->longest = e->ts.cycles;
    e->nsp = l->gpu && l->gpu->subPartitionsPerMultiprocessor > 0
             ? (uint32_t)l->gpu->subPartitionsPerMultiprocessor : 4;
    if (r->pending && r->pending->issues) {     /* swap: the old one is reused */
        ws_issue_timeline *t = e->timeline;
        e->timeline = r->pending;
        r->pending = t;
    }
    if (!l->gpu) return true;
    ws_dim3 b = l->info->block;
    ws_occ_input in = {
        .threads = (int32_t)(b.x * b.y * b.z), .regs = e->ts.regs_per_thread,
        .static_smem = l->kernel ? l->kernel->static_smem : 0, .dynamic_smem = l->info->dynamic_smem,
        .carveout = l->carveout, .optin = l->optin,
    };
    ws_occ_result tb;
    ws_occupancy(l->gpu, &in, WS_OCC_HARDWARE, &e->occ);
    ws_occupancy(l->gpu, &in, WS_OCC_TEXTBOOK, &tb);
    occ_args oa = {l->gpu, &in, &e->occ, &tb};
    free(e->occ_text);
    e->occ_text = captured(write_occupancy, &oa);
    e->has_occ = e->occ_text != NULL;
    return true;
}

bool ws_html_report_add(ws_html_report *r, const ws_html_launch *l)
{
    kernel_entry *e = entry_for(r, l->info->kernel);
    if (!e) return false;
    const ws_timing_stats *ts = l->info->timing;
    bool first = e->launches++ == 0;
    e->reused += l->info->reused_from != 0;
    e->reused_other += l->info->reused_from && l->info->reused_other_inputs;
    if (ts) {
        uint64_t own = ts->cycles - ts->launch_cycles;
        if (first || own < e->own_min) e->own_min = own;
        if (own > e->own_max) e->own_max = own;
        e->own_sum += own;
    }
    /* a reused launch has the cycles of an earlier launch of its kernel:
     * never first nor longer, and so never kept (it has no timeline) */
    if (first || (ts && ts->cycles > e->longest)) return keep_launch(r, e, l);
    return true;
}

/* ---- writing ------------------------------------------------------------- */

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 40px;color:#222;max-width:1400px}\n"
    "h1{font-size:22px}h2{font-size:19px;border-bottom:2px solid #447;padding-bottom:4px;margin-top:40px}\n"
    "h3{font-size:16px;margin:22px 0 6px}pre{background:#f6f6f8;padding:8px;overflow:auto;font-size:12px}\n"
    "table{border-collapse:collapse;font-size:12px}td,th{padding:1px 6px;border-bottom:1px solid #e4e4e8;"
    "text-align:right;white-space:nowrap}th{background:#eef;position:sticky;top:0}\n"
    "td.src{text-align:left;font-family:ui-monospace,monospace;white-space:pre}td.ln{color:#888}\n"
    "tr.work td.src{font-weight:600}td.advice{text-align:left;white-space:normal;color:#8a3b00;"
    "background:#fff8ec}\n"
    ".limiter{font-size:15px;background:#fff4d6;padding:6px 10px;border-left:4px solid #e0a000}\n"
    ".note{color:#555;font-size:12px}.scroll{max-height:640px;overflow:auto;border:1px solid #ddd}\n"
    "svg.chart text{font-size:11px;fill:#333}svg.chart .ctitle{font-size:13px;font-weight:600}\n"
    "svg.chart .grid{stroke:#ddd}svg.chart .mark{stroke:#000;stroke-width:2}\n"
    "canvas.timeline{border:1px solid #ccc;image-rendering:pixelated;max-width:1200px}\n"
    "nav a{margin-right:14px}\n";

/* Draws each timeline canvas from the JSON next to it: a row per SM (and
 * per warp slot of the first SMs), a column per time bin, darker = more
 * of the bin's issue slots used; then marks the page as ready. */
static const char script[] =
    "(function(){\n"
    "  for (const c of document.querySelectorAll('canvas.timeline')) {\n"
    "    const d = JSON.parse(document.getElementById(c.dataset.src).textContent);\n"
    "    const rows = d.sm.map((b, i) => ({b: b, cap: d.width * d.nsp, name: 'SM ' + i}))\n"
    "      .concat(d.slots.map(s => ({b: s.b, cap: d.width, name: 'SM ' + s.sm + ' warp slot ' + s.slot})));\n"
    "    const rh = 2, gap = d.slots.length ? 4 : 0;\n"
    "    c.width = Math.max(d.bins, 1) * 2; c.height = rows.length * rh + gap;\n"
    "    c.style.width = '100%'; c.style.height = 2 * c.height + 'px';\n"
    "    const g = c.getContext('2d');\n"
    "    g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height);\n"
    "    let cells = 0;\n"
    "    rows.forEach((r, i) => {\n"
    "      const y = i * rh + (i >= d.sm.length ? gap : 0);\n"
    "      r.b.forEach((n, j) => {\n"
    "        if (!n) return;\n"
    "        const f = Math.sqrt(Math.min(1, n / r.cap));\n"
    "        g.fillStyle = 'rgb(' + Math.round(230 - 200 * f) + ',' + Math.round(240 - 170 * f) + ',255)';\n"
    "        g.fillRect(j * 2, y, 2, rh); cells++;\n"
    "      });\n"
    "    });\n"
    "    c.dataset.drawn = cells;\n"
    "    const tip = document.getElementById(c.id + '-tip');\n"
    "    c.addEventListener('mousemove', e => {\n"
    "      const b = c.getBoundingClientRect();\n"
    "      const j = Math.floor((e.clientX - b.left) * c.width / b.width / 2);\n"
    "      let y = (e.clientY - b.top) * c.height / b.height, i = Math.floor(y / rh);\n"
    "      if (i >= d.sm.length) i = Math.floor((y - gap) / rh);\n"
    "      const r = rows[i];\n"
    "      if (!r || j < 0 || j >= d.bins) return;\n"
    "      tip.textContent = r.name + ', cycles ' + j * d.width + '..' + ((j + 1) * d.width - 1) + ': ' +\n"
    "        (r.b[j] || 0) + ' warp instructions issued';\n"
    "    });\n"
    "  }\n"
    "  document.body.dataset.ready = '1';\n"
    "})();\n";

/* A row of bins as a JSON array, trailing empty bins left out. */
static void bins_json(FILE *out, const uint64_t *b, uint32_t n)
{
    while (n && !b[n - 1]) n--;
    fputc('[', out);
    for (uint32_t i = 0; i < n; i++) fprintf(out, "%s%" PRIu64, i ? "," : "", b[i]);
    fputc(']', out);
}

static void timeline_json(FILE *out, const kernel_entry *e)
{
    const ws_issue_timeline *t = e->timeline;
    uint32_t used = ws_issue_timeline_used(t);
    fprintf(out, "{\"width\":%" PRIu64 ",\"bins\":%u,\"nsp\":%u,\"sm\":[", t->width, used, e->nsp);
    for (uint32_t s = 0; s < t->nsm; s++) {
        if (s) fputc(',', out);
        bins_json(out, t->sm + (size_t)s * WS_TIMELINE_BINS, used);
    }
    fputs("],\"slots\":[", out);
    bool any = false;
    for (uint32_t s = 0; s < ws_issue_timeline_detail_sms(t); s++)
        for (uint32_t w = 0; w < t->slots; w++) {
            const uint64_t *b = t->slot + ((size_t)s * t->slots + w) * WS_TIMELINE_BINS;
            bool used_slot = false;
            for (uint32_t i = 0; i < used && !used_slot; i++) used_slot = b[i] != 0;
            if (!used_slot) continue;
            fprintf(out, "%s{\"sm\":%u,\"slot\":%u,\"b\":", any ? "," : "", s, w);
            bins_json(out, b, used);
            fputc('}', out);
            any = true;
        }
    fputs("]}", out);
}

static void section_timeline(FILE *out, const kernel_entry *e, size_t i)
{
    fprintf(out, "<section class=\"timeline\" id=\"k%zu-timeline\"><h3>Warp-issue timeline per SM</h3>\n", i);
    if (!e->timeline) {
        fputs("<p class=\"note\">No timeline: the launch was not timed (functional mode) or issued "
              "nothing.</p></section>\n", out);
        return;
    }
    const ws_issue_timeline *t = e->timeline;
    fprintf(out, "<p class=\"note\">The longest launch: a row per SM (%u), then a row per warp slot of "
            "the first %u SMs; a column per %" PRIu64 " cycles (%u columns, %" PRIu64 " cycles); the "
            "darker, the more of the SM's %u issue slots per cycle (a warp slot's 1) were used. Point at it "
            "for the numbers.</p>\n", t->nsm, ws_issue_timeline_detail_sms(t), t->width,
            ws_issue_timeline_used(t), t->last + 1, e->nsp);
    fprintf(out, "<script type=\"application/json\" id=\"k%zu-timeline-data\">", i);
    timeline_json(out, e);
    fprintf(out, "</script>\n<canvas class=\"timeline\" id=\"k%zu-timeline-canvas\" "
            "data-src=\"k%zu-timeline-data\"></canvas>\n"
            "<p class=\"note\" id=\"k%zu-timeline-canvas-tip\">&nbsp;</p></section>\n", i, i, i);
}

static void section_summary(FILE *out, const kernel_entry *e, size_t i)
{
    fprintf(out, "<section class=\"summary\" id=\"k%zu-summary\"><h3>Summary</h3>\n<p>%" PRIu64
            " launch%s", i, e->launches, e->launches == 1 ? "" : "es");
    ws_kernel_totals_reused_text(out, e->reused, e->reused_other);
    if (e->timed)
        fprintf(out, "; the kernel's own cycles per launch: min %" PRIu64 ", mean %" PRIu64 ", max %" PRIu64
                " (launch overhead apart)", e->own_min, e->own_sum / e->launches, e->own_max);
    fprintf(out, ". %s:</p>\n<pre>", e->launches > 1 ? "The longest launch" : "The launch");
    ws_html_text(out, e->summary);
    fputs("</pre></section>\n", out);
}

static void section_occupancy(FILE *out, const kernel_entry *e, size_t i)
{
    fprintf(out, "<section class=\"occupancy\" id=\"k%zu-occupancy\"><h3>Occupancy</h3>\n", i);
    if (!e->has_occ) {
        fputs("<p class=\"note\">Occupancy needs a timed launch (not --functional).</p></section>\n", out);
        return;
    }
    const ws_occ_result *o = &e->occ;
    fprintf(out, "<p class=\"limiter\" id=\"k%zu-limiter\">Limited by <b>", i);
    ws_html_text(out, ws_occ_resource_name(o->limiter));
    fprintf(out, "</b>: %d block(s) per SM, %d of %d warps (%.1f%% theoretical occupancy; %.1f%% achieved)"
            "</p>\n<table><tr><th>resource</th><th>blocks per SM it allows</th></tr>\n", o->blocks_per_sm,
            o->active_warps, o->max_warps, o->occupancy * 100.0, e->ts.occupancy_achieved * 100.0);
    for (int r = 0; r < WS_OCC_NRESOURCES; r++) {
        fprintf(out, "<tr%s><td>%s</td><td>", o->limiting >> r & 1 ? " class=\"work\"" : "",
                ws_occ_resource_name((ws_occ_resource)r));
        if (o->limits[r] == WS_OCC_UNLIMITED) fputs("not used", out);
        else fprintf(out, "%d%s", o->limits[r], o->limiting >> r & 1 ? " (limit)" : "");
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n<details><summary>How each limit arises</summary><pre>", out);
    ws_html_text(out, e->occ_text);
    fputs("</pre></details></section>\n", out);
}

static void section_stalls(FILE *out, const kernel_entry *e, size_t i)
{
    fprintf(out, "<section class=\"stalls\" id=\"k%zu-stalls\"><h3>Where the warps waited</h3>\n", i);
    if (!e->timed) {
        fputs("<p class=\"note\">Stall reasons need a timed launch.</p></section>\n", out);
        return;
    }
    ws_hbar_row rows[WS_STALL_COUNT];
    static const char *const color[] = {"#4c72b0"};
    size_t n = 0;
    for (int s = 0; s < WS_STALL_COUNT; s++) {
        if (!e->ts.stall[s]) continue;
        rows[n] = (ws_hbar_row){.label = ws_stall_name((ws_stall)s), .mark = -1};
        rows[n++].v[0] = (double)e->ts.stall[s];
    }
    char id[48];
    snprintf(id, sizeof id, "k%zu-stall-chart", i);
    ws_html_hbar_chart(out, &(ws_hbar_chart){.id = id, .title = "Warp-cycles per stall reason (longest launch)",
                                             .unit = "warp-cycles", .colors = color, .nseries = 1,
                                             .rows = rows, .nrows = n});
    fputs("</section>\n", out);
}

int ws_html_report_write(FILE *out, const ws_html_report *r, const ws_lines *lines)
{
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<title>warpsim report</title>\n<style>\n%s</style></head>\n<body>\n"
            "<h1>warpsim report</h1>\n<nav id=\"kernels\">", style);
    for (size_t i = 0; i < r->nk; i++) {
        fprintf(out, "<a href=\"#k%zu\">", i);
        ws_html_text(out, r->k[i].name);
        fputs("</a>", out);
    }
    if (!r->nk) fputs("No kernel completed a launch.", out);
    fputs("</nav>\n", out);
    for (size_t i = 0; i < r->nk; i++) {
        const kernel_entry *e = &r->k[i];
        fprintf(out, "<section class=\"kernel\" id=\"k%zu\"><h2>kernel ", i);
        ws_html_text(out, e->name);
        fputs("</h2>\n", out);
        section_summary(out, e, i);
        section_occupancy(out, e, i);
        section_stalls(out, e, i);
        ws_html_lines_sections(out, lines, e->name, i, e->timed);
        section_timeline(out, e, i);
        fputs("</section>\n", out);
    }
    fprintf(out, "<script>\n%s</script>\n</body></html>\n", script);
    return ferror(out) ? -1 : 0;
}
