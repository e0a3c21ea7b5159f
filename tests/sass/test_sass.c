/* The SASS listing reader and SASS-informed counters.
 *
 * - the reader on a hand-written listing (counts worked out by hand) and on
 *   input that is not a listing;
 * - statically, for every lab kernel of kernels/ptx/sm_90 with its
 *   committed listing kernels/sass/sm_90 (ptxas's output): on each source
 *   line where ptxas only regrouped the PTX's accesses (the same bytes per
 *   lane in all), the access widths warpsim's SASS mode counts are the
 *   listing's, width by width. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ptx/ptx_parse.h"
#include "frontend/sass/sass_listing.h"
#include "sim/core/program.h"
#include "sim/core/sass_groups.h"
#include "sim/core/warp.h"

static uint32_t count(const ws_sass_listing *l, const char *kernel, const char *file, int32_t line,
                      ws_sass_space space, bool store, uint32_t width)
{
    const ws_sass_kernel *k = ws_sass_find(l, kernel);
    assert_non_null(k);
    return ws_sass_count(l, k, file, line, space, store, width);
}

static void test_reader_hand_listing(void **state)
{
    (void)state;
    ws_sass_listing l;
    char err[512];
    assert_true(ws_sass_read(WARPSIM_TEST_DATA "/tiny.sass", &l, err, sizeof err));
    assert_int_equal(l.nkernels, 2);
    /* line 7: two LDS.128 (one guarded) and one LDS */
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 7, WS_SASS_SHARED, false, 16), 2);
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 7, WS_SASS_SHARED, false, 4), 1);
    assert_int_equal(count(&l, "_Z3fooPf", "foo.cu", 7, WS_SASS_SHARED, false, 16), 2);  /* by base name */
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 8, WS_SASS_SHARED, false, 16), 0);
    /* line 9: STG.E.64, LDG.E.U8, LDG.E.128.CONSTANT, STS.U16; LDSM is not a plain load */
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 9, WS_SASS_GLOBAL, true, 8), 1);
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 9, WS_SASS_GLOBAL, false, 1), 1);
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 9, WS_SASS_GLOBAL, false, 16), 1);
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 9, WS_SASS_SHARED, true, 2), 1);
    assert_int_equal(count(&l, "_Z3fooPf", "src/foo.cu", 9, WS_SASS_SHARED, false, 16), 0);
    const ws_sass_kernel *foo = ws_sass_find(&l, "_Z3fooPf");
    assert_int_equal(foo->insts, 10);
    assert_int_equal(foo->nlines, 2);
    assert_int_equal(foo->lines[0].line, 7);
    assert_int_equal(foo->lines[0].insts, 4);
    assert_int_equal(foo->lines[1].insts, 6);
    /* the second kernel starts afresh: its line 7 is another file's */
    assert_int_equal(count(&l, "_Z3barv", "foo.cu", 7, WS_SASS_SHARED, false, 8), 1);
    assert_int_equal(count(&l, "_Z3barv", "foo.cu", 7, WS_SASS_SHARED, false, 16), 0);
    assert_null(ws_sass_find(&l, "_Z3bazv"));
    ws_sass_free(&l);
}

