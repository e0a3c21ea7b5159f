/* The structural check of a Chrome trace: see chrome_check.h. */
#include "chrome_check.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span { int64_t pid, tid; int64_t from, to; } span;     /* ns */
typedef struct named { int64_t pid, tid; } named;                       /* tid -1: a process */

typedef struct checker {
    chrome_report *r;
    span *spans; size_t nspans, capspans;
    named *names; size_t nnames, capnames;
    named *used; size_t nused, capused;
} checker;

static void problem(checker *c, const char *fmt, ...)
{
    if (c->r->problems++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->r->first, sizeof c->r->first, fmt, ap);
        va_end(ap);
    }
}

static bool push(void **arr, size_t *n, size_t *cap, size_t size, const void *item)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        void *p = realloc(*arr, nc * size);
        if (!p) return false;
        *arr = p;
        *cap = nc;
    }
    memcpy((char *)*arr + *n * size, item, size);
    (*n)++;
    return true;
}

static bool has(const named *list, size_t n, int64_t pid, int64_t tid)
{
    for (size_t i = 0; i < n; i++)
        if (list[i].pid == pid && list[i].tid == tid) return true;
    return false;
}

/* A whole number of ns from a value in microseconds. */
static int64_t us_to_ns(double us)
{
    return (int64_t)llround(us * 1000.0);
}

static int64_t number(const cJSON *o, const char *key, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v)) {
        *ok = false;
        return 0;
    }
    return (int64_t)v->valuedouble;
}

/* "SM N" */
static bool sm_name(const char *s)
{
    if (strncmp(s, "SM ", 3) != 0 || s[3] < '0' || s[3] > '9') return false;
    char *end;
    strtol(s + 3, &end, 10);
    return *end == '\0';
}

static void check_metadata(checker *c, const cJSON *e)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
    bool ok = true;
    int64_t pid = number(e, "pid", &ok), tid = number(e, "tid", &ok);
    if (!cJSON_IsString(name) || !ok) {
        problem(c, "a metadata event without a name, pid or tid");
        return;
    }
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(args, "name");
    if (!strcmp(name->valuestring, "process_name") || !strcmp(name->valuestring, "thread_name")) {
        bool process = name->valuestring[0] == 'p';
        if (!cJSON_IsString(text) || !text->valuestring[0]) {
            problem(c, "%s of pid %lld without args.name", name->valuestring, (long long)pid);
            return;
        }
        if (process && !strncmp(text->valuestring, "pid ", 4))
            problem(c, "process %lld is named by its number: '%s'", (long long)pid, text->valuestring);
        if (process && !strncmp(text->valuestring, "SM", 2) && !sm_name(text->valuestring))
            problem(c, "an SM process named '%s', not 'SM N'", text->valuestring);
        if (!process && !strstr(text->valuestring, "block (") && !strstr(text->valuestring, "launches"))
            problem(c, "thread %lld of pid %lld is named '%s': no block", (long long)tid, (long long)pid,
                    text->valuestring);
        if (!process && strstr(text->valuestring, "block (") && !strstr(text->valuestring, " warp "))
            problem(c, "thread named '%s': no warp", text->valuestring);
        named n = {pid, process ? -1 : tid};
        if (process) c->r->processes++;
        push((void **)&c->names, &c->nnames, &c->capnames, sizeof n, &n);
    }
}

