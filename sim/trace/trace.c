/* Issue-trace writers (text, JSON lines; Chrome trace events in
 * trace_chrome.c), the filter and which launches are traced. */
#include "trace.h"
#include "json_out.h"
#include "trace_chrome.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct ws_trace {
    FILE *out;
    ws_trace_format fmt;
    ws_trace_filter f;
    ws_chrome *chrome;      /* the Chrome writer, or NULL */
    uint64_t events;        /* issues accepted (past the filter, up to the limit) */
    bool on;                /* the launch under way is traced */
    bool stopped;           /* the limit was reached */
    char kernel[256];       /* of the launch under way, "" when not named */
    uint64_t base;          /* its cycle 0 on the trace's timeline */
    uint64_t last_cycle;    /* of the last issue accepted */
    uint64_t launches;      /* launches traced */
    uint64_t selected;      /* launches of the filter's kernel begun */
    char **kernels;         /* the kernels launched, in order of their first launch */
    size_t nkernels;
};

/* Whether display, a name as the summary shows it ("ns::reduce<256>"),
 * is named by want: the whole, or without template arguments, or without
 * scope either. */
static bool name_matches(const char *display, const char *want)
{
    if (!strcmp(display, want)) return true;
    char base[256];
    snprintf(base, sizeof base, "%s", display);
    char *lt = strchr(base, '<');
    if (lt) *lt = '\0';
    if (!strcmp(base, want)) return true;
    const char *scope = strrchr(base, ':');
    return scope && !strcmp(scope + 1, want);
}

/* The order of kernel's first launch among the kernels seen (adding it). */
static int64_t kernel_index(ws_trace *t, const char *kernel)
{
    for (size_t i = 0; i < t->nkernels; i++)
        if (!strcmp(t->kernels[i], kernel)) return (int64_t)i;
    char **k = realloc(t->kernels, (t->nkernels + 1) * sizeof *k);
    if (!k) return -1;
    t->kernels = k;
    k[t->nkernels] = strdup(kernel);
    if (!k[t->nkernels]) return -1;
    return (int64_t)t->nkernels++;
}

static bool kernel_selected(ws_trace *t, const char *kernel)
{
    int64_t index = kernel_index(t, kernel);
    const char *want = t->f.kernel;
    if (!want) return true;
    if (want[0] && strspn(want, "0123456789") == strlen(want))
        return index >= 0 && (uint64_t)index == strtoull(want, NULL, 10);
    return name_matches(kernel, want);
}

void ws_trace_begin_launch(ws_trace *t, const char *kernel, uint64_t base)
{
    snprintf(t->kernel, sizeof t->kernel, "%s", kernel ? kernel : "");
    t->base = base;
    t->on = kernel_selected(t, t->kernel);
    if (t->on && t->f.launch >= 0) t->on = t->selected++ == (uint64_t)t->f.launch;
    if (!t->on) return;
    if (t->fmt == WS_TRACE_TEXT && t->kernel[0])
        fprintf(t->out, "# launch of %s at cycle %" PRIu64 "\n", t->kernel, base);
    if (t->chrome) ws_chrome_begin_launch(t->chrome, t->launches, t->kernel);
    t->launches++;
}

void ws_trace_end_launch(ws_trace *t, uint64_t cycles)
{
    if (!t->on || !t->chrome) return;
    ws_chrome_end_launch(t->chrome);
    ws_chrome_launch_slice(t->chrome, t->kernel, t->base, t->base + cycles);
}

void ws_trace_set_clock(ws_trace *t, int32_t khz)
{
    if (t->chrome) ws_chrome_set_clock(t->chrome, khz);
}

bool ws_trace_launch_on(const ws_trace *t)
{
    return t->on && !t->stopped;
}

bool ws_trace_stopped(const ws_trace *t)
{
    return t->stopped;
}

bool ws_trace_parse_format(const char *s, ws_trace_format *fmt)
{
    if (!strcmp(s, "text")) *fmt = WS_TRACE_TEXT;
    else if (!strcmp(s, "json")) *fmt = WS_TRACE_JSON;
    else if (!strcmp(s, "chrome")) *fmt = WS_TRACE_CHROME;
    else return false;
    return true;
}

ws_trace *ws_trace_open(FILE *out, ws_trace_format fmt, const ws_trace_filter *filter)
{
    ws_trace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->out = out;
    t->fmt = fmt;
    t->f = *filter;
    t->on = true;
    if (fmt == WS_TRACE_CHROME && !(t->chrome = ws_chrome_open(out))) {
        free(t);
        return NULL;
    }
    if (fmt == WS_TRACE_TEXT)
        fprintf(out, "%10s %4s %10s %4s %5s  %-28s %-10s %-10s %s\n", "cycle", "sm", "block", "warp",
                "pc", "instruction", "active", "executed", "source / memory");
    return t;
}

bool ws_trace_wants(const ws_trace *t, uint64_t block, uint32_t warp, int32_t pc, uint64_t cycle)
{
    const ws_trace_filter *f = &t->f;
    return t->on && !t->stopped && (f->block < 0 || (uint64_t)f->block == block) &&
           (f->warp < 0 || (uint64_t)f->warp == warp) &&
           pc >= f->pc_lo && (f->pc_hi < 0 || pc <= f->pc_hi) &&
           cycle >= f->cycle_lo && (f->cycle_hi == 0 || cycle <= f->cycle_hi);
}

static const char *mem_name(uint8_t m)
{
    static const char *const names[] = {"", "shared", "global", "local", "other"};
    return m < sizeof names / sizeof names[0] ? names[m] : "";
}

