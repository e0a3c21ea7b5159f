/* `warpsim run` argument parsing: dimensions, values, arg specs, buffer
 * contents and the command line, checked against values worked out by hand
 * or taken from the IEEE-754 and splitmix64 references. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "run_args.h"

static char err[512];

static void test_dims(void **state)
{
    (void)state;
    ws_dim3 d;
    assert_true(runarg_parse_dim3("7", &d, err, sizeof err));
    assert_true(d.x == 7 && d.y == 1 && d.z == 1);
    assert_true(runarg_parse_dim3("3,4", &d, err, sizeof err));
    assert_true(d.x == 3 && d.y == 4 && d.z == 1);
    assert_true(runarg_parse_dim3("3,4,5", &d, err, sizeof err));
    assert_true(d.x == 3 && d.y == 4 && d.z == 5);
    assert_true(runarg_parse_dim3("4294967295", &d, err, sizeof err));
    assert_true(d.x == UINT32_MAX);

    const char *bad[] = {"", "0", "1,0", "0,1,1", "1,1,0", "1,", ",1", "1,,1", "1,2,3,4", "-1",
                         "+3", "1 ,2", "2x", "0x10", "4294967296", "99999999999999999999", "1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_false(runarg_parse_dim3(bad[i], &d, err, sizeof err));
        assert_true(strlen(err) > 0);
    }
    assert_false(runarg_parse_dim3("1,0", &d, err, sizeof err));
    assert_non_null(strstr(err, "zero"));
}

static void test_dim_limits(void **state)
{
    (void)state;
    assert_true(runarg_check_block((ws_dim3){1024, 1, 1}, err, sizeof err));
    assert_true(runarg_check_block((ws_dim3){32, 32, 1}, err, sizeof err));
    assert_true(runarg_check_block((ws_dim3){1, 16, 64}, err, sizeof err));
    assert_false(runarg_check_block((ws_dim3){1025, 1, 1}, err, sizeof err));
    assert_false(runarg_check_block((ws_dim3){32, 32, 2}, err, sizeof err));
    assert_non_null(strstr(err, "2048"));
    assert_false(runarg_check_block((ws_dim3){1, 1, 65}, err, sizeof err));
    assert_false(runarg_check_block((ws_dim3){1, 1025, 1}, err, sizeof err));
    /* a huge block is rejected, not wrapped */
    assert_false(runarg_check_block((ws_dim3){65536, 65536, 1}, err, sizeof err));

    assert_true(runarg_check_grid((ws_dim3){2147483647u, 65535, 65535}, err, sizeof err));
    assert_false(runarg_check_grid((ws_dim3){2147483648u, 1, 1}, err, sizeof err));
    assert_false(runarg_check_grid((ws_dim3){1, 65536, 1}, err, sizeof err));
    assert_false(runarg_check_grid((ws_dim3){1, 1, 65536}, err, sizeof err));
}

static void check_value(runarg_type t, const char *s, uint64_t want)
{
    uint64_t bits = 0x5555;
    if (!runarg_parse_value(t, s, &bits, err, sizeof err))
        fail_msg("'%s' as %s rejected: %s", s, runarg_type_name(t), err);
    if (bits != want)
        fail_msg("'%s' as %s: got 0x%llx, want 0x%llx", s, runarg_type_name(t),
                 (unsigned long long)bits, (unsigned long long)want);
}

static void check_bad_value(runarg_type t, const char *s)
{
    uint64_t bits;
    err[0] = '\0';
    if (runarg_parse_value(t, s, &bits, err, sizeof err))
        fail_msg("'%s' as %s accepted", s, runarg_type_name(t));
    assert_true(strlen(err) > 0);
}

