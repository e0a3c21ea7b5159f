/* cvt: float->int saturation and integer rounding, int->int truncation and
 * .sat, int->float and float->float in every rounding mode, f16/bf16
 * limits, subnormals and round-half-even.  Bit patterns from IEEE 754:
 * f16 1.0 = 0x3C00, 65504 = 0x7BFF, inf = 0x7C00, 2^-24 = 0x0001. */
#include "alu_test_util.h"
#include "../memstats/probe_data.h"

#define C(d, s, r, f) mods(PTX_OP_CVT, PTX_T_##d, PTX_T_##s, PTX_RND_##r, f)

static void test_float_to_int(void **s)
{
    (void)s;
    assert_int_equal(run1(C(S32, F32, RZI, 0), fb(1e10f)), 0x7FFFFFFF);
    assert_int_equal(run1(C(S32, F32, RZI, 0), fb(-1e10f)), 0x80000000u);
    assert_int_equal(run1(C(S32, F32, RZI, 0), 0x7FC00000), 0);
    assert_int_equal(run1(C(U32, F32, RZI, 0), fb(-1.5f)), 0);
    assert_int_equal(run1(C(U32, F32, RNI, 0), fb(4294967296.0f)), 0xFFFFFFFF);
    assert_int_equal(run1(C(U32, F32, RZI, 0), 0xFF800000), 0);
    assert_int_equal(run1(C(S64, F64, RNI, 0), db(1e30)), 0x7FFFFFFFFFFFFFFFull);
    assert_int_equal(run1(C(S64, F64, RNI, 0), db(-1e30)), 0x8000000000000000ull);
    assert_int_equal(run1(C(U64, F64, RZI, 0), db(18446744073709551616.0)), ~0ull);
    assert_int_equal(run1(C(S8, F32, RZI, 0), fb(300.0f)), 0x7F);
    assert_int_equal(run1(C(S8, F32, RZI, 0), fb(-300.0f)), 0x80);
    assert_int_equal(run1(C(U16, F32, RZI, 0), fb(70000.0f)), 0xFFFF);
    assert_int_equal(run1(C(S32, F64, RZI, 0), db(-2147483648.9)), 0x80000000u);
    /* integer rounding: ties to even for .rni */
    assert_int_equal(run1(C(S32, F32, RNI, 0), fb(2.5f)), 2);
    assert_int_equal(run1(C(S32, F32, RNI, 0), fb(3.5f)), 4);
    assert_int_equal(run1(C(S32, F32, RNI, 0), fb(-2.5f)), 0xFFFFFFFE);
    assert_int_equal(run1(C(S32, F32, RMI, 0), fb(-1.5f)), 0xFFFFFFFE);
    assert_int_equal(run1(C(S32, F32, RPI, 0), fb(-1.5f)), 0xFFFFFFFF);
    assert_int_equal(run1(C(S32, F32, RPI, 0), fb(1.1f)), 2);
    assert_int_equal(run1(C(S32, F32, RZI, 0), fb(-1.9f)), 0xFFFFFFFF);
    assert_int_equal(run1(C(S32, F16, RNI, 0), 0x7BFF), 65504);
    assert_int_equal(run1(C(S32, F32, RZI, PTX_F_FTZ), 0x807FFFFF), 0);
}

static void test_int_to_int(void **s)
{
    (void)s;
    assert_int_equal(run1(C(U8, U32, NONE, 0), 0x1FF), 0xFF);
    assert_int_equal(run1(C(S32, S8, NONE, 0), 0x80), 0xFFFFFF80);
    assert_int_equal(run1(C(U32, S8, NONE, 0), 0xFF), 0xFFFFFFFF);
    assert_int_equal(run1(C(U32, U8, NONE, 0), 0xFF), 0xFF);
    assert_int_equal(run1(C(S64, S32, NONE, 0), 0xFFFFFFFF), ~0ull);
    assert_int_equal(run1(C(U64, U32, NONE, 0), 0xFFFFFFFF), 0xFFFFFFFF);
    assert_int_equal(run1(C(S16, S64, NONE, 0), 0x123456789ull), 0x6789);
    assert_int_equal(run1(C(U8, S32, NONE, PTX_F_SAT), 0xFFFFFFFB), 0);
    assert_int_equal(run1(C(S8, S32, NONE, PTX_F_SAT), 200), 0x7F);
    assert_int_equal(run1(C(U32, S32, NONE, PTX_F_SAT), 0xFFFFFFFF), 0);
    assert_int_equal(run1(C(S32, U32, NONE, PTX_F_SAT), 0xFFFFFFFF), 0x7FFFFFFF);
    assert_int_equal(run1(C(U64, S64, NONE, PTX_F_SAT), ~0ull), 0);
    assert_int_equal(run1(C(S64, U64, NONE, PTX_F_SAT), ~0ull), 0x7FFFFFFFFFFFFFFFull);
    assert_int_equal(run1(C(S16, S32, NONE, PTX_F_SAT), 0xFFFF0000), 0x8000);
}

