/* f16, f16x2, bf16 arithmetic: round-half-even cases, overflow, .ftz,
 * .sat, .relu, NaN rules, and an fma whose exact value lies just above a
 * bf16 tie (a plain double fma would round it the wrong way). */
#include "alu_test_util.h"

#define H(op, t, f) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, PTX_RND_RN, f)
#define HN(op, t, f) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, PTX_RND_NONE, f)

static void test_f16_add_mul(void **s)
{
    (void)s;
    assert_int_equal(run2(H(ADD, F16, 0), 0x3C00, 0x1000), 0x3C00);     /* 1 + 2^-11: tie -> even */
    assert_int_equal(run2(H(ADD, F16, 0), 0x3C01, 0x1000), 0x3C02);     /* tie -> even (up) */
    assert_int_equal(run2(HN(ADD, F16, 0), 0x3C00, 0x1001), 0x3C01);    /* above the tie */
    assert_int_equal(run2(H(ADD, F16, 0), 0x7BFF, 0x4C00), 0x7C00);     /* 65504 + 16 -> inf */
    assert_int_equal(run2(H(SUB, F16, 0), 0x3C00, 0x3C00), 0x0000);
    assert_int_equal(run2(H(MUL, F16, 0), 0x3C01, 0x3C01), 0x3C02);     /* 1 + 2^-9 + 2^-20 */
    assert_int_equal(run2(H(MUL, F16, 0), 0x0200, 0x3800), 0x0100);     /* subnormal * 0.5 */
    assert_int_equal(run2(H(ADD, F16, 0), 0x7E01, 0x3C00), 0x7FFF);
    assert_int_equal(run2(H(ADD, F16, 0), 0x7C00, 0xFC00), 0x7FFF);
    assert_int_equal(run2(H(ADD, F16X2, 0), 0x3C004000, 0x3C003C00), 0x40004200);
    assert_int_equal(run2(H(MUL, F16X2, 0), 0xBC007BFF, 0x40004000), 0xC0007C00);
}

static void test_f16_fma(void **s)
{
    (void)s;
    assert_int_equal(run3(H(FMA, F16, 0), 0x3C01, 0x3C01, 0xBC00), 0x1800);   /* 2^-9 + 2^-20: tie */
    assert_int_equal(run3(H(FMA, F16, 0), 0x3C01, 0x3BFF, 0xBC00), 0x0FFE);   /* exact 2^-11 - 2^-21 */
    assert_int_equal(run3(H(FMA, F16, PTX_F_RELU), 0x3C00, 0xC000, 0), 0);
    assert_int_equal(run3(H(FMA, F16, PTX_F_RELU), 0x3C00, 0x4000, 0), 0x4000);
    assert_int_equal(run3(H(FMA, F16, PTX_F_SAT), 0x3C00, 0x4000, 0), 0x3C00);
}

static void test_f16_ftz_sat(void **s)
{
    (void)s;
    assert_int_equal(run2(H(ADD, F16, 0), 0x0001, 0x0001), 0x0002);
    assert_int_equal(run2(H(ADD, F16, PTX_F_FTZ), 0x0001, 0x0001), 0);
    assert_int_equal(run2(H(MUL, F16, PTX_F_FTZ), 0x0400, 0x3800), 0);          /* 2^-15 flushed */
    assert_int_equal(run2(H(MUL, F16, PTX_F_FTZ), 0x8400, 0x3800), 0x8000);
    assert_int_equal(run2(H(ADD, F16, PTX_F_SAT), 0x3C00, 0x3C00), 0x3C00);
    assert_int_equal(run2(H(ADD, F16, PTX_F_SAT), 0xBC00, 0), 0);
    assert_int_equal(run2(H(ADD, F16, PTX_F_SAT), 0x3800, 0), 0x3800);
    assert_int_equal(run2(H(ADD, F16, PTX_F_SAT), 0x7C00, 0xFC00), 0);
}

static void test_bf16(void **s)
{
    (void)s;
    assert_int_equal(run2(H(ADD, BF16, 0), 0x3F80, 0x3B80), 0x3F80);    /* 1 + 2^-8: tie */
    assert_int_equal(run2(H(ADD, BF16, 0), 0x3F80, 0x3BC0), 0x3F81);
    assert_int_equal(run3(H(FMA, BF16, 0), 0x3F81, 0x3F81, 0xBF80), 0x3C80);
    /* (1 + 2^-4)^2 = 1 + 2^-3 + 2^-8 is a bf16 tie; + 2^-80 breaks it upward */
    assert_int_equal(run3(H(FMA, BF16, 0), 0x3F88, 0x3F88, 0), 0x3F90);
    assert_int_equal(run3(H(FMA, BF16, 0), 0x3F88, 0x3F88, 0x1780), 0x3F91);
    assert_int_equal(run3(H(FMA, BF16, 0), 0x3F88, 0x3F88, 0x9780), 0x3F90);
    assert_int_equal(run3(H(FMA, BF16X2, 0), 0x3F883F80, 0x3F883F80, 0x17800000), 0x3F913F80);
    assert_int_equal(run2(H(MUL, BF16, 0), 0x7F00, 0x4000), 0x7F80);
}

static void test_minmax_neg_abs(void **s)
{
    (void)s;
    assert_int_equal(run2(HN(MIN, F16, 0), 0x7E00, 0x3C00), 0x3C00);
    assert_int_equal(run2(HN(MAX, F16, 0), 0x3C00, 0x7E00), 0x3C00);
    assert_int_equal(run2(HN(MIN, F16, 0), 0x7E00, 0xFE00), 0x7FFF);
    assert_int_equal(run2(HN(MIN, F16, PTX_F_NAN), 0x7E00, 0x3C00), 0x7FFF);
    assert_int_equal(run2(HN(MIN, F16, 0), 0x8000, 0x0000), 0x8000);
    assert_int_equal(run2(HN(MAX, F16, 0), 0x8000, 0x0000), 0x0000);
    assert_int_equal(run2(HN(MAX, BF16, 0), 0x3F80, 0x4000), 0x4000);
    assert_int_equal(run2(HN(MIN, F16X2, 0), 0xC0003C00, 0x3C00C000), 0xC000C000);
    assert_int_equal(run1(HN(NEG, F16, 0), 0x3C00), 0xBC00);
    assert_int_equal(run1(HN(ABS, F16, 0), 0xBC00), 0x3C00);
    assert_int_equal(run1(HN(ABS, BF16X2, 0), 0x8000BF80), 0x00003F80);
    assert_int_equal(run1(HN(NEG, F16, PTX_F_FTZ), 0x0001), 0x8000);
}

static void test_half_rejects(void **s)
{
    (void)s;
    assert_true(unsupported(H(ADD, BF16, PTX_F_FTZ), "add.rn.ftz.bf16 is not supported"));
    assert_true(unsupported(mods(PTX_OP_ADD, PTX_T_F16, PTX_T_NONE, PTX_RND_RZ, 0), NULL));
    assert_true(unsupported(H(DIV, F16, 0), NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_add_mul),
        cmocka_unit_test(test_f16_fma),
        cmocka_unit_test(test_f16_ftz_sat),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_minmax_neg_abs),
        cmocka_unit_test(test_half_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
