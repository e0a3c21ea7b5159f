/* Reading a sweep description and expanding it into runs. */
#include "sweep_spec.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More runs than this is a mistake in the spec, not a sweep. */
#define SWEEP_MAX_RUNS 100000
/* Variables are tracked in a 64-bit set per job. */
#define SWEEP_MAX_VARS 64

typedef struct spec_reader {
    const char *path;
    int line;
    char *err;
    size_t errsize;
} spec_reader;

static bool fail_col(spec_reader *r, int col, const char *fmt, va_list ap)
{
    int n = snprintf(r->err, r->errsize, "%s:%d:%d: error: ", r->path, r->line, col);
    if (n >= 0 && (size_t)n < r->errsize) vsnprintf(r->err + n, r->errsize - (size_t)n, fmt, ap);
    return false;
}

/* An error at character `at` of `line` (column 1 when at is NULL). */
static bool fail(spec_reader *r, const char *at, const char *line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_col(r, at && line ? (int)(at - line) + 1 : 1, fmt, ap);
    va_end(ap);
    return false;
}

/* An error at character `at` of a job's text. */
static bool fail_in_job(spec_reader *r, const sweep_job *job, const char *at, const char *fmt, ...)
{
    r->line = job->line;
    va_list ap;
    va_start(ap, fmt);
    fail_col(r, job->col + (int)(at - job->text), fmt, ap);
    va_end(ap);
    return false;
}

static char *dup_range(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (!d) return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

/* Values end up unquoted in shell command lines and in a TSV, so they are
 * limited to characters that mean nothing to either. */
static bool value_char(char c)
{
    return isalnum((unsigned char)c) || strchr("._+/:=,@%-", c);
}

static bool name_ok(const char *s, size_t len)
{
    if (len == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    for (size_t i = 1; i < len; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
    return true;
}

static bool add_value(sweep_var *v, const char *s, size_t len)
{
    char **grown = realloc(v->values, ((size_t)v->nvalues + 1) * sizeof *grown);
    if (!grown) return false;
    v->values = grown;
    if (!(v->values[v->nvalues] = dup_range(s, len))) return false;
    v->nvalues++;
    return true;
}

static bool parse_values(spec_reader *r, const char *line, const char *p, sweep_var *v)
{
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#') break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '#') {
            if (!value_char(*p))
                return fail(r, p, line, "'%c' in a value of '%s' (values may hold letters, digits and ._+/:=,@%%-)",
                            *p, v->name);
            p++;
        }
        if (!add_value(v, start, (size_t)(p - start))) return fail(r, start, line, "out of memory");
    }
    if (v->nvalues == 0) return fail(r, p, line, "'%s' has no values", v->name);
    return true;
}

static int find_var(const sweep_spec *spec, const char *name, size_t len)
{
    for (int i = 0; i < spec->nvars; i++)
        if (strlen(spec->vars[i].name) == len && !strncmp(spec->vars[i].name, name, len)) return i;
    return -1;
}

static bool add_job(spec_reader *r, sweep_spec *spec, const char *line, const char *text)
{
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t')) len--;
    size_t word = strcspn(text, " \t");
    if (!((word == 3 && !strncmp(text, "run", 3)) || (word == 4 && !strncmp(text, "exec", 4))))
        return fail(r, text, line, "a job is a 'run ...' or 'exec ...' command line of warpsim");
    static const char *const added[] = {"--gpu", "--json", "--summary-out"};
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        const char *at = strstr(text, added[i]);
        if (at && at < text + len)
            return fail(r, at, line, "a job must not give %s: the sweep adds it", added[i]);
    }
    /* run takes no GPU config with --functional (exec takes one for its
     * clock), and each of the sweep's runs names one */
    const char *functional = strstr(text, "--functional");
    if (word == 3 && functional && functional < text + len)
        return fail(r, functional, line, "a run job must not give --functional: the sweep runs it on each GPU config");
    sweep_job *grown = realloc(spec->jobs, ((size_t)spec->njobs + 1) * sizeof *grown);
    if (!grown) return fail(r, text, line, "out of memory");
    spec->jobs = grown;
    if (!(spec->jobs[spec->njobs].text = dup_range(text, len))) return fail(r, text, line, "out of memory");
    spec->jobs[spec->njobs].line = r->line;
    spec->jobs[spec->njobs++].col = (int)(text - line) + 1;
    return true;
}

