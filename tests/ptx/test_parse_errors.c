/* Parser errors: each names file:line:col and what is wrong. */
#include <stdint.h>
#include <stdlib.h>
#include "ptx_test_util.h"

/* Wraps body lines in a kernel: the first body line is line 8. */
#define KERNEL(body) PTX_HEADER ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n" body "}\n"

static void expect(const char *text, const char *want)
{
    char msg[1024];
    tp_fail(text, msg, sizeof msg);
    assert_string_equal(msg, want);
}

static void expect_prefix(const char *text, const char *want)
{
    char msg[1024];
    tp_fail(text, msg, sizeof msg);
    if (strncmp(msg, want, strlen(want)))
        fail_msg("got  '%s'\nwant '%s...'", msg, want);
}

static void test_unknown_instruction(void **state)
{
    (void)state;
    expect(KERNEL("  mov.u32 %r1, 0;\n  foo.bar %r1;\n"),
           "t.ptx:9:3: error: unsupported instruction 'foo.bar'");
    expect(KERNEL("  frobnicate %r1, 1;\n"),
           "t.ptx:8:3: error: unsupported instruction 'frobnicate'");
}

static void test_unknown_modifier(void **state)
{
    (void)state;
    expect(KERNEL("  ld.global.zz.u32 %r1, [%rd1];\n"),
           "t.ptx:8:3: error: unsupported modifier '.zz' in instruction 'ld.global.zz.u32'");
    expect(KERNEL("  add.s32.u32.f32 %r1, %r1, %r1;\n"),
           "t.ptx:8:3: error: unsupported modifier '.f32' in instruction 'add.s32.u32.f32'");
}

static void test_unknown_directive_and_sreg(void **state)
{
    (void)state;
    expect(PTX_HEADER ".texref tex;\n", "t.ptx:4:1: error: unsupported directive '.texref'");
    expect(PTX_HEADER ".section .nv.mystuff { }\n", "t.ptx:4:1: error: unsupported directive '.section'");
    expect(KERNEL("  mov.u32 %r1, %tid.w;\n"), "t.ptx:8:16: error: unsupported special register '%tid.w'");
    expect(KERNEL("  mov.u32 %r1, %envreg3;\n"), "t.ptx:8:16: error: unsupported special register '%envreg3'");
}

static void test_syntax_errors(void **state)
{
    (void)state;
    expect_prefix(KERNEL("  mov.u32 %r1 %r2;\n"), "t.ptx:8:15: error: syntax error: unexpected '%r2'");
    expect_prefix(KERNEL("  ld.global.u32 %r1, [%rd1+];\n"), "t.ptx:8:28: error: syntax error: unexpected ']'");
    expect_prefix(PTX_HEADER ".visible .entry k()\n{\n  ret;\n", "t.ptx:7:1: error: syntax error: unexpected end of file");
    expect(KERNEL("  mov.u32 %r1, 09;\n"), "t.ptx:8:16: error: invalid integer literal '09'");
    expect(KERNEL("  mov.u32 %r1, 0f3F80;\n"), "t.ptx:8:16: error: malformed floating-point literal '0f3F80'");
    expect(KERNEL("  mov.u32 %r1, #;\n"), "t.ptx:8:16: error: unexpected character '#'");
    expect(KERNEL("  mov.u32 %r1, \"abc;\n"), "t.ptx:8:16: error: unterminated string '\"'");
}

static void test_undefined_names(void **state)
{
    (void)state;
    expect(KERNEL("  bra.uni $L__BB0_9;\n$L__BB0_1:\n  ret;\n"),
           "t.ptx:8:11: error: undefined label '$L__BB0_9'");
    expect(KERNEL("  mov.u32 %r1, %r9;\n"), "t.ptx:8:16: error: undeclared register '%r9'");
    expect(KERNEL("  @%p1 ret;\n"), "t.ptx:8:4: error: undeclared register '%p1'");
    expect(KERNEL("  ld.global.u32 %r1, [nosuch+4];\n"), "t.ptx:8:22: error: undefined symbol 'nosuch'");
    expect(KERNEL("  { .reg .b32 %t; }\n  mov.u32 %r1, %t;\n"), "t.ptx:9:16: error: undeclared register '%t'");
    expect(KERNEL("  @%r1 ret;\n"), "t.ptx:8:4: error: guard '%r1' is not a .pred register");
}

static void test_semantic_errors(void **state)
{
    (void)state;
    expect(KERNEL("$L1:\n  ret;\n$L1:\n  ret;\n"), "t.ptx:10:1: error: duplicate label '$L1'");
    expect(KERNEL("  .reg .b32 %r1;\n"), "t.ptx:8:13: error: redeclaration of '%r1'");
    expect(KERNEL("  add.s32 %r1, %r1, %r1, %r1, %r1, %r1, %r1;\n"),
           "t.ptx:8:41: error: too many operands for 'add.s32'");
    expect(PTX_HEADER ".global .u32 x[2] = {1, 2, 3};\n", "t.ptx:4:14: error: too many initializers for 'x'");
    expect(PTX_HEADER ".global .align 3 .u32 x;\n", "t.ptx:4:16: error: .align 3 is not a power of two");
    expect(PTX_HEADER ".global .u32 a;\n.global .u32 a;\n", "t.ptx:5:14: error: redeclaration of 'a'");
    expect(PTX_HEADER ".global .u64 p = generic(nothere);\n",
           "t.ptx:4:14: error: undefined symbol 'nothere' in the initializer of 'p'");
}

