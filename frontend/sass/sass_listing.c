/* Reader of nvdisasm's listing text.  The lines it uses:
 *
 *   //--------------------- .text.NAME -------------   a kernel starts
 *   //## File "PATH", line N                           source of what follows
 *   [0040]   @!P0 LDS.128 R8, [R18+0x10] ;             an instruction
 *
 * (an instruction's address is in a C comment, written [0040] above).
 *
 * Everything else (directives, labels, other comments) is skipped. */
#include "sass_listing.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    ws_sass_listing *l;
    ws_sass_kernel *k;      /* the kernel being read, NULL before the first */
    int32_t file, line;     /* current source position, line 0 when none */
    int32_t lineno;         /* of the listing */
    char *err; size_t errsize;
} reader;

static bool fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errsize, "%s:%d: ", r->l->path, (int)r->lineno);
    if (n < 0 || (size_t)n >= r->errsize) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errsize - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* Grows *arr (of *n elements of size sz) by one zeroed element. */
static void *push(void *arr_ptr, int32_t *n, size_t sz)
{
    void **arr = arr_ptr;
    void *grown = realloc(*arr, (size_t)(*n + 1) * sz);
    if (!grown) return NULL;
    *arr = grown;
    void *e = (char *)grown + (size_t)*n * sz;
    memset(e, 0, sz);
    (*n)++;
    return e;
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = 0; }
    return d;
}

static bool start_kernel(reader *r, const char *name, size_t len)
{
    ws_sass_kernel *k = push(&r->l->kernels, &r->l->nkernels, sizeof *k);
    if (!k || !(k->name = dup_range(name, len))) return fail(r, "out of memory");
    r->k = k;
    r->line = 0;
    return true;
}

static int32_t intern_file(reader *r, const char *path, size_t len)
{
    ws_sass_listing *l = r->l;
    for (int32_t i = 0; i < l->nfiles; i++)
        if (strlen(l->files[i]) == len && !memcmp(l->files[i], path, len)) return i;
    char **slot = push(&l->files, &l->nfiles, sizeof *slot);
    if (!slot || !(*slot = dup_range(path, len))) return -1;
    return l->nfiles - 1;
}

/* //## File "PATH", line N */
static bool source_position(reader *r, const char *s)
{
    const char *q = strchr(s, '"'), *e = q ? strchr(q + 1, '"') : NULL;
    const char *ln = e ? strstr(e, ", line ") : NULL;
    char *end;
    long n = ln ? strtol(ln + 7, &end, 10) : 0;
    if (!ln || n <= 0 || n > INT32_MAX || end == ln + 7)
        return fail(r, "expected '//## File \"PATH\", line N' (nvdisasm -g), got '%.60s'", s);
    if ((r->file = intern_file(r, q + 1, (size_t)(e - q - 1))) < 0) return fail(r, "out of memory");
    r->line = (int32_t)n;
    return true;
}

/* The memory instructions the reader classifies; others count only as
 * instructions.  Width from the opcode's size suffix, 4 bytes without. */
static bool classify(const char *op, uint8_t *space, bool *store, uint8_t *width)
{
    size_t base = strcspn(op, ".");
    if (base == 3 && !strncmp(op, "LDS", 3)) { *space = WS_SASS_SHARED; *store = false; }
    else if (base == 3 && !strncmp(op, "STS", 3)) { *space = WS_SASS_SHARED; *store = true; }
    else if (base == 3 && !strncmp(op, "LDG", 3)) { *space = WS_SASS_GLOBAL; *store = false; }
    else if (base == 3 && !strncmp(op, "STG", 3)) { *space = WS_SASS_GLOBAL; *store = true; }
    else return false;
    *width = 4;
    for (const char *m = op + base; *m == '.'; m += 1 + strcspn(m + 1, ".")) {
        size_t n = strcspn(m + 1, ".");
        if (n == 2 && !strncmp(m + 1, "64", 2)) *width = 8;
        else if (n == 3 && !strncmp(m + 1, "128", 3)) *width = 16;
        else if (n == 2 && (!strncmp(m + 1, "U8", 2) || !strncmp(m + 1, "S8", 2))) *width = 1;
        else if (n == 3 && (!strncmp(m + 1, "U16", 3) || !strncmp(m + 1, "S16", 3))) *width = 2;
    }
    return true;
}

static bool count_mem(reader *r, uint8_t space, bool store, uint8_t width)
{
    ws_sass_kernel *k = r->k;
    for (int32_t i = 0; i < k->nmem; i++) {
        ws_sass_mem *m = &k->mem[i];
        if (m->file == r->file && m->line == r->line && m->space == space && m->store == store &&
            m->width == width) {
            m->count++;
            return true;
        }
    }
    ws_sass_mem *m = push(&k->mem, &k->nmem, sizeof *m);
    if (!m) return fail(r, "out of memory");
    *m = (ws_sass_mem){ .file = r->file, .line = r->line, .space = space, .store = store,
                        .width = width, .count = 1 };
    return true;
}

