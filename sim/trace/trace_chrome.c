/* The Chrome trace-event writer: tracks, metadata, slices.  See
 * trace_chrome.h for the layout. */
#include "trace_chrome.h"
#include "json_out.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { LAUNCH_PID = 1, LAUNCH_TID = 1, SM_PID0 = 2 };

/* Issues waiting for the warp's next one to say where their slice ends:
 * one instruction, or n of the same kind at consecutive pcs issued back to
 * back (each issued before the last one's result), which make one slice. */
typedef struct pending {
    bool valid;
    char name[96];
    char src[96];               /* "file.cu:42" (the file's last component), "" without */
    uint64_t cycle, last, done; /* the first issue, the last issue, the last's result */
    uint32_t n;
    int32_t pc, last_pc;
    uint32_t active, mask;
    uint8_t mem;
    bool store;
    uint32_t wavefronts, degree, sectors, lines;
} pending;

/* One warp of one block of one launch: a thread track of its SM. */
typedef struct track {
    uint64_t launch, block;
    uint32_t warp;
    bool used;
    int32_t sm;
    uint32_t tid;
    pending last;
} track;

struct ws_chrome {
    FILE *out;
    uint64_t elements;          /* array elements written, for the commas */
    uint64_t slices;
    int32_t khz;
    uint64_t launch;
    char kernel[256];
    track *tracks;              /* open addressing, size a power of two */
    size_t ntracks, cap;
    uint32_t next_tid;
    bool *sm_named;
    size_t nsm_named;
    bool launch_track_named;
};

ws_chrome *ws_chrome_open(FILE *out)
{
    ws_chrome *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->out = out;
    c->khz = 1000000;
    c->cap = 256;
    c->tracks = calloc(c->cap, sizeof *c->tracks);
    if (!c->tracks) {
        free(c);
        return NULL;
    }
    fputs("{\"traceEvents\":[\n", out);
    return c;
}

void ws_chrome_set_clock(ws_chrome *c, int32_t khz)
{
    c->khz = khz > 0 ? khz : 1000000;
}

void ws_chrome_begin_launch(ws_chrome *c, uint64_t launch, const char *kernel)
{
    c->launch = launch;
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel ? kernel : "");
}

/* ---- output pieces ---- */

static void element(ws_chrome *c)
{
    fputs(c->elements++ ? ",\n" : "", c->out);
}

/* Nanoseconds from cycle 0 to cycle at the clock, rounded down: a whole
 * number, so that a reader that rounds to nanoseconds reads it exactly. */
static uint64_t ns_at(const ws_chrome *c, uint64_t cycle)
{
    uint64_t k = (uint64_t)c->khz;
    return cycle / k * 1000000u + cycle % k * 1000000u / k;
}