static void test_int_to_float(void **s)
{
    (void)s;
    assert_int_equal(run1(C(F32, S32, RN, 0), 16777217), 0x4B800000);
    assert_int_equal(run1(C(F32, S32, RZ, 0), 16777217), 0x4B800000);
    assert_int_equal(run1(C(F32, S32, RP, 0), 16777217), 0x4B800001);
    assert_int_equal(run1(C(F32, S32, RM, 0), (uint32_t)-16777217), 0xCB800001);
    assert_int_equal(run1(C(F32, S32, RN, 0), 16777219), 0x4B800002);      /* tie -> even */
    assert_int_equal(run1(C(F32, U64, RN, 0), ~0ull), 0x5F800000);
    assert_int_equal(run1(C(F32, U64, RZ, 0), ~0ull), 0x5F7FFFFF);
    assert_int_equal(run1(C(F32, S64, RN, 0), 0x8000000000000000ull), 0xDF000000);
    assert_int_equal(run1(C(F64, U64, RN, 0), ~0ull), 0x43F0000000000000ull);
    assert_int_equal(run1(C(F64, U64, RZ, 0), ~0ull), 0x43EFFFFFFFFFFFFFull);
    assert_int_equal(run1(C(F64, S32, RN, 0), 0xFFFFFFFF), db(-1.0));
    assert_int_equal(run1(C(F16, S32, RN, 0), 65520), 0x7C00);
    assert_int_equal(run1(C(F16, U32, RZ, 0), 100000), 0x7BFF);
    assert_int_equal(run1(C(F16, S32, RN, 0), 2049), 0x6800);
    assert_int_equal(run1(C(F16, S32, RN, 0), 2051), 0x6802);
    assert_int_equal(run1(C(F16, U8, RN, 0), 0xFF), 0x5BF8);                /* 255 */
    assert_int_equal(run1(C(F32, U32, NONE, 0), 3), fb(3.0f));
}

static void test_f16(void **s)
{
    (void)s;
    assert_int_equal(run1(C(F16, F32, RN, 0), fb(65504.0f)), 0x7BFF);
    assert_int_equal(run1(C(F16, F32, RN, 0), fb(65519.0f)), 0x7BFF);
    assert_int_equal(run1(C(F16, F32, RN, 0), fb(65520.0f)), 0x7C00);
    assert_int_equal(run1(C(F16, F32, RZ, 0), fb(1e6f)), 0x7BFF);
    assert_int_equal(run1(C(F16, F32, RM, 0), fb(-1e6f)), 0xFC00);
    assert_int_equal(run1(C(F16, F32, RP, 0), fb(-1e6f)), 0xFBFF);
    /* subnormals: 2^-24 is the least; 2^-25 ties to even 0; 1.5 * 2^-24 ties to 2 units */
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x33800000), 0x0001);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x33000000), 0x0000);
    assert_int_equal(run1(C(F16, F32, RP, 0), 0x33000000), 0x0001);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x33400000), 0x0001);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x33C00000), 0x0002);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0xB3C00000), 0x8002);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x387FC000), 0x03FF);          /* largest subnormal */
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x387FE000), 0x0400);          /* rounds up to 2^-14 */
    /* round half to even at 1: ulp 2^-10 */
    assert_int_equal(run1(C(F16, F32, RN, 0), fb(1.0f + 0x1p-11f)), 0x3C00);
    assert_int_equal(run1(C(F16, F32, RN, 0), fb(1.0f + 3 * 0x1p-11f)), 0x3C02);
    assert_int_equal(run1(C(F16, F32, RP, 0), fb(1.0f + 0x1p-11f)), 0x3C01);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x80000000u), 0x8000);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0x7FC00000), 0x7FFF);
    assert_int_equal(run1(C(F16, F32, RN, 0), 0xFF800000), 0xFC00);
    /* directly from f64, no double rounding: 1 + 2^-11 + 2^-40 rounds up */
    assert_int_equal(run1(C(F16, F64, RN, 0), db(1.0 + 0x1p-11 + 0x1p-40)), 0x3C01);
    /* f16 -> f32 is exact */
    assert_int_equal(run1(C(F32, F16, NONE, 0), 0x7BFF), fb(65504.0f));
    assert_int_equal(run1(C(F32, F16, NONE, 0), 0x0001), 0x33800000);
    assert_int_equal(run1(C(F32, F16, NONE, 0), 0x8000), 0x80000000u);
    assert_int_equal(run1(C(F32, F16, NONE, 0), 0xFC00), 0xFF800000);
    assert_int_equal(run1(C(F32, F16, NONE, 0), 0x3555), 0x3EAAA000);
    assert_int_equal(run1(C(F64, F16, NONE, 0), 0x03FF), db(1023 * 0x1p-24));
    /* every f16 value: its sign, exponent and significand read off its
     * fields; NaNs stay NaNs */
    for (uint32_t h = 0; h < 0x10000u; h++) {
        uint32_t e = h >> 10 & 0x1F, frac = h & 0x3FF;
        uint64_t got = run1(C(F32, F16, NONE, 0), h);
        if (e == 0x1F && frac) {
            assert_true((got & 0x7F800000u) == 0x7F800000u && (got & 0x7FFFFFu) != 0);
            continue;
        }
        float want = e == 0x1F ? INFINITY : e ? ldexpf((float)(frac | 0x400), (int)e - 25) : ldexpf((float)frac, -24);
        if (h & 0x8000u) want = -want;
        uint32_t wb;
        memcpy(&wb, &want, 4);
        if (got != wb) fail_msg("cvt.f32.f16 0x%04x: 0x%08llx, want 0x%08x", h, (unsigned long long)got, wb);
    }
    /* .relu, .satfinite, and the f16x2 pack (a in the high half) */
    assert_int_equal(run1(C(F16, F32, RN, PTX_F_RELU), fb(-1.0f)), 0);
    assert_int_equal(run1(C(F16, F32, RN, PTX_F_RELU), 0x7FC00000), 0x7FFF);
    assert_int_equal(run1(C(F16, F32, RN, PTX_F_RELU), fb(2.0f)), 0x4000);
    assert_int_equal(run1(C(F16, F32, RN, PTX_F_SATFINITE), fb(1e6f)), 0x7BFF);
    assert_int_equal(run1(C(F16, F32, RN, PTX_F_SATFINITE), 0xFF800000), 0xFBFF);
    assert_int_equal(run2(C(F16X2, F32, RN, 0), fb(1.0f), fb(2.0f)), 0x3C004000);
    assert_int_equal(run2(C(BF16X2, F32, RN, 0), fb(1.0f), fb(-2.0f)), 0x3F80C000);
}