static bool parse_line(spec_reader *r, sweep_spec *spec, const char *line, const char *spec_dir)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '#') return true;
    const char *key = p;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    size_t keylen = (size_t)(p - key);
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '=' || !name_ok(key, keylen))
        return fail(r, key, line, "expected 'name = values' or 'job = command'");
    p++;
    while (*p == ' ' || *p == '\t') p++;

    if (keylen == 3 && !strncmp(key, "job", 3)) return add_job(r, spec, line, p);
    if (keylen == 7 && !strncmp(key, "workdir", 7)) {
        size_t len = strcspn(p, " \t#");
        if (len == 0) return fail(r, p, line, "workdir needs a folder");
        const char *base = p[0] == '/' ? "" : spec_dir;
        free(spec->workdir);
        if (!(spec->workdir = malloc(strlen(base) + len + 1))) return fail(r, p, line, "out of memory");
        sprintf(spec->workdir, "%s%.*s", base, (int)len, p);
        return true;
    }
    sweep_var *v;
    if (keylen == 3 && !strncmp(key, "gpu", 3)) {
        if (spec->gpu.nvalues) return fail(r, key, line, "gpu is given twice");
        v = &spec->gpu;
    } else {
        if (find_var(spec, key, keylen) >= 0)
            return fail(r, key, line, "variable '%.*s' is given twice", (int)keylen, key);
        if (spec->nvars == SWEEP_MAX_VARS) return fail(r, key, line, "more than %d variables", SWEEP_MAX_VARS);
        sweep_var *grown = realloc(spec->vars, ((size_t)spec->nvars + 1) * sizeof *grown);
        if (!grown) return fail(r, key, line, "out of memory");
        spec->vars = grown;
        v = &spec->vars[spec->nvars++];
        *v = (sweep_var){.name = dup_range(key, keylen)};
        if (!v->name) return fail(r, key, line, "out of memory");
    }
    if (!v->name && !(v->name = dup_range(key, keylen))) return fail(r, key, line, "out of memory");
    return parse_values(r, line, p, v);
}

/* The folder of path, absolute, ending in '/'. */
static char *folder_of(const char *path)
{
    char *abs = realpath(path, NULL);
    if (!abs) return NULL;
    char *slash = strrchr(abs, '/');
    slash[1] = '\0';
    return abs;
}

/* Placeholders are checked once all variables are known, so a job may come
 * before the variables it names. */
static bool check_placeholders(spec_reader *r, const sweep_spec *spec)
{
    for (int j = 0; j < spec->njobs; j++) {
        const sweep_job *job = &spec->jobs[j];
        for (const char *p = strchr(job->text, '{'); p; p = strchr(p + 1, '{')) {
            const char *close = strchr(p, '}');
            if (!close) return fail_in_job(r, job, p, "'{' without '}'");
            if (find_var(spec, p + 1, (size_t)(close - p - 1)) < 0)
                return fail_in_job(r, job, p, "unknown variable '%.*s'", (int)(close - p - 1), p + 1);
        }
    }
    return true;
}

bool sweep_spec_load(const char *path, sweep_spec *spec, char *err, size_t errsize)
{
    *spec = (sweep_spec){0};
    spec_reader r = {.path = path, .err = err, .errsize = errsize};
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsize, "cannot read '%s'", path);
        return false;
    }
    char *dir = folder_of(path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool ok = dir != NULL;
    if (!ok) snprintf(err, errsize, "cannot resolve the folder of '%s'", path);
    while (ok && (n = getline(&line, &cap, f)) >= 0) {
        r.line++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (strlen(line) != (size_t)n) ok = fail(&r, NULL, NULL, "a NUL byte in the line");
        else ok = parse_line(&r, spec, line, dir);
    }
    free(line);
    fclose(f);
    if (ok && !spec->gpu.nvalues) ok = fail(&r, NULL, NULL, "no 'gpu = ...' line: name at least one GPU config");
    if (ok && !spec->njobs) ok = fail(&r, NULL, NULL, "no 'job = ...' line");
    if (ok) ok = check_placeholders(&r, spec);
    if (ok && !spec->workdir) {
        spec->workdir = dir;
        dir = NULL;
    }
    free(dir);
    if (!ok) sweep_spec_free(spec);
    return ok;
}

static void free_var(sweep_var *v)
{
    for (int i = 0; i < v->nvalues; i++) free(v->values[i]);
    free(v->values);
    free(v->name);
}

