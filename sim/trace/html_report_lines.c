/* The per-line sections of the HTML report. */
#include "html_report_lines.h"
#include "html_util.h"
#include "../base/stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { HOT_ROWS = 15, CHART_ROWS = 20, MAX_SOURCE_LINES = 100000, CONTEXT = 3 };

static const char *const op_name[3] = {"ld", "st", "atom"};

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static uint64_t stalls(const ws_pc_counts *c)
{
    uint64_t t = 0;
    for (int i = 0; i < WS_PC_STALL_KINDS; i++) t += c->stall[i];
    return t;
}

static uint64_t sum3(const uint64_t *v) { return v[0] + v[1] + v[2]; }

static const char *base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "?";
}

/* "file.cu:42" */
static void line_label(const ws_line_sum *r, char *buf, size_t size)
{
    if (r->line) snprintf(buf, size, "%s:%d", base_name(r->file), r->line);
    else snprintf(buf, size, "(no line)");
}

/* ---- the counters of one line as table cells ---------------------------- */

static void header_cells(FILE *out, bool timed)
{
    fputs("<th>warp insts</th><th>SIMD eff.</th>", out);
    if (timed) fputs("<th>stall warp-cycles</th><th>top stall</th>", out);
    fputs("<th>bank conflicts ld/st</th><th>sectors/request (ideal)</th>", out);
    if (timed) fputs("<th>L1 hit</th><th>L2 hit</th>", out);
}

static void counter_cells(FILE *out, const ws_pc_counts *c, bool timed, uint64_t max_cost)
{
    fprintf(out, "<td>%" PRIu64 "</td><td>%.0f%%</td>", c->warp_insts,
            ratio(c->thread_insts, 32 * c->warp_insts) * 100.0);
    if (timed) {
        uint64_t t = stalls(c);
        int top = 0;
        for (int s = 1; s < WS_PC_STALL_KINDS; s++)
            if (c->stall[s] > c->stall[top]) top = s;
        fprintf(out, "<td style=\"background:rgba(230,80,60,%.2f)\">%" PRIu64 "</td><td>%s</td>",
                0.6 * ratio(t, max_cost), t, t ? ws_stall_name((ws_stall)top) : "");
    }
    if (c->shared_requests[0] + c->shared_requests[1])
        fprintf(out, "<td>%" PRIu64 " / %" PRIu64 "</td>", c->shared_bank_conflicts[0], c->shared_bank_conflicts[1]);
    else
        fputs("<td></td>", out);
    uint64_t req = sum3(c->global_requests);
    if (req)
        fprintf(out, "<td>%.1f (%.1f)</td>", ratio(sum3(c->global_sectors), req),
                ratio(sum3(c->global_ideal_sectors), req));
    else
        fputs("<td></td>", out);
    if (timed) {
        if (c->l1_sectors) fprintf(out, "<td>%.0f%%</td>", ratio(c->l1_hit_sectors, c->l1_sectors) * 100.0);
        else fputs("<td></td>", out);
        if (c->l2_sectors) fprintf(out, "<td>%.0f%%</td>", ratio(c->l2_hit_sectors, c->l2_sectors) * 100.0);
        else fputs("<td></td>", out);
    }
}

/* ---- source files ---------------------------------------------------------- */

typedef struct source_file {
    char *text;                 /* the whole file, lines cut at '\n' */
    char **line;                /* line[i] is line i + 1 */
    int32_t nlines;
} source_file;

static void source_free(source_file *s)
{
    free(s->text);
    free(s->line);
}

static bool source_read(const char *path, source_file *s)
{
    memset(s, 0, sizeof *s);
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return false;
    size_t len = 0, cap = 0;
    char buf[4096];
    for (size_t got; (got = fread(buf, 1, sizeof buf, f)) > 0 && len < ((size_t)64 << 20);) {
        if (len + got + 1 > cap) {
            cap = (len + got + 1) * 2;
            char *t = realloc(s->text, cap);
            if (!t) { fclose(f); source_free(s); return false; }
            s->text = t;
        }
        memcpy(s->text + len, buf, got);
        len += got;
    }
    fclose(f);
    if (!s->text) return false;
    s->text[len] = '\0';
    int32_t cap_lines = 0;
    for (char *p = s->text; p && *p && s->nlines < MAX_SOURCE_LINES;) {
        if (s->nlines == cap_lines) {
            cap_lines = cap_lines ? 2 * cap_lines : 256;
            char **l = realloc(s->line, sizeof *l * (size_t)cap_lines);
            if (!l) { source_free(s); return false; }
            s->line = l;
        }
        s->line[s->nlines++] = p;
        char *nl = strchr(p, '\n');
        if (nl) {
            *nl = '\0';
            if (nl > p && nl[-1] == '\r') nl[-1] = '\0';
        }
        p = nl ? nl + 1 : NULL;
    }
    return true;
}