/* The banks of each shared-memory pass, as JSON arrays of bank numbers. */
static void json_passes(FILE *out, const ws_trace_event *e)
{
    fputc('[', out);
    for (uint32_t i = 0; i < e->wavefronts && i < 32; i++) {
        fprintf(out, "%s[", i ? "," : "");
        bool first = true;
        for (int b = 0; b < 32; b++)
            if (e->pass_banks[i] >> b & 1) {
                fprintf(out, "%s%d", first ? "" : ",", b);
                first = false;
            }
        fputc(']', out);
    }
    fputc(']', out);
}

static void write_json_fields(const ws_trace *t, FILE *out, const ws_trace_event *e)
{
    fprintf(out, "\"cycle\":%" PRIu64 ",\"done\":%" PRIu64 ",\"sm\":%d,\"block\":[%u,%u,%u],\"warp\":%u,"
            "\"pc\":%d,\"insn\":", t->base + e->cycle, t->base + e->done, e->sm, e->bx, e->by, e->bz,
            e->warp, e->pc);
    ws_json_string(out, e->insn);
    fprintf(out, ",\"active\":\"0x%08x\",\"executed\":\"0x%08x\"", e->active, e->mask);
    if (t->kernel[0]) {
        fputs(",\"kernel\":", out);
        ws_json_string(out, t->kernel);
    }
    if (e->ptx_file) {
        fputs(",\"ptx\":", out);
        ws_json_string(out, e->ptx_file);
        fprintf(out, ",\"ptx_line\":%d", e->ptx_line);
    }
    if (e->cu_file) {
        fputs(",\"cu\":", out);
        ws_json_string(out, e->cu_file);
        fprintf(out, ",\"cu_line\":%d", e->cu_line);
    }
    if (e->mem != WS_TRACE_MEM_NONE) {
        fprintf(out, ",\"mem\":\"%s\",\"store\":%s", mem_name(e->mem), e->store ? "true" : "false");
        if (e->mem == WS_TRACE_MEM_SHARED) {
            fprintf(out, ",\"wavefronts\":%u,\"degree\":%u,\"pass_banks\":", e->wavefronts, e->degree);
            json_passes(out, e);
        } else if (e->mem == WS_TRACE_MEM_GLOBAL || e->mem == WS_TRACE_MEM_LOCAL) {
            fprintf(out, ",\"sectors\":%u,\"lines\":%u", e->sectors, e->lines);
        }
    }
}

/* Stops the trace at its limit, saying so in it and on stderr. */
static void stop(ws_trace *t)
{
    t->stopped = true;
    char note[160];
    snprintf(note, sizeof note, "the trace stops here: it reached its limit of %" PRIu64 " events (--trace-limit)",
             t->f.limit);
    switch (t->fmt) {
    case WS_TRACE_TEXT: fprintf(t->out, "# %s\n", note); break;
    case WS_TRACE_JSON:
        fputs("{\"note\":", t->out);
        ws_json_string(t->out, note);
        fputs("}\n", t->out);
        break;
    case WS_TRACE_CHROME: ws_chrome_note(t->chrome, t->last_cycle, note); break;
    }
    fflush(stdout);
    fprintf(stderr, "warpsim: note: the trace stopped after %" PRIu64 " events (--trace-limit %" PRIu64 "); "
            "narrow it with --trace-kernel, --trace-launch, --trace-block, --trace-warp, --trace-pc or "
            "--trace-cycles, or raise the limit (0 = none)\n", t->f.limit, t->f.limit);
}

void ws_trace_issue(ws_trace *t, const ws_trace_event *e)
{
    FILE *out = t->out;
    if (t->stopped) return;
    if (t->f.limit && t->events >= t->f.limit) {
        stop(t);
        return;
    }
    t->last_cycle = t->base + e->cycle;
    switch (t->fmt) {
    case WS_TRACE_TEXT: {
        char block[40], src[160] = "";
        snprintf(block, sizeof block, "(%u,%u,%u)", e->bx, e->by, e->bz);
        if (e->cu_file) snprintf(src, sizeof src, "%s:%d", e->cu_file, e->cu_line);
        else if (e->ptx_file) snprintf(src, sizeof src, "%s:%d", e->ptx_file, e->ptx_line);
        fprintf(out, "%10" PRIu64 " %4d %10s %4u %5d  %-28s 0x%08x 0x%08x %s", t->base + e->cycle, e->sm, block,
                e->warp, e->pc, e->insn, e->active, e->mask, src);
        if (e->mem == WS_TRACE_MEM_SHARED)
            fprintf(out, "  [shared %s: %u pass%s, %u-way]", e->store ? "st" : "ld", e->wavefronts,
                    e->wavefronts == 1 ? "" : "es", e->degree);
        else if (e->mem == WS_TRACE_MEM_GLOBAL || e->mem == WS_TRACE_MEM_LOCAL)
            fprintf(out, "  [%s %s: %u sectors, %u lines]", mem_name(e->mem), e->store ? "st" : "ld",
                    e->sectors, e->lines);
        if (e->done > e->cycle) fprintf(out, "  ready at %" PRIu64, t->base + e->done);
        fputc('\n', out);
        break;
    }
    case WS_TRACE_JSON:
        fputc('{', out);
        write_json_fields(t, out, e);
        fputs("}\n", out);
        break;
    case WS_TRACE_CHROME:
        ws_chrome_issue(t->chrome, e, t->base + e->cycle, t->base + e->done);
        break;
    }
    t->events++;
}

uint64_t ws_trace_close(ws_trace *t)
{
    if (!t) return 0;
    if (t->chrome) ws_chrome_close(t->chrome, t->stopped);
    uint64_t n = t->events;
    for (size_t i = 0; i < t->nkernels; i++) free(t->kernels[i]);
    free(t->kernels);
    free(t);
    return n;
}