static void test_values(void **state)
{
    (void)state;
    check_value(RUNARG_I32, "-5", 0xfffffffbu);
    check_value(RUNARG_I32, "010", 10);            /* decimal, not octal */
    check_value(RUNARG_I32, "+7", 7);
    check_value(RUNARG_I32, "2147483647", 0x7fffffffu);
    check_value(RUNARG_I32, "-2147483648", 0x80000000u);
    check_value(RUNARG_I32, "0x80000000", 0x80000000u);   /* bit pattern */
    check_value(RUNARG_I32, "0xFFFFFFFF", 0xffffffffu);
    check_value(RUNARG_I32, "-0x10", 0xfffffff0u);
    check_bad_value(RUNARG_I32, "2147483648");
    check_bad_value(RUNARG_I32, "-2147483649");
    check_bad_value(RUNARG_I32, "0x100000000");
    check_bad_value(RUNARG_I32, "1.5");
    check_bad_value(RUNARG_I32, "");
    check_bad_value(RUNARG_I32, "-");
    check_bad_value(RUNARG_I32, "0x");
    check_bad_value(RUNARG_I32, "12abc");
    check_bad_value(RUNARG_I32, " 1");

    check_value(RUNARG_U32, "4294967295", 0xffffffffu);
    check_value(RUNARG_U32, "0", 0);
    check_bad_value(RUNARG_U32, "4294967296");
    check_bad_value(RUNARG_U32, "-1");

    check_value(RUNARG_I64, "-9223372036854775808", UINT64_C(0x8000000000000000));
    check_value(RUNARG_I64, "-1", UINT64_MAX);
    check_bad_value(RUNARG_I64, "9223372036854775808");
    check_value(RUNARG_U64, "18446744073709551615", UINT64_MAX);
    check_value(RUNARG_U64, "0xffffffffffffffff", UINT64_MAX);
    check_bad_value(RUNARG_U64, "18446744073709551616");
    check_bad_value(RUNARG_U64, "0x10000000000000000");

    check_value(RUNARG_I8, "-128", 0x80);
    check_value(RUNARG_I8, "127", 0x7f);
    check_bad_value(RUNARG_I8, "128");
    check_value(RUNARG_U8, "255", 0xff);
    check_bad_value(RUNARG_U8, "256");

    /* IEEE-754 encodings */
    check_value(RUNARG_F32, "1", 0x3f800000u);
    check_value(RUNARG_F32, "0.1", 0x3dcccccdu);
    check_value(RUNARG_F32, "-2.5", 0xc0200000u);
    check_value(RUNARG_F32, "0x1p-1", 0x3f000000u);
    check_value(RUNARG_F32, "inf", 0x7f800000u);
    check_value(RUNARG_F32, "-inf", 0xff800000u);
    check_value(RUNARG_F32, "0f7fc00001", 0x7fc00001u);
    check_value(RUNARG_F32, "1e-45", 0x00000001u);  /* smallest subnormal */
    check_bad_value(RUNARG_F32, "1e39");
    check_bad_value(RUNARG_F32, "0f3f80000");      /* 7 digits */
    check_bad_value(RUNARG_F32, "0d3ff0000000000000");
    check_bad_value(RUNARG_F32, "1.0x");
    check_bad_value(RUNARG_F32, "abc");
    check_value(RUNARG_F64, "0.1", UINT64_C(0x3fb999999999999a));
    check_value(RUNARG_F64, "1e39", UINT64_C(0x48078287f49c4a1d));
    check_value(RUNARG_F64, "0d3ff0000000000000", UINT64_C(0x3ff0000000000000));
    check_bad_value(RUNARG_F64, "1e400");
    check_bad_value(RUNARG_F64, "0f3f800000");

    uint64_t bits;
    assert_true(runarg_parse_value(RUNARG_F32, "nan", &bits, err, sizeof err));
    assert_true((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0);
}

static void test_specs(void **state)
{
    (void)state;
    runarg a;
    assert_true(runarg_parse_spec("i32:-3", &a, err, sizeof err));
    assert_false(a.is_buffer);
    assert_int_equal(a.type, RUNARG_I32);
    assert_true(a.bits == 0xfffffffdu);
    assert_int_equal(runarg_param_bytes(&a), 4);
    assert_true(runarg_parse_spec("f64:2", &a, err, sizeof err));
    assert_int_equal(runarg_param_bytes(&a), 8);
    assert_true(a.bits == UINT64_C(0x4000000000000000));

    assert_true(runarg_parse_spec("buf:f32:1024:iota", &a, err, sizeof err));
    assert_true(a.is_buffer);
    assert_int_equal(a.type, RUNARG_F32);
    assert_int_equal(a.count, 1024);
    assert_int_equal(a.init, RUNARG_INIT_IOTA);
    assert_int_equal(runarg_param_bytes(&a), 8);
    assert_int_equal(runarg_buffer_bytes(&a), 4096);

    assert_true(runarg_parse_spec("buf:i8:3:fill=-128", &a, err, sizeof err));
    assert_int_equal(a.init, RUNARG_INIT_FILL);
    assert_true(a.bits == 0x80);
    assert_true(runarg_parse_spec("buf:f64:10:rand=7", &a, err, sizeof err));
    assert_int_equal(a.init, RUNARG_INIT_RAND);
    assert_int_equal(a.seed, 7);
    assert_true(runarg_parse_spec("buf:u32:4:file=/tmp/a:b.bin", &a, err, sizeof err));
    assert_int_equal(a.init, RUNARG_INIT_FILE);
    assert_string_equal(a.path, "/tmp/a:b.bin");
    assert_true(runarg_parse_spec("buf:u8:0:zero", &a, err, sizeof err));
    assert_int_equal(a.count, 0);

    const char *bad[] = {
        "5", "i32", "i32:", "x32:5", "i8:5", "u8:1", "I32:5", "buf", "buf:f32", "buf:f32:10",
        "buf:f16:10:zero", "buf:f32::zero", "buf:f32:-1:zero", "buf:f32:ten:zero",
        "buf:f32:10:bogus", "buf:f32:10:file=", "buf:f32:10:fill=", "buf:u8:3:fill=256",
        "buf:i32:3:fill=1.5", "buf:f32:10:rand=-1", "buf:f32:10:rand=", "buf:u64:4611686018427387904:zero",
        "u32:-1", "f32:1e39"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        if (runarg_parse_spec(bad[i], &a, err, sizeof err))
            fail_msg("spec '%s' accepted", bad[i]);
        assert_true(strlen(err) > 0);
    }
    assert_false(runarg_parse_spec("buf:f32:10:bogus", &a, err, sizeof err));
    assert_non_null(strstr(err, "INIT"));
}

/* splitmix64 as published (Steele, Lea, Flood 2014; Vigna's reference). */
static uint64_t ref_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void test_generate(void **state)
{
    (void)state;
    runarg a;
    uint8_t buf[4096];

    assert_true(runarg_parse_spec("buf:u8:300:iota", &a, err, sizeof err));
    runarg_generate(&a, 250, 10, buf);
    for (int i = 0; i < 10; i++)
        assert_int_equal(buf[i], (250 + i) & 0xff);  /* wraps in the type */

    assert_true(runarg_parse_spec("buf:f32:100:iota", &a, err, sizeof err));
    runarg_generate(&a, 0, 4, buf);
    const uint8_t f32_0123[16] = {0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40};
    assert_memory_equal(buf, f32_0123, 16);

    assert_true(runarg_parse_spec("buf:i32:5:fill=-2", &a, err, sizeof err));
    runarg_generate(&a, 0, 2, buf);
    const uint8_t m2[8] = {0xfe, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff};
    assert_memory_equal(buf, m2, 8);

    /* the first splitmix64 output for seed 0 is 0xe220a8397b1dcdaf */
    uint64_t x = 0;
    assert_true(ref_splitmix64(&x) == UINT64_C(0xe220a8397b1dcdaf));
    assert_true(runarg_parse_spec("buf:u64:1000:rand=0", &a, err, sizeof err));
    runarg_generate(&a, 0, 1, buf);
    assert_true(runarg_load(RUNARG_U64, buf) == UINT64_C(0xe220a8397b1dcdaf) % 101);

    /* element i is the i-th output of the generator, whatever the chunking */
    assert_true(runarg_parse_spec("buf:i32:1000:rand=12345", &a, err, sizeof err));
    uint8_t whole[4000], part[4000];
    runarg_generate(&a, 0, 1000, whole);
    runarg_generate(&a, 0, 333, part);
    runarg_generate(&a, 333, 667, part + 333 * 4);
    assert_memory_equal(whole, part, 4000);
    x = 12345;
    bool seen_neg = false, seen_pos = false, seen_min = false, seen_max = false;
    for (int i = 0; i < 1000; i++) {
        int32_t v = (int32_t)runarg_load(RUNARG_I32, whole + 4 * i);
        assert_int_equal(v, (int32_t)(ref_splitmix64(&x) % 201) - 100);
        seen_neg |= v < 0;
        seen_pos |= v > 0;
        seen_min |= v == -100;
        seen_max |= v == 100;
    }
    assert_true(seen_neg && seen_pos && seen_min && seen_max);

    /* floats in [-1, 1), both halves used */
    assert_true(runarg_parse_spec("buf:f32:1000:rand=9", &a, err, sizeof err));
    runarg_generate(&a, 0, 1000, whole);
    double sum = 0;
    for (int i = 0; i < 1000; i++) {
        float f;
        memcpy(&f, whole + 4 * i, 4);
        assert_true(f >= -1.0f && f < 1.0f);
        sum += f;
    }
    assert_true(sum > -100 && sum < 100);
    assert_true(runarg_parse_spec("buf:f64:1000:rand=9", &a, err, sizeof err));
    runarg_generate(&a, 0, 500, whole);
    for (int i = 0; i < 500; i++) {
        double d;
        memcpy(&d, whole + 8 * i, 8);
        assert_true(d >= -1.0 && d < 1.0);
    }
    /* a different seed gives different values */
    runarg b;
    assert_true(runarg_parse_spec("buf:f64:1000:rand=10", &b, err, sizeof err));
    runarg_generate(&b, 0, 500, part);
    assert_memory_not_equal(whole, part, 500 * 8);
}

static void check_format(runarg_type t, uint64_t bits, const char *want)
{
    uint8_t e[8];
    char text[64];
    runarg_store(t, bits, e);
    runarg_format(t, e, text, sizeof text);
    assert_string_equal(text, want);
}

static void test_format(void **state)
{
    (void)state;
    check_format(RUNARG_I8, 0x80, "-128");
    check_format(RUNARG_U8, 0x80, "128");
    check_format(RUNARG_I32, 0xfffffffbu, "-5");
    check_format(RUNARG_U32, 0xfffffffbu, "4294967291");
    check_format(RUNARG_I64, UINT64_C(0x8000000000000000), "-9223372036854775808");
    check_format(RUNARG_U64, UINT64_MAX, "18446744073709551615");
    check_format(RUNARG_F32, 0x3dcccccdu, "0.1");
    check_format(RUNARG_F32, 0x3eaaaaabu, "0.33333334");
    check_format(RUNARG_F32, 0x40400000u, "3");
    check_format(RUNARG_F32, 0xc0200000u, "-2.5");
    check_format(RUNARG_F32, 0x7f800000u, "inf");
    check_format(RUNARG_F32, 0x7fc00000u, "nan");
    check_format(RUNARG_F64, UINT64_C(0x3fb999999999999a), "0.1");
    check_format(RUNARG_F64, UINT64_C(0x3fd5555555555555), "0.3333333333333333");
    check_format(RUNARG_F64, UINT64_C(0x4059000000000000), "100");
    check_format(RUNARG_F32, 0x4b800000u, "16777216");          /* 2^24 */
    check_format(RUNARG_F32, 0x501502f9u, "1e+10");
    check_format(RUNARG_F32, 0x3a83126fu, "0.001");
    check_format(RUNARG_F64, UINT64_C(0x3eb0c6f7a0b5ed8d), "1e-06");
    check_format(RUNARG_F64, UINT64_C(0x8000000000000000), "-0");
}

static void test_init_buffer(void **state)
{
    (void)state;
    ws_devmem *m = ws_devmem_create();
    runarg a;

    /* several generation chunks */
    assert_true(runarg_parse_spec("buf:i32:100000:iota", &a, err, sizeof err));
    uint64_t addr = ws_devmem_alloc(m, runarg_buffer_bytes(&a));
    assert_true(runarg_init_buffer(&a, m, addr, err, sizeof err));
    for (uint32_t i = 0; i < 100000; i += 997) {
        int32_t v = -1;
        assert_true(ws_devmem_read(m, addr + 4 * i, &v, 4));
        assert_int_equal(v, (int32_t)i);
    }
    int32_t last = 0;
    assert_true(ws_devmem_read(m, addr + 4 * 99999, &last, 4));
    assert_int_equal(last, 99999);

    /* zero touches nothing */
    uint64_t before = ws_devmem_resident_bytes(m);
    assert_true(runarg_parse_spec("buf:f64:100000000:zero", &a, err, sizeof err));
    addr = ws_devmem_alloc(m, runarg_buffer_bytes(&a));
    assert_true(runarg_init_buffer(&a, m, addr, err, sizeof err));
    assert_int_equal(ws_devmem_resident_bytes(m), before);

    /* file= */
    char path[] = "/tmp/warpsim_test_run_args_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const uint8_t bytes[12] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x10, 0x20, 0x30, 0x40};
    assert_int_equal(write(fd, bytes, sizeof bytes), (ssize_t)sizeof bytes);
    close(fd);
    char spec[128];
    snprintf(spec, sizeof spec, "buf:i32:3:file=%s", path);
    assert_true(runarg_parse_spec(spec, &a, err, sizeof err));
    addr = ws_devmem_alloc(m, runarg_buffer_bytes(&a));
    assert_true(runarg_init_buffer(&a, m, addr, err, sizeof err));
    uint8_t back[12];
    assert_true(ws_devmem_read(m, addr, back, 12));
    assert_memory_equal(back, bytes, 12);

    snprintf(spec, sizeof spec, "buf:i32:4:file=%s", path);  /* 16 bytes wanted, 12 there */
    assert_true(runarg_parse_spec(spec, &a, err, sizeof err));
    addr = ws_devmem_alloc(m, runarg_buffer_bytes(&a));
    assert_false(runarg_init_buffer(&a, m, addr, err, sizeof err));
    assert_non_null(strstr(err, "12 bytes"));
    assert_non_null(strstr(err, "16"));
    snprintf(spec, sizeof spec, "buf:u8:12:file=%s", path);   /* same bytes, other type */
    assert_true(runarg_parse_spec(spec, &a, err, sizeof err));
    addr = ws_devmem_alloc(m, 12);
    assert_true(runarg_init_buffer(&a, m, addr, err, sizeof err));
    unlink(path);
    assert_false(runarg_init_buffer(&a, m, addr, err, sizeof err));
    assert_non_null(strstr(err, "cannot read"));
    ws_devmem_destroy(m);
}

static runarg_status parse(runarg_options *o, ...)
{
    char *argv[64];
    int argc = 0;
    va_list ap;
    va_start(ap, o);
    argv[argc++] = "run";
    for (char *s; (s = va_arg(ap, char *)) != NULL;)
        argv[argc++] = s;
    va_end(ap);
    err[0] = '\0';
    return runarg_parse_cmdline(argc, argv, o, err, sizeof err);
}

static void check_cmdline_error(const char *needle, runarg_status st)
{
    assert_int_equal(st, RUNARG_ERROR);
    if (!strstr(err, needle))
        fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void test_cmdline(void **state)
{
    (void)state;
    runarg_options o;
    assert_int_equal(parse(&o, "k.ptx", "--kernel", "vecAdd", "--grid", "4,2", "--block=256",
                           "--arg", "buf:f32:10:iota", "--arg=i32:10", "--arg", "buf:u8:3:zero",
                           "--smem", "4096", "--dump", "2=/tmp/x.bin", "--print", "0",
                           "--print=2:5", NULL), RUNARG_OK);
    assert_string_equal(o.ptx_path, "k.ptx");
    assert_string_equal(o.kernel, "vecAdd");
    assert_true(o.grid.x == 4 && o.grid.y == 2 && o.grid.z == 1);
    assert_true(o.block.x == 256 && o.block.y == 1);
    assert_int_equal(o.smem, 4096);
    assert_int_equal(o.nargs, 3);
    assert_true(o.args[1].bits == 10);
    assert_int_equal(o.ndumps, 1);
    assert_int_equal(o.dumps[0].arg, 2);
    assert_string_equal(o.dumps[0].path, "/tmp/x.bin");
    assert_int_equal(o.nprints, 2);
    assert_int_equal(o.prints[0].count, RUNARG_PRINT_DEFAULT);
    assert_int_equal(o.prints[1].arg, 2);
    assert_int_equal(o.prints[1].count, 5);
    assert_false(o.json);
    runarg_options_free(&o);

    /* --json is a flag: it takes no value */
    assert_int_equal(parse(&o, "--json", "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", NULL),
                     RUNARG_OK);
    assert_true(o.json);
    assert_string_equal(o.ptx_path, "k.ptx");
    runarg_options_free(&o);
    check_cmdline_error("--json takes no value",
                         parse(&o, "k.ptx", "--json=1", "--kernel", "k", "--grid", "1", "--block", "1", NULL));

    /* options may come before the file; negative values are values */
    assert_int_equal(parse(&o, "--kernel", "k", "--grid", "1", "--block", "1", "--arg", "i32:-1",
                           "k.ptx", NULL), RUNARG_OK);
    assert_string_equal(o.ptx_path, "k.ptx");
    runarg_options_free(&o);

    assert_int_equal(parse(&o, "--help", NULL), RUNARG_HELP);
    assert_int_equal(parse(&o, "k.ptx", "-h", NULL), RUNARG_HELP);

    check_cmdline_error("unknown option '--bogus'",
                         parse(&o, "k.ptx", "--bogus", "--kernel", "k", "--grid", "1", "--block", "1", NULL));
    check_cmdline_error("unknown option '-x'", parse(&o, "k.ptx", "-x", NULL));
    check_cmdline_error("--grid needs a value",
                         parse(&o, "k.ptx", "--kernel", "k", "--block", "1", "--grid", NULL));
    check_cmdline_error("--kernel needs a value", parse(&o, "k.ptx", "--kernel=", NULL));
    check_cmdline_error("no PTX file", parse(&o, "--kernel", "k", "--grid", "1", "--block", "1", NULL));
    check_cmdline_error("more than one PTX file", parse(&o, "a.ptx", "b.ptx", NULL));
    check_cmdline_error("missing --kernel", parse(&o, "k.ptx", "--grid", "1", "--block", "1", NULL));
    check_cmdline_error("missing --grid", parse(&o, "k.ptx", "--kernel", "k", "--block", "1", NULL));
    check_cmdline_error("missing --block", parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", NULL));
    check_cmdline_error("given twice",
                         parse(&o, "k.ptx", "--kernel", "k", "--kernel", "j", "--grid", "1", "--block", "1", NULL));
    check_cmdline_error("zero",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1,0", "--block", "1", NULL));
    check_cmdline_error("--block",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1025", NULL));
    check_cmdline_error("1024",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "32,33", NULL));
    check_cmdline_error("--grid",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1,65536", "--block", "1", NULL));
    check_cmdline_error("bad --smem",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--smem", "-4", NULL));
    check_cmdline_error("x32:1",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--arg", "x32:1", NULL));
    check_cmdline_error("not a buffer",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--arg", "u32:5",
                               "--dump", "0=x.bin", NULL));
    check_cmdline_error("only 1 --arg",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--arg",
                               "buf:u32:5:zero", "--print", "1", NULL));
    check_cmdline_error("bad --dump",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--arg",
                               "buf:u32:5:zero", "--dump", "0", NULL));
    check_cmdline_error("bad --print",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--arg",
                               "buf:u32:5:zero", "--print", "0:x", NULL));
    check_cmdline_error("bad --print",
                         parse(&o, "k.ptx", "--kernel", "k", "--grid", "1", "--block", "1", "--arg",
                               "buf:u32:5:zero", "--print", "-1", NULL));
}

/* Which --arg kinds fill which PTX parameter types (sizes already equal). */
static void test_fits_ptx_type(void **state)
{
    (void)state;
    runarg a;
    char fits[128];
    assert_true(runarg_parse_spec("i32:5", &a, err, sizeof err));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_S32, fits, sizeof fits));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_U32, fits, sizeof fits));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_B32, fits, sizeof fits));
    assert_false(runarg_fits_ptx_type(&a, PTX_T_F32, fits, sizeof fits));
    assert_string_equal(fits, "f32:V");
    assert_true(runarg_parse_spec("f32:64", &a, err, sizeof err));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_F32, fits, sizeof fits));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_B32, fits, sizeof fits));
    assert_false(runarg_fits_ptx_type(&a, PTX_T_U32, fits, sizeof fits));
    assert_string_equal(fits, "i32:V or u32:V");
    assert_false(runarg_fits_ptx_type(&a, PTX_T_S32, fits, sizeof fits));
    assert_true(runarg_parse_spec("f64:1", &a, err, sizeof err));
    assert_false(runarg_fits_ptx_type(&a, PTX_T_U64, fits, sizeof fits));
    assert_string_equal(fits, "i64:V, u64:V or buf:TYPE:COUNT:INIT");
    assert_true(runarg_parse_spec("buf:f64:4:zero", &a, err, sizeof err));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_U64, fits, sizeof fits));
    assert_true(runarg_fits_ptx_type(&a, PTX_T_B64, fits, sizeof fits));
    assert_false(runarg_fits_ptx_type(&a, PTX_T_F64, fits, sizeof fits));
    assert_string_equal(fits, "f64:V");
    /* a truncated hint stays a string */
    char small[6];
    assert_true(runarg_parse_spec("i64:1", &a, err, sizeof err));
    assert_false(runarg_fits_ptx_type(&a, PTX_T_F64, small, sizeof small));
    assert_true(strlen(small) < sizeof small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits_ptx_type),
        cmocka_unit_test(test_dims),
        cmocka_unit_test(test_dim_limits),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_generate),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_init_buffer),
        cmocka_unit_test(test_cmdline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