/* Every prefix of a real module either parses or fails with a message
 * that has a position; none crashes or hangs (run under ASan too). */
static void test_truncated_input(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/printf_lineinfo_sm90.ptx", WARPSIM_TEST_DATA);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    int failed = 0;
    for (size_t len = 0; len < n; len += 3) {
        ptx_error err;
        ptx_module *m = ptx_parse(buf, len, "cut.ptx", &err);
        if (m) {
            ptx_module_free(m);
            continue;
        }
        failed++;
        assert_true(err.line > 0);
        assert_true(err.msg[0] != '\0');
    }
    assert_true(failed > 0);
    ptx_error err;
    ptx_module *m = ptx_parse(buf, n, "whole.ptx", &err);
    assert_non_null(m);
    ptx_module_free(m);
}

/* ptxas rejects a module that does not begin with .version and .target
 * ("Missing .version directive at start of file") and a .version newer
 * than it knows (ptxas of CUDA 13.0: "Unsupported .version 9.1; current
 * version is '9.0'"). */
static void test_module_header(void **state)
{
    (void)state;
    expect("", "t.ptx:1:1: error: empty PTX module: missing .version directive at the start of the module");
    expect("// only a comment\n\n",
           "t.ptx:1:1: error: empty PTX module: missing .version directive at the start of the module");
    expect("// generated\n.target sm_80\n.address_size 64\n",
           "t.ptx:2:1: error: not a PTX module: missing .version directive at the start of the module");
    expect(".target sm_80\n.version 9.0\n", "t.ptx:2:1: error: .version must be the first directive of the module");
    expect(".version 99.9\n.target sm_80\n",
           "t.ptx:1:1: error: PTX ISA version 99.9 is newer than warpsim supports (up to 9.0)");
    expect("\n  .version 9.1\n.target sm_80\n",
           "t.ptx:2:3: error: PTX ISA version 9.1 is newer than warpsim supports (up to 9.0)");
    expect(".version 10.0\n.target sm_80\n",
           "t.ptx:1:1: error: PTX ISA version 10.0 is newer than warpsim supports (up to 9.0)");
    expect(".version 9.0\n.address_size 64\n", "t.ptx:1:1: error: missing .target directive after .version");
    /* the oldest and the newest accepted */
    ptx_error err;
    const char *old = ".version 1.0\n.target sm_10\n", *newest = ".version 9.0\n.target sm_90\n";
    ptx_module *m = ptx_parse(old, strlen(old), "t.ptx", &err);
    assert_non_null(m);
    ptx_module_free(m);
    m = ptx_parse(newest, strlen(newest), "t.ptx", &err);
    assert_non_null(m);
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    ptx_module_free(m);
}

/* After an error in an instruction the parse goes on: each later
 * instruction's error is reported too, in order, with its own position;
 * a lexer error still ends the input, and the list stops at 20. */
static void test_several_errors(void **state)
{
    (void)state;
    const char *text = KERNEL("  add.s32 %r1, %r9, 1;\n"       /* 8 */
                              "  mov.u32 %r1, 1;\n"
                              "  bogus.u32 %r1;\n"             /* 10 */
                              "  add.s32 %r1, %r1 %r2;\n"      /* 11 */
                              "  bra.uni NOWHERE;\n"           /* 12 */
                              "  ret;\n");
    ptx_error err;
    assert_null(ptx_parse(text, strlen(text), "t.ptx", &err));
    assert_int_equal(err.line, 8);
    assert_int_equal(err.col, 16);
    assert_string_equal(err.msg, "undeclared register '%r9'");
    assert_int_equal(err.nmore, 3);
    assert_int_equal(err.more[0].line, 10);
    assert_string_equal(err.more[0].msg, "unsupported instruction 'bogus.u32'");
    assert_int_equal(err.more[1].line, 11);
    assert_int_equal(err.more[1].col, 20);
    assert_int_equal(err.more[2].line, 12);
    assert_string_equal(err.more[2].msg, "undefined label 'NOWHERE'");

    const char *lexbad = KERNEL("  add.s32 %r1, %r9, 1;\n  mov.u32 %r1, 1 # 2;\n  add.s32 %r1, %r8, 1;\n");
    assert_null(ptx_parse(lexbad, strlen(lexbad), "t.ptx", &err));
    assert_int_equal(err.nmore, 1);
    assert_int_equal(err.more[0].line, 9);
    assert_string_equal(err.more[0].msg, "unexpected character '#'");

    char many[8192] = PTX_HEADER ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n";
    for (int i = 0; i < 40; i++)
        strcat(many, "  add.s32 %r1, %r1, %q;\n");
    strcat(many, "}\n");
    assert_null(ptx_parse(many, strlen(many), "t.ptx", &err));
    assert_int_equal(err.nmore, PTX_MAX_ERRORS - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_instruction),
        cmocka_unit_test(test_unknown_modifier),
        cmocka_unit_test(test_unknown_directive_and_sreg),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_undefined_names),
        cmocka_unit_test(test_semantic_errors),
        cmocka_unit_test(test_truncated_input),
        cmocka_unit_test(test_module_header),
        cmocka_unit_test(test_several_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