void sweep_spec_free(sweep_spec *spec)
{
    free_var(&spec->gpu);
    for (int i = 0; i < spec->nvars; i++) free_var(&spec->vars[i]);
    free(spec->vars);
    for (int j = 0; j < spec->njobs; j++) free(spec->jobs[j].text);
    free(spec->jobs);
    free(spec->workdir);
    *spec = (sweep_spec){0};
}

static uint64_t vars_named(const sweep_spec *spec, const char *text)
{
    uint64_t set = 0;
    for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
        const char *close = strchr(p, '}');
        set |= UINT64_C(1) << find_var(spec, p + 1, (size_t)(close - p - 1));
    }
    return set;
}

static char *substitute(const sweep_spec *spec, const char *text, const int *value_of)
{
    size_t len = 0;
    for (int pass = 0; pass < 2; pass++) {
        char *out = pass ? malloc(len + 1) : NULL;
        if (pass && !out) return NULL;
        size_t n = 0;
        for (const char *p = text; *p;) {
            if (*p == '{') {
                const char *close = strchr(p, '}');
                int v = find_var(spec, p + 1, (size_t)(close - p - 1));
                const char *value = spec->vars[v].values[value_of[v]];
                if (out) memcpy(out + n, value, strlen(value));
                n += strlen(value);
                p = close + 1;
            } else {
                if (out) out[n] = *p;
                n++;
                p++;
            }
        }
        if (out) {
            out[n] = '\0';
            return out;
        }
        len = n;
    }
    return NULL;
}

/* Runs of one job on one GPU: an odometer over the values of the variables
 * the job names. */
static bool expand_job(const sweep_spec *spec, int job, int gpu, sweep_run **runs, int *nruns)
{
    uint64_t named = vars_named(spec, spec->jobs[job].text);
    int *odometer = calloc((size_t)spec->nvars + 1, sizeof *odometer);
    if (!odometer) return false;
    for (;;) {
        sweep_run *grown = realloc(*runs, ((size_t)*nruns + 1) * sizeof *grown);
        int *value_of = calloc((size_t)spec->nvars + 1, sizeof *value_of);
        if (!grown || !value_of) {
            if (grown) *runs = grown;
            free(value_of);
            free(odometer);
            return false;
        }
        *runs = grown;
        for (int v = 0; v < spec->nvars; v++) value_of[v] = (named >> v & 1) ? odometer[v] : -1;
        sweep_run *run = &(*runs)[(*nruns)++];
        *run = (sweep_run){.job = job, .gpu = gpu, .value_of = value_of,
                           .command = substitute(spec, spec->jobs[job].text, value_of)};
        if (!run->command) {
            free(odometer);
            return false;
        }
        int v = spec->nvars - 1;
        for (; v >= 0; v--) {
            if (!(named >> v & 1)) continue;
            if (++odometer[v] < spec->vars[v].nvalues) break;
            odometer[v] = 0;
        }
        if (v < 0) break;
    }
    free(odometer);
    return true;
}

static double runs_of_job(const sweep_spec *spec, int job)
{
    uint64_t named = vars_named(spec, spec->jobs[job].text);
    double n = spec->gpu.nvalues;
    for (int v = 0; v < spec->nvars; v++)
        if (named >> v & 1) n *= spec->vars[v].nvalues;
    return n;
}

bool sweep_expand(const sweep_spec *spec, sweep_run **runs, int *nruns, char *err, size_t errsize)
{
    double total = 0;
    for (int j = 0; j < spec->njobs; j++) total += runs_of_job(spec, j);
    if (total > SWEEP_MAX_RUNS) {
        snprintf(err, errsize, "the sweep expands to %.0f runs, more than %d", total, SWEEP_MAX_RUNS);
        return false;
    }
    *runs = NULL;
    *nruns = 0;
    for (int j = 0; j < spec->njobs; j++)
        for (int g = 0; g < spec->gpu.nvalues; g++)
            if (!expand_job(spec, j, g, runs, nruns)) {
                sweep_runs_free(*runs, *nruns);
                *runs = NULL;
                *nruns = 0;
                snprintf(err, errsize, "out of memory");
                return false;
            }
    return true;
}

void sweep_runs_free(sweep_run *runs, int nruns)
{
    for (int i = 0; i < nruns; i++) {
        free(runs[i].value_of);
        free(runs[i].command);
    }
    free(runs);
}
