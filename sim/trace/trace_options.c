/* The trace's options, checked once for `warpsim run`, `warpsim exec` and
 * the runtime that exec hands them to. */
#include "trace.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A decimal count, the whole string. */
static bool parse_count(const char *s, uint64_t *v)
{
    if (!*s) return false;
    uint64_t r = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || r > (UINT64_MAX - 9) / 10) return false;
        r = r * 10 + (uint64_t)(*s - '0');
    }
    *v = r;
    return true;
}

/* "A:B", either side may be empty (0 and no bound). */
static bool parse_range(const char *s, uint64_t *lo, uint64_t *hi, bool *has_hi)
{
    const char *colon = strchr(s, ':');
    char first[32];
    if (!colon || (size_t)(colon - s) >= sizeof first) return false;
    memcpy(first, s, (size_t)(colon - s));
    first[colon - s] = '\0';
    *lo = 0;
    *has_hi = colon[1] != '\0';
    if (first[0] && !parse_count(first, lo)) return false;
    if (*has_hi && !parse_count(colon + 1, hi)) return false;
    return !*has_hi || *hi >= *lo;
}

static bool bad(char *err, size_t errsize, const char *name, const char *value, const char *want)
{
    snprintf(err, errsize, "bad --trace-%s '%s': want %s", name, value, want);
    return false;
}

bool ws_trace_parse_option(ws_trace_filter *f, const char *name, const char *value, char *err, size_t errsize)
{
    uint64_t v, lo, hi;
    bool has_hi;
    if (!strcmp(name, "block")) {
        if (!parse_count(value, &v) || v > INT64_MAX) return bad(err, errsize, name, value, "a linear block index");
        f->block = (int64_t)v;
    } else if (!strcmp(name, "warp")) {
        if (!parse_count(value, &v) || v >= 32)
            return bad(err, errsize, name, value, "a warp index in the block, 0 to 31");
        f->warp = (int64_t)v;
    } else if (!strcmp(name, "pc")) {
        if (!parse_range(value, &lo, &hi, &has_hi) || lo > INT32_MAX || (has_hi && hi > INT32_MAX))
            return bad(err, errsize, name, value, "FIRST:LAST (either may be left out)");
        f->pc_lo = (int32_t)lo;
        f->pc_hi = has_hi ? (int32_t)hi : -1;
    } else if (!strcmp(name, "cycles")) {
        if (!parse_range(value, &lo, &hi, &has_hi))
            return bad(err, errsize, name, value, "FIRST:LAST (either may be left out)");
        f->cycle_lo = lo;
        f->cycle_hi = has_hi ? hi : 0;
    } else if (!strcmp(name, "kernel")) {
        if (!*value) return bad(err, errsize, name, value, "a kernel's name or its index (0 = the first launched)");
        f->kernel = value;
    } else if (!strcmp(name, "launch")) {
        if (!parse_count(value, &v) || v > INT64_MAX)
            return bad(err, errsize, name, value, "a launch's number (0 = the first)");
        f->launch = (int64_t)v;
    } else if (!strcmp(name, "limit")) {
        if (!parse_count(value, &v)) return bad(err, errsize, name, value, "a number of events (0 = no limit)");
        f->limit = v;
    } else {
        snprintf(err, errsize, "unknown option --trace-%s", name);
        return false;
    }
    return true;
}