static void test_bf16(void **s)
{
    (void)s;
    assert_int_equal(run1(C(BF16, F32, RN, 0), 0x3F808000), 0x3F80);    /* tie -> even */
    assert_int_equal(run1(C(BF16, F32, RN, 0), 0x3F818000), 0x3F82);    /* tie -> even */
    assert_int_equal(run1(C(BF16, F32, RN, 0), 0x3F808001), 0x3F81);
    assert_int_equal(run1(C(BF16, F32, RZ, 0), 0x3F80FFFF), 0x3F80);
    assert_int_equal(run1(C(BF16, F32, RZ, 0), 0x7F7FFFFF), 0x7F7F);
    assert_int_equal(run1(C(BF16, F32, RN, 0), 0x7F7FFFFF), 0x7F80);
    assert_int_equal(run1(C(BF16, F32, RN, 0), 0x00010000), 0x0001);    /* subnormal kept */
    assert_int_equal(run1(C(F32, BF16, NONE, 0), 0x3F81), 0x3F810000);
}

static void test_float_to_float(void **s)
{
    (void)s;
    uint64_t one_plus = db(1.0 + 0x1p-24);
    assert_int_equal(run1(C(F32, F64, RN, 0), one_plus), 0x3F800000);
    assert_int_equal(run1(C(F32, F64, RP, 0), one_plus), 0x3F800001);
    assert_int_equal(run1(C(F32, F64, RZ, 0), db(1e300)), 0x7F7FFFFF);
    assert_int_equal(run1(C(F32, F64, RN, 0), db(1e300)), 0x7F800000);
    assert_int_equal(run1(C(F32, F64, RN, 0), db(1e-50)), 0);
    assert_int_equal(run1(C(F32, F64, RP, 0), db(1e-50)), 1);
    assert_int_equal(run1(C(F32, F64, RN, PTX_F_FTZ), db(0x1p-130)), 0);
    assert_int_equal(run1(C(F32, F64, RN, 0), db(0x1p-130)), 0x00080000);
    assert_int_equal(run1(C(F64, F32, NONE, 0), 0x00000001), db(0x1p-149));
    assert_int_equal(run1(C(F64, F32, NONE, PTX_F_FTZ), 0x00000001), 0);
    /* same type with integer rounding: round to integral */
    assert_int_equal(run1(C(F32, F32, RNI, 0), fb(2.5f)), fb(2.0f));
    assert_int_equal(run1(C(F32, F32, RMI, 0), fb(-0.5f)), fb(-1.0f));
    assert_int_equal(run1(C(F32, F32, RZI, 0), fb(-0.5f)), 0x80000000u);
    assert_int_equal(run1(C(F32, F32, RNI, 0), fb(-0.3f)), 0x80000000u);
    assert_int_equal(run1(C(F32, F32, RPI, 0), fb(1.25f)), fb(2.0f));
    assert_int_equal(run1(C(F64, F64, RNI, 0), db(0.5)), 0);
    assert_int_equal(run1(C(F64, F64, RNI, 0), db(1.5)), db(2.0));
    assert_int_equal(run1(C(F32, F32, NONE, PTX_F_FTZ), 0x007FFFFF), 0);
    assert_int_equal(run1(C(F32, F32, NONE, PTX_F_SAT), fb(1.5f)), fb(1.0f));
    assert_int_equal(run1(C(F32, F32, NONE, PTX_F_SAT), 0x7FC00000), 0);
}