/* ---- the costliest lines, with advice ------------------------------------ */

/* The advice sentences for c, one a line ("=> " and indentation gone), as
 * a row under the line's row; nothing when there are none. */
static void advice_row(FILE *out, const ws_pc_counts *c, uint64_t total, bool timed)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return;
    ws_lines_advice(f, c, total, timed);
    if (fclose(f) != 0 || !len) { free(text); return; }
    fprintf(out, "<tr class=\"advice\"><td></td><td class=\"advice\" colspan=\"%d\">", timed ? 9 : 5);
    for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        p += strspn(p, " ");
        if (!strncmp(p, "=> ", 3)) p += 3;
        fputs("&rArr; ", out);
        ws_html_text(out, p);
        if (nl && nl[1]) fputs("<br>", out);
    }
    fputs("</td></tr>\n", out);
    free(text);
}

static void hot_table(FILE *out, const ws_line_sum *rows, size_t n, size_t index, bool timed, uint64_t total)
{
    fprintf(out, "<h4>The costliest lines (%s)</h4>\n<div class=\"scroll\"><table class=\"hot\" id=\"k%zu-hot\">"
            "<tr><th>line</th><th>source</th>", timed ? "warp-cycles spent at the line" : "warp instructions",
            index);
    header_cells(out, timed);
    fputs("</tr>\n", out);
    uint64_t max_cost = n ? stalls(&rows[0].c) : 0;
    source_file src;
    bool have = false;
    const char *cached = NULL;
    for (size_t j = 0; j < n && j < HOT_ROWS; j++) {
        char label[256];
        line_label(&rows[j], label, sizeof label);
        fputs("<tr><td>", out);
        ws_html_text(out, label);
        fputs("</td><td class=\"src\">", out);
        if (rows[j].file && (!cached || strcmp(cached, rows[j].file))) {
            if (have) source_free(&src);
            have = source_read(rows[j].file, &src);
            cached = rows[j].file;
        }
        if (have && rows[j].line > 0 && rows[j].line <= src.nlines)
            ws_html_text(out, src.line[rows[j].line - 1] + strspn(src.line[rows[j].line - 1], " \t"));
        fputs("</td>", out);
        counter_cells(out, &rows[j].c, timed, max_cost);
        fputs("</tr>\n", out);
        advice_row(out, &rows[j].c, total, timed);
    }
    fputs("</table></div>\n", out);
    if (have) source_free(&src);
}

/* ---- the source with the counters beside it ------------------------------ */

/* The row of rows for (file, line), or NULL. */
static const ws_line_sum *row_at(const ws_line_sum *rows, size_t n, const char *file, int32_t line)
{
    for (size_t j = 0; j < n; j++)
        if (rows[j].line == line && rows[j].file && !strcmp(rows[j].file, file)) return &rows[j];
    return NULL;
}

/* File f's lines from a few before its first line with work to a few
 * after its last, each with its counters. */