/* Nanoseconds as the format's microseconds. */
static void write_us(FILE *out, uint64_t ns)
{
    fprintf(out, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static void metadata(ws_chrome *c, const char *what, int pid, uint32_t tid, const char *key,
                     const char *text, int64_t number)
{
    element(c);
    fprintf(c->out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"%s\":", what, pid, tid, key);
    if (text) ws_json_string(c->out, text);
    else fprintf(c->out, "%" PRId64, number);
    fputs("}}", c->out);
}

static void name_process(ws_chrome *c, int pid, const char *name, int64_t order)
{
    metadata(c, "process_name", pid, 0, "name", name, 0);
    metadata(c, "process_sort_index", pid, 0, "sort_index", NULL, order);
}

static void name_sm(ws_chrome *c, int32_t sm)
{
    if (sm < 0) sm = 0;
    if ((size_t)sm >= c->nsm_named) {
        size_t n = (size_t)sm * 2 + 8;
        bool *named = realloc(c->sm_named, n * sizeof *named);
        if (!named) return;     /* the track stays unnamed: only the name is lost */
        memset(named + c->nsm_named, 0, (n - c->nsm_named) * sizeof *named);
        c->sm_named = named;
        c->nsm_named = n;
    }
    if (c->sm_named[sm]) return;
    c->sm_named[sm] = true;
    char name[32];
    snprintf(name, sizeof name, "SM %d", sm);
    name_process(c, SM_PID0 + sm, name, sm + 1);
}

/* ---- tracks ---- */

static size_t track_hash(uint64_t launch, uint64_t block, uint32_t warp)
{
    uint64_t h = launch * UINT64_C(0x9e3779b97f4a7c15) ^ block * UINT64_C(0xbf58476d1ce4e5b9) ^
                 (uint64_t)warp * UINT64_C(0x94d049bb133111eb);
    return (size_t)(h ^ h >> 29);
}

static track *find_slot(track *tab, size_t cap, uint64_t launch, uint64_t block, uint32_t warp)
{
    for (size_t i = track_hash(launch, block, warp) & (cap - 1);; i = (i + 1) & (cap - 1)) {
        track *t = &tab[i];
        if (!t->used || (t->launch == launch && t->block == block && t->warp == warp)) return t;
    }
}

static bool grow(ws_chrome *c)
{
    size_t cap = c->cap * 2;
    track *tab = calloc(cap, sizeof *tab);
    if (!tab) return false;
    for (size_t i = 0; i < c->cap; i++)
        if (c->tracks[i].used)
            *find_slot(tab, cap, c->tracks[i].launch, c->tracks[i].block, c->tracks[i].warp) = c->tracks[i];
    free(c->tracks);
    c->tracks = tab;
    c->cap = cap;
    return true;
}

/* The track of e's warp, named when new; NULL when out of memory. */
static track *track_of(ws_chrome *c, const ws_trace_event *e)
{
    if (c->ntracks * 2 >= c->cap && !grow(c)) return NULL;
    track *t = find_slot(c->tracks, c->cap, c->launch, e->block, e->warp);
    if (t->used) return t;
    *t = (track){.launch = c->launch, .block = e->block, .warp = e->warp, .used = true, .sm = e->sm,
                 .tid = ++c->next_tid};
    c->ntracks++;
    name_sm(c, e->sm);
    char name[400];
    snprintf(name, sizeof name, "%s%sblock (%u,%u,%u) warp %u", c->kernel, c->kernel[0] ? " " : "",
             e->bx, e->by, e->bz, e->warp);
    metadata(c, "thread_name", SM_PID0 + e->sm, t->tid, "name", name, 0);
    metadata(c, "thread_sort_index", SM_PID0 + e->sm, t->tid, "sort_index", NULL, t->tid);
    return t;
}

/* ---- slices ---- */

static const char *mem_name(uint8_t m)
{
    static const char *const names[] = {"", "shared", "global", "local", "other"};
    return m < sizeof names / sizeof names[0] ? names[m] : "";
}

static void slice(ws_chrome *c, int pid, uint32_t tid, const char *name, uint64_t from, uint64_t to)
{
    element(c);
    fputs("{\"name\":", c->out);
    ws_json_string(c->out, name);
    fputs(",\"ph\":\"X\",\"ts\":", c->out);
    uint64_t ns = ns_at(c, from);
    write_us(c->out, ns);
    fputs(",\"dur\":", c->out);
    write_us(c->out, ns_at(c, to) - ns);
    fprintf(c->out, ",\"pid\":%d,\"tid\":%u", pid, tid);
}

/* Writes the issue t holds as a slice ending at cycle end. */
static void write_pending(ws_chrome *c, track *t, uint64_t end)
{
    const pending *p = &t->last;
    FILE *out = c->out;
    slice(c, SM_PID0 + t->sm, t->tid, p->name, p->cycle, end);
    fprintf(out, ",\"args\":{\"cycle\":%" PRIu64 ",\"ready\":%" PRIu64 ",\"pc\":%d", p->cycle, p->done, p->pc);
    if (p->n > 1) fprintf(out, ",\"n\":%u", p->n);
    if (p->src[0]) {
        fputs(",\"src\":", out);
        ws_json_string(out, p->src);
    }
    if (p->active != UINT32_MAX) fprintf(out, ",\"active\":\"0x%08x\"", p->active);
    if (p->mask != p->active) fprintf(out, ",\"executed\":\"0x%08x\"", p->mask);
    if (p->mem != WS_TRACE_MEM_NONE) {
        fprintf(out, ",\"mem\":\"%s %s\"", mem_name(p->mem), p->store ? "st" : "ld");
        if (p->mem == WS_TRACE_MEM_SHARED)
            fprintf(out, ",\"wavefronts\":%u,\"degree\":%u", p->wavefronts, p->degree);
        else if (p->mem == WS_TRACE_MEM_GLOBAL || p->mem == WS_TRACE_MEM_LOCAL)
            fprintf(out, ",\"sectors\":%u,\"lines\":%u", p->sectors, p->lines);
    }
    fputs("}}", out);
    t->last.valid = false;
    c->slices++;
}

/* Where an issue's slice ends: at its (last instruction's) result, or at
 * the warp's next issue when that comes first; one cycle at least. */
static uint64_t slice_end(const pending *p, uint64_t next)
{
    uint64_t end = p->done < next ? p->done : next;
    return end > p->last ? end : p->last + 1;
}

/* Whether e, issued at cycle with its source src, continues p's slice:
 * the same instruction and lanes at the next pc, issued as p's last one's
 * slice ends. */
static bool continues(const pending *p, const ws_trace_event *e, uint64_t cycle, const char *src)
{
    return p->valid && e->pc == p->last_pc + 1 && slice_end(p, cycle) == cycle && e->active == p->active &&
           e->mask == p->mask && e->mem == p->mem && e->store == p->store && !strcmp(p->name, e->insn) &&
           !strcmp(p->src, src);
}

static const char *last_component(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void source_of(const ws_trace_event *e, char *buf, size_t size)
{
    buf[0] = '\0';
    if (e->cu_file) snprintf(buf, size, "%s:%d", last_component(e->cu_file), e->cu_line);
    else if (e->ptx_file) snprintf(buf, size, "%s:%d", last_component(e->ptx_file), e->ptx_line);
}

void ws_chrome_issue(ws_chrome *c, const ws_trace_event *e, uint64_t cycle, uint64_t done)
{
    track *t = track_of(c, e);
    if (!t) return;
    pending *p = &t->last;
    char src[sizeof p->src];
    source_of(e, src, sizeof src);
    if (continues(p, e, cycle, src)) {
        p->n++;
        p->last = cycle;
        p->done = done;
        p->last_pc = e->pc;
        p->wavefronts += e->wavefronts;
        p->degree = e->degree > p->degree ? e->degree : p->degree;
        p->sectors += e->sectors;
        p->lines += e->lines;
        return;
    }
    if (p->valid) write_pending(c, t, slice_end(p, cycle));
    *p = (pending){.valid = true, .cycle = cycle, .last = cycle, .done = done, .n = 1, .pc = e->pc,
                   .last_pc = e->pc, .active = e->active, .mask = e->mask, .mem = e->mem, .store = e->store,
                   .wavefronts = e->wavefronts, .degree = e->degree, .sectors = e->sectors, .lines = e->lines};
    snprintf(p->name, sizeof p->name, "%s", e->insn[0] ? e->insn : "?");
    memcpy(p->src, src, sizeof src);
}

void ws_chrome_flush(ws_chrome *c)
{
    for (size_t i = 0; i < c->cap; i++)
        if (c->tracks[i].used && c->tracks[i].last.valid)
            write_pending(c, &c->tracks[i], slice_end(&c->tracks[i].last, UINT64_MAX));
}

void ws_chrome_end_launch(ws_chrome *c)
{
    ws_chrome_flush(c);
    /* the launch's warps issue no more: their tracks are forgotten (their
     * thread ids are not given again) */
    memset(c->tracks, 0, c->cap * sizeof *c->tracks);
    c->ntracks = 0;
}

static void name_launch_track(ws_chrome *c)
{
    if (c->launch_track_named) return;
    c->launch_track_named = true;
    name_process(c, LAUNCH_PID, "kernel launches", 0);
    metadata(c, "thread_name", LAUNCH_PID, LAUNCH_TID, "name", "launches", 0);
}

void ws_chrome_launch_slice(ws_chrome *c, const char *kernel, uint64_t base, uint64_t end)
{
    name_launch_track(c);
    slice(c, LAUNCH_PID, LAUNCH_TID, kernel && *kernel ? kernel : "kernel", base, end > base ? end : base + 1);
    fprintf(c->out, ",\"args\":{\"cycle\":%" PRIu64 ",\"cycles\":%" PRIu64 "}}", base, end - base);
}

void ws_chrome_note(ws_chrome *c, uint64_t cycle, const char *text)
{
    name_launch_track(c);
    element(c);
    fputs("{\"name\":", c->out);
    ws_json_string(c->out, text);
    fputs(",\"ph\":\"i\",\"s\":\"g\",\"ts\":", c->out);
    write_us(c->out, ns_at(c, cycle));
    fprintf(c->out, ",\"pid\":%d,\"tid\":%d,\"args\":{\"cycle\":%" PRIu64 "}}", LAUNCH_PID, LAUNCH_TID, cycle);
}

uint64_t ws_chrome_slices(const ws_chrome *c)
{
    return c->slices;
}

void ws_chrome_close(ws_chrome *c, bool stopped)
{
    ws_chrome_flush(c);
    fprintf(c->out, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock_khz\":%d,"
            "\"time\":\"ts and dur in microseconds at the GPU's clock; cycles in each event's args\","
            "\"stopped_at_limit\":%s}}\n", c->khz, stopped ? "true" : "false");
    free(c->tracks);
    free(c->sm_named);
    free(c);
}
