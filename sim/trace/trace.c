/* Issue-trace writers: text, JSON lines, Chrome trace events. */
#include "trace.h"
#include "json_out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct ws_trace {
    FILE *out;
    ws_trace_format fmt;
    ws_trace_filter f;
    uint64_t events;
    char kernel[256];       /* of the launch under way, "" when not named */
    uint64_t base;          /* its cycle 0 on the trace's timeline */
};

void ws_trace_begin_launch(ws_trace *t, const char *kernel, uint64_t base)
{
    snprintf(t->kernel, sizeof t->kernel, "%s", kernel ? kernel : "");
    t->base = base;
    if (t->fmt == WS_TRACE_TEXT && t->kernel[0])
        fprintf(t->out, "# launch of %s at cycle %" PRIu64 "\n", t->kernel, base);
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
    if (fmt == WS_TRACE_TEXT)
        fprintf(out, "%10s %4s %10s %4s %5s  %-28s %-10s %-10s %s\n", "cycle", "sm", "block", "warp",
                "pc", "instruction", "active", "executed", "source / memory");
    else if (fmt == WS_TRACE_CHROME)
        fputs("{\"traceEvents\":[\n", out);
    return t;
}

bool ws_trace_wants(const ws_trace *t, uint64_t block, uint32_t warp, int32_t pc, uint64_t cycle)
{
    const ws_trace_filter *f = &t->f;
    return (f->block < 0 || (uint64_t)f->block == block) &&
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

void ws_trace_issue(ws_trace *t, const ws_trace_event *e)
{
    FILE *out = t->out;
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
        /* A slice per instruction from issue to result: one process per
         * SM, one thread per warp of a block. */
        fprintf(out, "%s{\"name\":", t->events ? ",\n" : "");
        ws_json_string(out, e->insn);
        fprintf(out, ",\"ph\":\"X\",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"pid\":%d,\"tid\":%" PRIu64
                ",\"args\":{", t->base + e->cycle, e->done > e->cycle ? e->done - e->cycle : 1, e->sm,
                e->block * 1024 + e->warp);
        write_json_fields(t, out, e);
        fputs("}}", out);
        break;
    }
    t->events++;
}

uint64_t ws_trace_close(ws_trace *t)
{
    if (!t) return 0;
    if (t->fmt == WS_TRACE_CHROME)
        fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"time unit\":\"one ts unit is one GPU cycle\"}}\n",
              t->out);
    uint64_t n = t->events;
    free(t);
    return n;
}