static bool count_line(reader *r)
{
    ws_sass_kernel *k = r->k;
    k->insts++;
    if (k->nlines && k->lines[k->nlines - 1].file == r->file && k->lines[k->nlines - 1].line == r->line) {
        k->lines[k->nlines - 1].insts++;
        return true;
    }
    for (int32_t i = 0; i < k->nlines; i++)
        if (k->lines[i].file == r->file && k->lines[i].line == r->line) { k->lines[i].insts++; return true; }
    ws_sass_line *ln = push(&k->lines, &k->nlines, sizeof *ln);
    if (!ln) return fail(r, "out of memory");
    *ln = (ws_sass_line){ .file = r->file, .line = r->line, .insts = 1 };
    return true;
}

/* An instruction line, from just after its address comment:
 * "  @!P0 LDS.128 R8, [R18+0x10] ;" */
static bool instruction(reader *r, const char *s)
{
    if (!r->k) return fail(r, "an instruction before any kernel's '//---- .text.NAME' header");
    while (isspace((unsigned char)*s)) s++;
    if (*s == '@') s += strcspn(s, " \t");              /* the guard predicate */
    while (isspace((unsigned char)*s)) s++;
    char op[64];
    size_t n = strcspn(s, " \t;");
    if (n == 0 || n >= sizeof op) return fail(r, "expected an opcode after the address");
    memcpy(op, s, n);
    op[n] = 0;
    if (!count_line(r)) return false;
    uint8_t space, width;
    bool store;
    if (r->line > 0 && classify(op, &space, &store, &width)) return count_mem(r, space, store, width);
    return true;
}

static bool read_line(reader *r, const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    if (!strncmp(s, "//## File ", 10)) return r->k ? source_position(r, s) : true;
    if (!strncmp(s, "//-", 3)) {
        const char *t = strstr(s, " .text.");
        if (!t) return true;
        t += 7;
        return start_kernel(r, t, strcspn(t, " \t"));
    }
    if (s[0] == '/' && s[1] == '*') {
        const char *e = strstr(s + 2, "*/");
        bool addr = e && e > s + 2;
        for (const char *c = s + 2; addr && c < e; c++) addr = isxdigit((unsigned char)*c);
        if (addr) return instruction(r, e + 2);
    }
    return true;
}

bool ws_sass_read(const char *path, ws_sass_listing *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    out->path = dup_range(path, strlen(path));
    reader r = { .l = out, .err = err, .errsize = errsize };
    FILE *f = out->path ? fopen(path, "r") : NULL;
    if (!f) {
        snprintf(err, errsize, "%s: cannot read the SASS listing: %s", path, strerror(errno));
        ws_sass_free(out);
        return false;
    }
    char buf[4096];
    bool ok = true;
    while (ok && fgets(buf, sizeof buf, f)) {
        r.lineno++;
        size_t n = strlen(buf);
        if (n == sizeof buf - 1 && buf[n - 1] != '\n') ok = fail(&r, "line longer than %zu bytes", sizeof buf - 2);
        else if (memchr(buf, 0, n)) ok = fail(&r, "a NUL byte: not a text listing");
        else ok = read_line(&r, buf);
    }
    if (ok && ferror(f)) ok = fail(&r, "read error");
    fclose(f);
    if (ok && out->nkernels == 0) {
        snprintf(err, errsize, "%s: no kernel in it: not a listing of 'nvdisasm -c -g FILE.cubin'", path);
        ok = false;
    }
    if (!ok) ws_sass_free(out);
    return ok;
}

void ws_sass_free(ws_sass_listing *l)
{
    for (int32_t i = 0; i < l->nkernels; i++) {
        free(l->kernels[i].name);
        free(l->kernels[i].mem);
        free(l->kernels[i].lines);
    }
    for (int32_t i = 0; i < l->nfiles; i++) free(l->files[i]);
    free(l->kernels);
    free(l->files);
    free(l->path);
    memset(l, 0, sizeof *l);
}

const ws_sass_kernel *ws_sass_find(const ws_sass_listing *l, const char *name)
{
    for (int32_t i = 0; i < l->nkernels; i++)
        if (!strcmp(l->kernels[i].name, name)) return &l->kernels[i];
    return NULL;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

uint32_t ws_sass_count(const ws_sass_listing *l, const ws_sass_kernel *k, const char *file,
                       int32_t line, ws_sass_space space, bool store, uint32_t width)
{
    uint32_t n = 0;
    for (int32_t i = 0; i < k->nmem; i++) {
        const ws_sass_mem *m = &k->mem[i];
        if (m->line == line && m->space == space && m->store == store && m->width == width &&
            !strcmp(base_name(l->files[m->file]), base_name(file)))
            n += m->count;
    }
    return n;
}