static void check_slice(checker *c, const cJSON *e, int64_t clock_khz)
{
    bool ok = true;
    int64_t pid = number(e, "pid", &ok), tid = number(e, "tid", &ok);
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts"), *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
    const cJSON *cycle = cJSON_GetObjectItemCaseSensitive(args, "cycle");
    if (!ok || !cJSON_IsNumber(ts) || !cJSON_IsNumber(dur) || !cJSON_IsNumber(cycle)) {
        problem(c, "an X event without a numeric pid, tid, ts, dur or args.cycle");
        return;
    }
    if (ts->valuedouble < 0 || dur->valuedouble < 0) problem(c, "a slice with a negative ts or dur");
    int64_t from = us_to_ns(ts->valuedouble), to = from + us_to_ns(dur->valuedouble);
    /* units: the microseconds of the cycle at the clock */
    uint64_t cyc = (uint64_t)cycle->valuedouble, k = (uint64_t)clock_khz;
    int64_t want = (int64_t)(cyc / k * 1000000u + cyc % k * 1000000u / k);
    if (from != want)
        problem(c, "slice at cycle %llu: ts %.3f us, but the cycle at %lld kHz is %lld ns", (unsigned long long)cyc,
                ts->valuedouble, (long long)clock_khz, (long long)want);
    span s = {pid, tid, from, to};
    push((void **)&c->spans, &c->nspans, &c->capspans, sizeof s, &s);
    named u = {pid, tid};
    if (!has(c->used, c->nused, pid, tid)) push((void **)&c->used, &c->nused, &c->capused, sizeof u, &u);
    c->r->slices++;
}

static int by_track_then_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return x->to > y->to ? -1 : x->to < y->to;     /* the enclosing one first */
}

/* Slices of one track nest or are disjoint: a stack of open slices. */
static void check_nesting(checker *c)
{
    if (c->nspans == 0) return;
    qsort(c->spans, c->nspans, sizeof *c->spans, by_track_then_start);
    span *stack = malloc((c->nspans + 1) * sizeof *stack);
    if (!stack) return;
    size_t depth = 0;
    for (size_t i = 0; i < c->nspans; i++) {
        const span *s = &c->spans[i];
        if (i > 0 && (s->pid != c->spans[i - 1].pid || s->tid != c->spans[i - 1].tid)) depth = 0;
        while (depth > 0 && stack[depth - 1].to <= s->from) depth--;
        if (depth > 0 && s->to > stack[depth - 1].to)
            problem(c, "pid %lld tid %lld: slice [%lld, %lld] ns overlaps [%lld, %lld] ns without nesting",
                    (long long)s->pid, (long long)s->tid, (long long)s->from, (long long)s->to,
                    (long long)stack[depth - 1].from, (long long)stack[depth - 1].to);
        stack[depth++] = *s;
    }
    free(stack);
}

static void check_names(checker *c)
{
    for (size_t i = 0; i < c->nused; i++) {
        if (!has(c->names, c->nnames, c->used[i].pid, -1))
            problem(c, "pid %lld has slices but no process_name", (long long)c->used[i].pid);
        if (!has(c->names, c->nnames, c->used[i].pid, c->used[i].tid))
            problem(c, "pid %lld tid %lld has slices but no thread_name", (long long)c->used[i].pid,
                    (long long)c->used[i].tid);
    }
    c->r->tracks = c->nused;
}

int chrome_check(const char *text, size_t len, chrome_report *r)
{
    memset(r, 0, sizeof *r);
    checker c = {.r = r};
    cJSON *root = cJSON_ParseWithLength(text, len);
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(root, "otherData");
    const cJSON *clock = cJSON_GetObjectItemCaseSensitive(other, "clock_khz");
    if (!root) problem(&c, "not JSON (near byte %ld)", (long)(cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() - text : 0));
    else if (!cJSON_IsArray(events)) problem(&c, "no traceEvents array");
    else if (!cJSON_IsNumber(clock) || clock->valuedouble < 1) problem(&c, "no otherData.clock_khz");
    else {
        const cJSON *e;
        cJSON_ArrayForEach(e, events) {
            const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
            if (!cJSON_IsString(ph)) problem(&c, "an event without ph");
            else if (!strcmp(ph->valuestring, "M")) check_metadata(&c, e);
            else if (!strcmp(ph->valuestring, "X")) check_slice(&c, e, (int64_t)clock->valuedouble);
            else if (strcmp(ph->valuestring, "i") != 0) problem(&c, "an event of phase '%s'", ph->valuestring);
        }
        check_names(&c);
        check_nesting(&c);
    }
    cJSON_Delete(root);
    free(c.spans);
    free(c.names);
    free(c.used);
    return r->problems == 0;
}
