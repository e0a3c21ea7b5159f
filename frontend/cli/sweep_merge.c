/* warpsim sweep --merge: one CSV row per kernel launch of every run, its
 * GPU and variable values from the manifest first, then every field of the
 * launch's JSON summary (the union over all launches, in the order first
 * seen). */
#include "sweep_merge.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_row {
    int run;          /* line of the manifest, 0-based */
    int launch;       /* 0-based within the run; -1: the run had no launch */
    cJSON *summary;   /* NULL when launch is -1 */
} merge_row;

typedef struct merge {
    const char *dir;
    char **manifest;  /* lines, header first, tabs kept */
    int nlines;
    int *status;      /* per run; -1 when it never ran */
    merge_row *rows;
    int nrows;
    char **keys;      /* the union of the summaries' fields */
    int nkeys;
} merge;

/* array with room for count + 1 elements of size bytes; NULL when out of
 * memory (array is then unchanged).  The caller stores it in its own typed
 * pointer. */
static void *grow(void *array, int count, size_t size)
{
    return realloc(array, ((size_t)count + 1) * size);
}

static bool read_manifest(merge *m)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.tsv", m->dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "warpsim sweep: error: cannot read '%s': %s (not a sweep folder?)\n", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool ok = true;
    while (ok && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') line[n - 1] = '\0';
        char **grown = grow(m->manifest, m->nlines, sizeof *grown);
        ok = grown && (grown[m->nlines] = strdup(line)) != NULL;
        if (grown) m->manifest = grown;
        if (ok) m->nlines++;
    }
    free(line);
    fclose(f);
    if (ok && (m->nlines < 1 || strncmp(m->manifest[0], "run\tjob\tgpu", 11))) {
        fprintf(stderr, "warpsim sweep: error: '%s' is not a manifest written by warpsim sweep\n", path);
        return false;
    }
    return ok;
}

static int read_status(const merge *m, int run)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/run-%d.status", m->dir, run);
    FILE *f = fopen(path, "r");
    int status = -1;
    if (f) {
        if (fscanf(f, "%d", &status) != 1) status = -1;
        fclose(f);
    }
    return status;
}

/* Whether name is a column the manifest or the merge already gives (the
 * summary's "gpu" repeats the manifest's). */
static bool column_taken(const merge *m, const char *name)
{
    if (!strcmp(name, "status") || !strcmp(name, "launch")) return true;
    size_t len = strlen(name);
    for (const char *p = m->manifest[0];; p += strcspn(p, "\t") + 1) {
        if (strcspn(p, "\t") == len && !strncmp(p, name, len)) return true;
        if (!p[strcspn(p, "\t")]) return false;
    }
}

static bool add_keys(merge *m, const cJSON *summary)
{
    for (const cJSON *field = summary->child; field; field = field->next) {
        if (column_taken(m, field->string)) continue;
        int k = 0;
        while (k < m->nkeys && strcmp(m->keys[k], field->string)) k++;
        if (k < m->nkeys) continue;
        char **grown = grow(m->keys, m->nkeys, sizeof *grown);
        if (!grown) return false;
        m->keys = grown;
        if (!(m->keys[k] = strdup(field->string))) return false;
        m->nkeys++;
    }
    return true;
}

/* The launches of one run: the lines of run-N.json that are JSON objects
 * naming a kernel (a failed `run` leaves its error message there too). */
static bool read_launches(merge *m, int run)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/run-%d.json", m->dir, run);
    FILE *f = fopen(path, "r");
    int launches = 0;
    if (f) {
        char *line = NULL;
        size_t cap = 0;
        while (getline(&line, &cap, f) > 0) {
            cJSON *summary = line[0] == '{' ? cJSON_Parse(line) : NULL;
            if (!summary || !cJSON_IsObject(summary) || !cJSON_GetObjectItemCaseSensitive(summary, "kernel")) {
                cJSON_Delete(summary);
                continue;
            }
            merge_row *grown = grow(m->rows, m->nrows, sizeof *grown);
            if (grown) m->rows = grown;
            if (!grown || !add_keys(m, summary)) {
                cJSON_Delete(summary);
                free(line);
                fclose(f);
                return false;
            }
            m->rows[m->nrows++] = (merge_row){.run = run, .launch = launches++, .summary = summary};
        }
        free(line);
        fclose(f);
    }
    if (launches == 0) {
        merge_row *grown = grow(m->rows, m->nrows, sizeof *grown);
        if (!grown) return false;
        m->rows = grown;
        m->rows[m->nrows++] = (merge_row){.run = run, .launch = -1};
    }
    return true;
}