/* NaN payloads between f32 and f64: the H200's conversions of
 * validation/probes/counter_probe.cu (cvt_f64_f32 and cvt_rn_f32_f64 rows
 * of the data file; 0x7fc00123 -> 0x7ff8002460000000 is issue 8's), and
 * by hand from IEEE 754-2008 6.2.3: widening appends 29 zero bits to the
 * 23-bit fraction, narrowing keeps its top 23 bits, the sign stays and
 * the quiet bit is set. */
static void test_nan_payload(void **s)
{
    (void)s;
    probe_row rows[256];
    int n = probe_rows(rows, 256);
    if (n < 0) fail_msg("cannot read %s", PROBE_DATA_FILE);
    const char *v = probe_value(rows, n, "cvt_f64_f32", "0x7fc00123");
    if (!v) fail_msg("%s has no cvt_f64_f32 row for 0x7fc00123", PROBE_DATA_FILE);
    int checked = 0;
    for (int i = 0; i < n; i++) {
        bool widen = !strcmp(rows[i].probe, "cvt_f64_f32");
        if (!widen && strcmp(rows[i].probe, "cvt_rn_f32_f64")) continue;
        uint64_t in = strtoull(rows[i].metric, NULL, 16), want = strtoull(rows[i].value, NULL, 16);
        uint64_t got = widen ? run1(C(F64, F32, NONE, 0), in) : run1(C(F32, F64, RN, 0), in);
        if (got != want)
            fail_msg("%s %s: H200 %s, warpsim 0x%llx", rows[i].probe, rows[i].metric, rows[i].value,
                     (unsigned long long)got);
        checked++;
    }
    assert_true(checked >= 1);
    assert_int_equal(run1(C(F64, F32, NONE, 0), 0xFFC00123), 0xFFF8002460000000ull);
    assert_int_equal(run1(C(F64, F32, NONE, 0), 0x7F800001), 0x7FF8000020000000ull);   /* quieted */
    assert_int_equal(run1(C(F64, F32, NONE, PTX_F_FTZ), 0x7FC00123), 0x7FF8002460000000ull);
    assert_int_equal(run1(C(F32, F64, RN, 0), 0x7FF8002460000000ull), 0x7FC00123);
    assert_int_equal(run1(C(F32, F64, RZ, 0), 0xFFF8002460000000ull), 0xFFC00123);
    assert_int_equal(run1(C(F32, F64, RN, 0), 0x7FF123456789ABCDull), 0x7FC91A2B);
    assert_int_equal(run1(C(F32, F64, RN, 0), 0x7FF0000000000001ull), 0x7FC00000);  /* payload below the top 23 bits */
    /* .sat turns NaN into 0 */
    assert_int_equal(run1(C(F64, F32, NONE, PTX_F_SAT), 0x7FC00123), 0);
    assert_int_equal(run1(C(F32, F64, RN, PTX_F_SAT), 0x7FF8002460000000ull), 0);
}

static void test_rejects(void **s)
{
    (void)s;
    assert_true(unsupported(C(F16, F64, RNI, 0), "cvt.rni.f16.f64 is not supported"));
    assert_true(unsupported(C(S32, F32, RN, 0), "cvt.rn.s32.f32 is not supported"));
    assert_true(unsupported(C(S32, F32, NONE, 0), NULL));
    assert_true(unsupported(C(S32, S16, RZI, 0), NULL));
    assert_true(unsupported(C(F16X2, F64, RN, 0), NULL));
    assert_true(unsupported(C(F64, S32, RN, PTX_F_RELU), NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_int_to_int),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_f16),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_float_to_float),
        cmocka_unit_test(test_nan_payload),
        cmocka_unit_test(test_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