static void expect_error(const char *path, const char *needle)
{
    ws_sass_listing l;
    char err[512];
    assert_false(ws_sass_read(path, &l, err, sizeof err));
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_reader_rejects(void **state)
{
    (void)state;
    expect_error(WARPSIM_TEST_DATA "/orphan.sass", "orphan.sass:1: an instruction before any kernel");
    expect_error(WARPSIM_TEST_DATA "/badfile.sass", "badfile.sass:2: expected '//## File");
    expect_error(WARPSIM_TEST_DATA "/no_such.sass", "cannot read the SASS listing");
    /* a PTX file is text but no listing */
    expect_error(WARPSIM_SOURCE_DIR "/kernels/ptx/sm_90/matmul.ptx", "no kernel in it");
}

/* Bytes per lane of a plain shared or global ld/st with a source line, else 0. */
static uint32_t ptx_width(const ws_insn *in)
{
    if ((in->cls != WS_I_LD && in->cls != WS_I_ST) || in->pos.cu_line <= 0) return 0;
    if ((in->space != WS_SP_SHARED && in->space != WS_SP_GLOBAL) || in->m.space == PTX_SPACE_CONST) return 0;
    return ptx_type_size(in->m.types[0]) * (in->m.vec > 1 ? in->m.vec : 1);
}

typedef struct line_check { int lines, wide_lines, wide_accesses; } line_check;

/* One source line (key of pc) of kernel fn: warpsim's widths against the listing's. */
static void check_line(const ws_program *p, const ws_func *fn, const ws_sass_listing *l,
                       const ws_sass_kernel *sk, int32_t pc, line_check *c, const char *what)
{
    const ws_insn *key = &p->code[pc];
    const char *file = ws_cu_file(p, key);
    ws_sass_space space = key->space == WS_SP_SHARED ? WS_SASS_SHARED : WS_SASS_GLOBAL;
    bool store = key->cls == WS_I_ST;
    uint32_t ours[17] = {0}, theirs[17] = {0}, ptx_bytes = 0, sass_bytes = 0;
    for (int32_t q = fn->start; q <= fn->end; q++) {
        const ws_insn *in = &p->code[q];
        uint32_t w = ptx_width(in);
        if (!w || in->pos.cu_line != key->pos.cu_line || in->pos.cu_file != key->pos.cu_file ||
            in->space != key->space || in->cls != key->cls)
            continue;
        ptx_bytes += w;
        uint8_t g = p->sass_group[q];
        if (g != WS_SASS_MERGED && w * (g ? g : 1) <= 16) ours[w * (g ? g : 1)]++;
    }
    for (uint32_t w = 1; w <= 16; w *= 2) {
        theirs[w] = ws_sass_count(l, sk, file, key->pos.cu_line, space, store, w);
        sass_bytes += theirs[w] * w;
    }
    if (ptx_bytes != sass_bytes) return;    /* ptxas unrolled or duplicated: not a regrouping */
    c->lines++;
    bool wide = theirs[8] || theirs[16];
    c->wide_lines += wide;
    c->wide_accesses += (int)(theirs[8] + theirs[16]);
    for (uint32_t w = 1; w <= 16; w *= 2)
        if (ours[w] != theirs[w])
            fail_msg("%s %s %s:%d %s %s: %u accesses of %u bytes counted, the listing has %u", what,
                     fn->f->name, file, key->pos.cu_line, space == WS_SASS_SHARED ? "shared" : "global",
                     store ? "st" : "ld", ours[w], w, theirs[w]);
}

static line_check check_lab(const char *ptx_path, const char *sass_path)
{
    line_check c = {0};
    ptx_error pe;
    ptx_module *m = ptx_parse_file(ptx_path, &pe);
    assert_non_null(m);
    ws_devmem *mem = ws_devmem_create();
    ws_error err;
    ws_program *p = ws_program_load(m, mem, &err);
    assert_non_null(p);
    ws_sass_listing l;
    char msg[512];
    if (!ws_sass_read(sass_path, &l, msg, sizeof msg)) fail_msg("%s", msg);
    ws_sass_applied a;
    if (!ws_program_apply_sass(p, &l, &a, &err)) fail_msg("%s", err.msg);
    assert_int_equal(a.kernels, p->nkernels);   /* the listing is of this PTX */
    assert_int_equal(a.unmatched, 0);           /* every wide SASS access found its PTX group */
    for (int32_t k = 0; k < p->nkernels; k++) {
        const ws_func *fn = &p->funcs[p->kernels[k].func];
        const ws_sass_kernel *sk = ws_sass_find(&l, fn->f->name);
        for (int32_t pc = fn->start; pc <= fn->end; pc++) {
            if (!ptx_width(&p->code[pc])) continue;
            bool again = false;
            for (int32_t q = fn->start; q < pc && !again; q++)
                again = ptx_width(&p->code[q]) && p->code[q].pos.cu_line == p->code[pc].pos.cu_line &&
                        p->code[q].pos.cu_file == p->code[pc].pos.cu_file &&
                        p->code[q].space == p->code[pc].space && p->code[q].cls == p->code[pc].cls;
            if (!again) check_line(p, fn, &l, sk, pc, &c, ptx_path);
        }
    }
    ws_sass_free(&l);
    ws_program_free(p);
    ws_devmem_destroy(mem);
    ptx_module_free(m);
    return c;
}

static void test_lab_widths_match_listings(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob(WARPSIM_SOURCE_DIR "/kernels/ptx/sm_90/*.ptx", 0, NULL, &g), 0);
    line_check all = {0};
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char sass[4096];
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        snprintf(sass, sizeof sass, "%s/kernels/sass/sm_90/%.*s.sass", WARPSIM_SOURCE_DIR,
                 (int)(strlen(base) - 4), base);
        line_check c = check_lab(g.gl_pathv[i], sass);
        print_message("%s: %d lines compared, %d with %d wide accesses\n", base, c.lines, c.wide_lines,
                      c.wide_accesses);
        all.lines += c.lines;
        all.wide_lines += c.wide_lines;
        all.wide_accesses += c.wide_accesses;
    }
    globfree(&g);
    assert_true(g.gl_pathc >= 13);
    assert_true(all.wide_lines > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_hand_listing),
        cmocka_unit_test(test_reader_rejects),
        cmocka_unit_test(test_lab_widths_match_listings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
