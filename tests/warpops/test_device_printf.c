/* Device printf (vprintf) against the text an H200 printed for the same
 * calls (probe lines in brackets, data/gpu_probe_sm90.txt) and against C's
 * printf rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

/* Device memory: bytes [BASE, BASE + used). */
#define BASE 0x7000u
typedef struct mem { char bytes[4096]; uint32_t used; } mem;

static bool rd(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    mem *m = ctx;
    if (addr < BASE || addr - BASE + size > m->used) return false;
    memcpy(dst, m->bytes + (addr - BASE), size);
    return true;
}

static uint64_t put_str(mem *m, const char *s)
{
    uint64_t at = BASE + m->used;
    size_t n = strlen(s) + 1;
    memcpy(m->bytes + m->used, s, n);
    m->used += (uint32_t)n;
    return at;
}

/* The argument buffer as nvcc packs it: each value at its natural alignment. */
typedef struct args { uint8_t b[256]; size_t n; } args;
static void arg_raw(args *a, const void *v, size_t size)
{
    a->n = (a->n + size - 1) / size * size;
    memcpy(a->b + a->n, v, size);
    a->n += size;
}
static void ai(args *a, int32_t v) { arg_raw(a, &v, 4); }
static void al(args *a, int64_t v) { arg_raw(a, &v, 8); }
static void ad(args *a, double v) { arg_raw(a, &v, 8); }

/* Runs printf; returns the text (static) and checks the returned count. */
static const char *run(mem *m, const char *fmt, const args *a)
{
    static char out[1024];
    uint64_t fa = put_str(m, fmt);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    char why[128];
    int n = ws_device_printf(f, fa, a ? a->b : NULL, a ? a->n : 0, rd, m, why, sizeof why);
    fclose(f);
    if (n < 0) fail_msg("printf failed: %s", why);
    assert_int_equal((size_t)n, len);
    snprintf(out, sizeof out, "%s", text);
    free(text);
    return out;
}

static void test_integers(void **state)
{
    (void)state;
    static mem m;
    args a = { .n = 0 };
    ai(&a, -42); ai(&a, 42); ai(&a, 42); ai(&a, 42); ai(&a, 42); ai(&a, 42);
    ai(&a, 255); ai(&a, 255); ai(&a, 255); ai(&a, 8); ai(&a, 8); ai(&a, (int32_t)4000000000u);
    assert_string_equal(run(&m, "[%d|%5d|%-5d|%05d|%+d|% d|%x|%X|%#x|%o|%#o|%u]\n", &a),
                        "[-42|   42|42   |00042|+42| 42|ff|FF|0xff|10|010|4000000000]\n");
}

static void test_length_modifiers(void **state)
{
    (void)state;
    static mem m;
    args a = { .n = 0 };
    al(&a, -1234567890123LL); al(&a, 1234567890123LL); al(&a, -1); al(&a, 0xdeadbeefcafeLL);
    ai(&a, 70000); ai(&a, 300);
    assert_string_equal(run(&m, "[%ld|%lld|%lu|%llx|%hd|%hhd]", &a),
                        "[-1234567890123|1234567890123|18446744073709551615|deadbeefcafe|4464|44]");
    /* an int after a 4-byte one lands at offset 4; the 8-byte one after it
     * at 8: "%d %ld %d" with args at 0, 8, 16 */
    args b = { .n = 0 };
    ai(&b, 1); al(&b, 2); ai(&b, 3);
    assert_int_equal(b.n, 20);
    assert_string_equal(run(&m, "%d %ld %d", &b), "1 2 3");
    args c = { .n = 0 };
    al(&c, 77);
    assert_string_equal(run(&m, "%zu", &c), "77");
}