static void source_table(FILE *out, const ws_line_sum *rows, size_t n, const char *file, size_t index,
                         int which, bool timed, uint64_t max_cost)
{
    int32_t lo = INT32_MAX, hi = 0;
    for (size_t j = 0; j < n; j++)
        if (rows[j].file && !strcmp(rows[j].file, file) && rows[j].line > 0) {
            if (rows[j].line < lo) lo = rows[j].line;
            if (rows[j].line > hi) hi = rows[j].line;
        }
    if (hi == 0) return;
    source_file s;
    bool have = source_read(file, &s);
    fputs("<h4>", out);
    ws_html_text(out, file);
    if (!have) fputs(" (not readable here: counters only)", out);
    /* the first file's table is k<index>-source, the others -source-<which> */
    char suffix[16] = "";
    if (which) snprintf(suffix, sizeof suffix, "-%d", which);
    fprintf(out, "</h4>\n<div class=\"scroll\"><table class=\"source\" id=\"k%zu-source%s\"><tr><th>line</th>",
            index, suffix);
    header_cells(out, timed);
    fputs("<th style=\"text-align:left\">source</th></tr>\n", out);
    lo = lo > CONTEXT ? lo - CONTEXT : 1;
    if (have && hi + CONTEXT <= s.nlines) hi += CONTEXT;
    else if (have) hi = s.nlines > hi ? s.nlines : hi;
    for (int32_t ln = lo; ln <= hi; ln++) {
        const ws_line_sum *r = row_at(rows, n, file, ln);
        if (!have && !r) continue;
        fprintf(out, "<tr%s id=\"k%zu-f%d-l%d\"><td class=\"ln\">%d</td>", r ? " class=\"work\"" : "", index,
                which, ln, ln);
        if (r) {
            counter_cells(out, &r->c, timed, max_cost);
        } else {
            for (int c = 0; c < (timed ? 8 : 4); c++) fputs("<td></td>", out);
        }
        fputs("<td class=\"src\">", out);
        if (have && ln <= s.nlines) ws_html_text(out, s.line[ln - 1]);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></div>\n", out);
    if (have) source_free(&s);
}

/* ---- charts ------------------------------------------------------------- */

static const char *const palette[WS_HBAR_SERIES] = {"#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3",
                                                    "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd",
                                                    "#2f4b7c", "#a05195"};

static void stall_chart(FILE *out, const ws_line_sum *rows, size_t n, size_t index, char (*labels)[64])
{
    const char *names[WS_PC_STALL_KINDS];
    for (int s = 0; s < WS_PC_STALL_KINDS; s++) names[s] = ws_stall_name((ws_stall)s);
    ws_hbar_row bars[CHART_ROWS];
    size_t nb = 0;
    for (size_t j = 0; j < n && nb < CHART_ROWS; j++) {
        bars[nb] = (ws_hbar_row){.label = labels[j], .mark = -1};
        for (int s = 0; s < WS_PC_STALL_KINDS; s++) bars[nb].v[s] = (double)rows[j].c.stall[s];
        nb++;
    }
    char id[48];
    snprintf(id, sizeof id, "k%zu-line-stall-chart", index);
    ws_html_hbar_chart(out, &(ws_hbar_chart){.id = id, .title = "Stalls per line: warp-cycles by reason, costliest lines",
                                             .unit = "warp-cycles", .series = names, .colors = palette,
                                             .nseries = WS_PC_STALL_KINDS, .rows = bars, .nrows = nb});
}

static void conflict_chart(FILE *out, const ws_line_sum *rows, size_t n, size_t index, char (*labels)[64])
{
    ws_hbar_row bars[CHART_ROWS];
    size_t nb = 0;
    for (size_t j = 0; j < n && nb < CHART_ROWS; j++) {
        if (!sum3(rows[j].c.shared_requests)) continue;
        bars[nb] = (ws_hbar_row){.label = labels[j], .mark = -1};
        for (int o = 0; o < 3; o++) bars[nb].v[o] = (double)rows[j].c.shared_bank_conflicts[o];
        nb++;
    }
    fprintf(out, "<section class=\"conflicts\" id=\"k%zu-conflicts\"><h3>Shared-memory bank conflicts per line</h3>\n",
            index);
    if (!nb) {
        fputs("<p class=\"note\">No line of this kernel accesses shared memory.</p></section>\n", out);
        return;
    }
    char id[48];
    snprintf(id, sizeof id, "k%zu-conflict-chart", index);
    ws_html_hbar_chart(out, &(ws_hbar_chart){.id = id, .title = "Bank conflicts per line (extra wavefronts)",
                                             .unit = "bank conflicts", .series = op_name, .colors = palette,
                                             .nseries = 3, .rows = bars, .nrows = nb});
    fputs("</section>\n", out);
}

static void sector_chart(FILE *out, const ws_line_sum *rows, size_t n, size_t index, char (*labels)[64])
{
    ws_hbar_row bars[CHART_ROWS];
    char text[CHART_ROWS][80];
    size_t nb = 0;
    for (size_t j = 0; j < n && nb < CHART_ROWS; j++)
        for (int o = 0; o < 3 && nb < CHART_ROWS; o++) {
            const ws_pc_counts *c = &rows[j].c;
            if (!c->global_requests[o]) continue;
            snprintf(text[nb], sizeof text[nb], "%s %s", labels[j], op_name[o]);
            bars[nb] = (ws_hbar_row){.label = text[nb],
                                     .mark = ratio(c->global_ideal_sectors[o], c->global_requests[o])};
            bars[nb].v[0] = ratio(c->global_sectors[o], c->global_requests[o]);
            nb++;
        }
    fprintf(out, "<section class=\"sectors\" id=\"k%zu-sectors\"><h3>Global sectors per request per line</h3>\n",
            index);
    if (!nb) {
        fputs("<p class=\"note\">No line of this kernel accesses global memory.</p></section>\n", out);
        return;
    }
    static const char *const one[] = {"sectors per request"};
    char id[48];
    snprintf(id, sizeof id, "k%zu-sector-chart", index);
    ws_html_hbar_chart(out, &(ws_hbar_chart){.id = id, .title = "Sectors per request (bar) against the ideal (tick)",
                                             .unit = "32 B sectors per warp request", .series = one,
                                             .colors = palette, .nseries = 1, .rows = bars, .nrows = nb,
                                             .mark_name = "ideal for the access width"});
    fputs("</section>\n", out);
}

/* ---- the sections -------------------------------------------------------- */

static void lines_body(FILE *out, const ws_lines *l, size_t k, size_t index, bool timed)
{
    size_t n;
    ws_line_sum *rows = ws_lines_sums(l, k, timed, &n);
    uint64_t total = 0, max_cost = 0;
    for (size_t j = 0; j < n; j++) {
        total += timed ? stalls(&rows[j].c) : rows[j].c.warp_insts;
        if (stalls(&rows[j].c) > max_cost) max_cost = stalls(&rows[j].c);
    }
    fprintf(out, "<p class=\"note\">%s; counters summed over the kernel's launches.</p>\n",
            ws_lines_kernel_cu(l, k) ? ".cu lines (the PTX's line info)"
                                     : "PTX lines: the PTX has no line info; compile with -lineinfo for .cu lines");
    hot_table(out, rows, n, index, timed, total);
    /* each file with work, the costliest line's first */
    int which = 0;
    for (size_t j = 0; j < n; j++) {
        if (!rows[j].file || !rows[j].line) continue;
        bool seen = false;
        for (size_t i = 0; i < j && !seen; i++) seen = rows[i].file && !strcmp(rows[i].file, rows[j].file);
        if (!seen) source_table(out, rows, n, rows[j].file, index, which++, timed, max_cost);
    }
    fputs("</section>\n", out);
    char (*labels)[64] = calloc(n ? n : 1, sizeof *labels);
    for (size_t j = 0; labels && j < n; j++) line_label(&rows[j], labels[j], sizeof labels[j]);
    if (labels && timed) {
        fprintf(out, "<section class=\"line-stalls\" id=\"k%zu-line-stalls\"><h3>Stalls per line</h3>\n", index);
        stall_chart(out, rows, n, index, labels);
        fputs("</section>\n", out);
    }
    if (labels) {
        conflict_chart(out, rows, n, index, labels);
        sector_chart(out, rows, n, index, labels);
    }
    free(labels);
    free(rows);
}

void ws_html_lines_sections(FILE *out, const ws_lines *l, const char *kernel, size_t index, bool timed)
{
    fprintf(out, "<section class=\"lines\" id=\"k%zu-lines\"><h3>Source lines</h3>\n", index);
    size_t k = 0, nk = l ? ws_lines_kernel_count(l) : 0;
    while (k < nk && strcmp(ws_lines_kernel_name(l, k), kernel)) k++;
    if (k == nk) {
        fputs("<p class=\"note\">No per-line counters for this kernel.</p></section>\n", out);
        return;
    }
    lines_body(out, l, k, index, timed);
}
