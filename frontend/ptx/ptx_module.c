/* The parser API (ptx_parse.h): runs the lexer and grammar over a text
 * and owns the module's lifetime. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_demangle.h"
#include "ptx_pstate.h"
#include "ptx_parser.tab.h"
#define YYSTYPE PTXSTYPE
#define YYLTYPE PTXLTYPE
#include "ptx_lexer.yy.h"

int ptxparse(yyscan_t scanner, ptx_pstate *ps);

static void set_error(ptx_error *err, const char *path, const char *msg)
{
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", path);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
}

ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_error *err)
{
    if (!path)
        path = "<input>";
    memset(err, 0, sizeof *err);
    if (len > INT_MAX) {
        set_error(err, path, "file too large");
        return NULL;
    }
    ptx_arena *arena = ptx_arena_new();
    ptx_module *m = arena ? ptx_arena_alloc(arena, sizeof *m) : NULL;
    if (!m) {
        ptx_arena_free(arena);
        set_error(err, path, "out of memory");
        return NULL;
    }
    m->arena = arena;
    m->path = ptx_arena_strdup(arena, path);

    ptx_pstate ps;
    memset(&ps, 0, sizeof ps);
    ps.m = m;
    ps.arena = arena;
    ps.err = err;
    ps.path = path;
    ps.line = ps.col = 1;
    ps.guard = -1;
    ps.dt = PTX_DT_MODULE;

    yyscan_t sc;
    int rc = 1;
    if (!m->path || ptxlex_init_extra(&ps, &sc)) {
        ptx_ps_error(&ps, 0, 0, "out of memory");
    } else {
        YY_BUFFER_STATE buf = ptx_scan_bytes(text, (int)len, sc);
        rc = ptxparse(sc, &ps);
        ptx_delete_buffer(buf, sc);
        ptxlex_destroy(sc);
    }
    ptx_pstate_free_temps(&ps);
    if (rc || ps.failed) {
        if (!ps.failed)
            set_error(err, path, "parse failed");
        ptx_arena_free(arena);
        return NULL;
    }
    return m;
}

ptx_module *ptx_parse_file(const char *path, ptx_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        char msg[300];
        snprintf(msg, sizeof msg, "cannot open: %s", strerror(errno));
        set_error(err, path, msg);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, fp);
        if (len < cap)
            break;
        char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool bad = !buf || ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        set_error(err, path, buf ? "read error" : "out of memory");
        return NULL;
    }
    ptx_module *m = ptx_parse(buf, len, path, err);
    free(buf);
    return m;
}

void ptx_module_free(ptx_module *m)
{
    if (m)
        ptx_arena_free(m->arena);       /* m itself lives in the arena */
}

void ptx_error_format(const ptx_error *err, char *buf, size_t size)
{
    if (err->line > 0)
        snprintf(buf, size, "%s:%d:%d: error: %s", err->file, err->line, err->col, err->msg);
    else
        snprintf(buf, size, "%s: error: %s", err->file, err->msg);
}

void ptx_error_print(const ptx_error *err, FILE *out)
{
    char buf[1024];
    ptx_error_format(err, buf, sizeof buf);
    fprintf(out, "%s\n", buf);
    for (int i = 0; i < err->nmore && i < PTX_MAX_ERRORS - 1; i++)
        fprintf(out, "%s:%d:%d: error: %s\n", err->file, err->more[i].line, err->more[i].col, err->more[i].msg);
}

/* Compares ignoring blanks, so "f(float *, int)" matches "f(float*, int)". */
static bool same_but_blanks(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ') a++;
        while (*b == ' ') b++;
        if (*a != *b)
            return false;
        if (!*a)
            return true;
        a++, b++;
    }
}

static bool is_kernel(const ptx_function *f)
{
    return f->is_entry && !f->is_decl;
}

static bool demangled_matches(const ptx_demangled *d, const char *name)
{
    return same_but_blanks(d->sig, name) || same_but_blanks(d->name, name) ||
           same_but_blanks(d->base, name) || same_but_blanks(d->short_base, name);
}

int ptx_match_kernels(const ptx_module *m, const char *name, const ptx_function **found, int max)
{
    for (int32_t i = 0; i < m->nfuncs; i++) {
        if (is_kernel(&m->funcs[i]) && !strcmp(m->funcs[i].name, name)) {
            if (max > 0)
                found[0] = &m->funcs[i];
            return 1;                   /* the mangled name is unique */
        }
    }
    ptx_demangled *d = malloc(sizeof *d);
    if (!d)
        return 0;
    int n = 0;
    for (int32_t i = 0; i < m->nfuncs; i++) {
        const ptx_function *f = &m->funcs[i];
        if (is_kernel(f) && ptx_demangle_parts(f->name, d) && demangled_matches(d, name)) {
            if (n < max)
                found[n] = f;
            n++;
        }
    }
    free(d);
    return n;
}

const ptx_function *ptx_find_kernel(const ptx_module *m, const char *name)
{
    const ptx_function *f = NULL;
    return ptx_match_kernels(m, name, &f, 1) == 1 ? f : NULL;
}