static void test_floats(void **state)
{
    (void)state;
    static mem m;
    args a = { .n = 0 };
    ad(&a, (double)3.14159f); ad(&a, 2.71828); ad(&a, -1.5); ad(&a, 0.25); ad(&a, 12345.678);
    ad(&a, 0.000123); ad(&a, 0.0001); ad(&a, 1e20); ad(&a, 1.0); ad(&a, 0.5);
    assert_string_equal(run(&m, "[%f|%.2f|%10.3f|%-10.1f|%e|%E|%g|%G|%a|%A]", &a),
                        "[3.141590|2.72|    -1.500|0.2       |1.234568e+04|1.230000E-04|0.0001|1E+20|0x1p+0|0X1P-1]");
    args b = { .n = 0 };
    uint64_t neg_nan = 0xFFF8000000000000ull;
    double inf = 1e308 * 10.0;
    ad(&b, inf); ad(&b, -inf); arg_raw(&b, &neg_nan, 8); ad(&b, -0.0); ad(&b, 1e-5);
    assert_string_equal(run(&m, "[%f|%f|%f|%e|%g]", &b), "[inf|-inf|-nan|-0.000000e+00|1e-05]");
}

static void test_chars_strings_pointers(void **state)
{
    (void)state;
    static mem m;
    uint64_t s = put_str(&m, "hello");
    args a = { .n = 0 };
    ai(&a, 'Z');
    for (int i = 0; i < 4; i++) al(&a, (int64_t)s);
    al(&a, 0x1234);
    assert_string_equal(run(&m, "[%c|%s|%.3s|%8s|%-8s|%%|%p]", &a), "[Z|hello|hel|   hello|hello   |%|0x1234]");
    args n = { .n = 0 };
    al(&n, 0);
    assert_string_equal(run(&m, "[%s]", &n), "[(null)]");
}

static void test_star_width_and_no_args(void **state)
{
    (void)state;
    static mem m;
    args a = { .n = 0 };
    ai(&a, 6); ai(&a, 7); ai(&a, 4); ai(&a, 9);
    assert_string_equal(run(&m, "[%*d|%-*d]", &a), "[     7|9   ]");
    assert_string_equal(run(&m, "no args %% here\n", NULL), "no args % here\n");
}

/* The course's printf kernel (tests/ptx/data/printf_kernel_sm80.ptx) stores
 * ctaid, tid, x at offsets 0, 4, 8 and the double y at 16. */
static void test_kernel_layout(void **state)
{
    (void)state;
    static mem m;
    args a = { .n = 0 };
    ai(&a, 2); ai(&a, 31); ai(&a, -5); ad(&a, 0.5);
    assert_int_equal(a.n, 24);
    assert_string_equal(run(&m, "block %d thread %d x=%d y=%f\n", &a), "block 2 thread 31 x=-5 y=0.500000\n");
}

/* What cannot be formatted is copied as written. */
static void test_literal_fallbacks(void **state)
{
    (void)state;
    static mem m;
    args a = { .n = 0 };
    ai(&a, 1);
    assert_string_equal(run(&m, "%d %d!", &a), "1 %d!");
    assert_string_equal(run(&m, "a%yb", NULL), "a%yb");
    assert_string_equal(run(&m, "x%n", &a), "x%n");
    assert_string_equal(run(&m, "end %5", NULL), "end %5");
}

static void test_faults(void **state)
{
    (void)state;
    static mem m;
    char why[128] = "";
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    /* format address outside memory */
    assert_int_equal(ws_device_printf(f, 0x100, NULL, 0, rd, &m, why, sizeof why), -1);
    assert_non_null(strstr(why, "format string"));
    /* %s pointing nowhere: nothing at all is written */
    uint64_t fa = put_str(&m, "before %s after");
    args a = { .n = 0 };
    al(&a, 0x99999);
    assert_int_equal(ws_device_printf(f, fa, a.b, a.n, rd, &m, why, sizeof why), -1);
    assert_non_null(strstr(why, "0x99999"));
    /* a format that runs off the end of memory unterminated */
    m.bytes[m.used++] = 'x';
    assert_int_equal(ws_device_printf(f, BASE + m.used - 1, NULL, 0, rd, &m, why, sizeof why), -1);
    fclose(f);
    assert_int_equal(len, 0);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_length_modifiers),
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_chars_strings_pointers),
        cmocka_unit_test(test_star_width_and_no_args),
        cmocka_unit_test(test_kernel_layout),
        cmocka_unit_test(test_literal_fallbacks),
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