static void put_csv_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void put_csv_number(FILE *out, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0) fprintf(out, "%.0f", v);
    else fprintf(out, "%.9g", v);
}

/* Arrays (grid, block) as 4x1x1; anything else nested as its JSON. */
static void put_csv_value(FILE *out, const cJSON *v)
{
    if (!v || cJSON_IsNull(v)) return;
    if (cJSON_IsNumber(v)) put_csv_number(out, v->valuedouble);
    else if (cJSON_IsString(v)) put_csv_text(out, v->valuestring);
    else if (cJSON_IsBool(v)) fputs(cJSON_IsTrue(v) ? "true" : "false", out);
    else if (cJSON_IsArray(v) && v->child && cJSON_IsNumber(v->child)) {
        for (const cJSON *e = v->child; e; e = e->next) {
            if (e != v->child) fputc('x', out);
            put_csv_number(out, e->valuedouble);
        }
    } else {
        char *text = cJSON_PrintUnformatted(v);
        if (text) put_csv_text(out, text);
        free(text);
    }
}

/* A manifest line's tab-separated fields as CSV fields. */
static void put_manifest_fields(FILE *out, const char *line)
{
    for (const char *p = line;;) {
        size_t len = strcspn(p, "\t");
        char *field = strndup(p, len);
        if (field) put_csv_text(out, field);
        free(field);
        if (!p[len]) break;
        fputc(',', out);
        p += len + 1;
    }
}

static void put_csv(const merge *m, FILE *out)
{
    put_manifest_fields(out, m->manifest[0]);
    fputs(",status,launch", out);
    for (int k = 0; k < m->nkeys; k++) {
        fputc(',', out);
        put_csv_text(out, m->keys[k]);
    }
    fputc('\n', out);
    for (int r = 0; r < m->nrows; r++) {
        const merge_row *row = &m->rows[r];
        put_manifest_fields(out, m->manifest[row->run + 1]);
        int status = m->status[row->run];
        if (status < 0) fputs(",not run,", out);
        else fprintf(out, ",%d,", status);
        if (row->launch >= 0) fprintf(out, "%d", row->launch);
        for (int k = 0; k < m->nkeys; k++) {
            fputc(',', out);
            if (row->summary) put_csv_value(out, cJSON_GetObjectItemCaseSensitive(row->summary, m->keys[k]));
        }
        fputc('\n', out);
    }
}

static int report_failures(const merge *m)
{
    int failed = 0;
    for (int run = 0; run < m->nlines - 1; run++) {
        int status = m->status[run];
        if (status == 0) continue;
        failed++;
        if (status < 0) fprintf(stderr, "warpsim sweep: run %d never ran (no %s/run-%d.status)\n", run, m->dir, run);
        else
            fprintf(stderr, "warpsim sweep: run %d exited with status %d; see %s/run-%d.err and .json\n", run,
                    status, m->dir, run);
    }
    if (failed) fprintf(stderr, "warpsim sweep: %d of %d runs failed or never ran\n", failed, m->nlines - 1);
    return failed ? 1 : 0;
}

static void merge_free(merge *m)
{
    for (int i = 0; i < m->nlines; i++) free(m->manifest[i]);
    free(m->manifest);
    free(m->status);
    for (int r = 0; r < m->nrows; r++) cJSON_Delete(m->rows[r].summary);
    free(m->rows);
    for (int k = 0; k < m->nkeys; k++) free(m->keys[k]);
    free(m->keys);
}

int sweep_merge(const char *dir, const char *csv_path)
{
    merge m = {.dir = dir};
    int result = 2;
    if (!read_manifest(&m)) goto done;
    if (!(m.status = calloc((size_t)m.nlines, sizeof *m.status))) goto oom;
    for (int run = 0; run < m.nlines - 1; run++) {
        m.status[run] = read_status(&m, run);
        if (!read_launches(&m, run)) goto oom;
    }
    FILE *out = csv_path ? fopen(csv_path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "warpsim sweep: error: cannot write '%s': %s\n", csv_path, strerror(errno));
        goto done;
    }
    put_csv(&m, out);
    bool written = !ferror(out);
    if (csv_path && fclose(out) != 0) written = false;
    if (!written) {
        fprintf(stderr, "warpsim sweep: error: cannot write the CSV\n");
        goto done;
    }
    result = report_failures(&m);
    goto done;
oom:
    fprintf(stderr, "warpsim sweep: error: out of memory\n");
done:
    merge_free(&m);
    return result;
}
