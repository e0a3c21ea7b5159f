/* Integer arithmetic: wraparound, saturation, carries, high halves,
 * division by zero, shifts by >= the width.  Expected values are worked
 * out by hand from the PTX ISA manual's definitions. */
#include "alu_test_util.h"

#define M(op, t) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, 0, 0)
#define MF(op, t, f) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, 0, f)

static void test_add_sub_wrap(void **s)
{
    (void)s;
    assert_int_equal(run2(M(ADD, S32), 0x7FFFFFFF, 1), 0x80000000u);      /* INT_MAX + 1 */
    assert_int_equal(run2(M(ADD, U32), 0xFFFFFFFF, 2), 1);
    assert_int_equal(run2(M(ADD, U16), 0xFFFF, 1), 0);
    assert_int_equal(run2(M(SUB, S64), 0, 1), 0xFFFFFFFFFFFFFFFFull);
    assert_int_equal(run2(MF(ADD, S32, PTX_F_SAT), 0x7FFFFFFF, 1), 0x7FFFFFFF);
    assert_int_equal(run2(MF(ADD, S32, PTX_F_SAT), 0x80000000u, 0xFFFFFFFF), 0x80000000u);
    assert_int_equal(run2(MF(SUB, S32, PTX_F_SAT), 0x80000000u, 1), 0x80000000u);
    assert_int_equal(run2(MF(SUB, S32, PTX_F_SAT), 5, 7), 0xFFFFFFFEu);
}

static void test_carry_chain(void **s)
{
    (void)s;
    /* 0x00000001_FFFFFFFF + 0x00000002_00000001 = 0x00000004_00000000 */
    uint64_t cc = 0;
    ptx_mods lo = MF(ADD, U32, PTX_F_CC), hi = M(ADDC, U32);
    assert_int_equal(run_lane(&lo, 0xFFFFFFFF, 0x00000001, 0, 0, NULL, &cc), 0);
    assert_int_equal(cc, 1);
    assert_int_equal(run_lane(&hi, 1, 2, 0, 0, NULL, &cc), 4);
    /* 64-bit: carry out of all-ones + 1 */
    ptx_mods l64 = MF(ADD, U64, PTX_F_CC), h64 = MF(ADDC, U64, PTX_F_CC);
    cc = 0;
    assert_int_equal(run_lane(&l64, ~0ull, 1, 0, 0, NULL, &cc), 0);
    assert_int_equal(cc, 1);
    /* addc with carry in: ~0 + 0 + 1 carries out */
    assert_int_equal(run_lane(&h64, ~0ull, 0, 0, 0, NULL, &cc), 0);
    assert_int_equal(cc, 1);
    /* subtraction: 0x1_00000000 - 1 = 0x0_FFFFFFFF (borrow from the high word) */
    ptx_mods sl = MF(SUB, U32, PTX_F_CC), sh = M(SUBC, U32);
    cc = 0;
    assert_int_equal(run_lane(&sl, 0, 1, 0, 0, NULL, &cc), 0xFFFFFFFFu);
    assert_int_equal(cc, 1);
    assert_int_equal(run_lane(&sh, 1, 0, 0, 0, NULL, &cc), 0);
    cc = 1;
    ptx_mods nb = MF(SUB, U32, PTX_F_CC);
    assert_int_equal(run_lane(&nb, 5, 3, 0, 0, NULL, &cc), 2);
    assert_int_equal(cc, 0);
}

static void test_mul(void **s)
{
    (void)s;
    assert_int_equal(run2(MF(MUL, U32, PTX_F_HI), 0xFFFFFFFF, 0xFFFFFFFF), 0xFFFFFFFE);
    assert_int_equal(run2(MF(MUL, U32, PTX_F_LO), 0xFFFFFFFF, 0xFFFFFFFF), 1);
    assert_int_equal(run2(MF(MUL, S32, PTX_F_HI), 0xFFFFFFFF, 0xFFFFFFFF), 0);     /* -1 * -1 */
    assert_int_equal(run2(MF(MUL, S32, PTX_F_HI), 0x80000000u, 2), 0xFFFFFFFF);    /* -2^32 */
    assert_int_equal(run2(MF(MUL, U64, PTX_F_HI), ~0ull, ~0ull), 0xFFFFFFFFFFFFFFFEull);
    assert_int_equal(run2(MF(MUL, S64, PTX_F_HI), 0x8000000000000000ull, 0x8000000000000000ull),
                     0x4000000000000000ull);                                    /* 2^126 */
    assert_int_equal(run2(MF(MUL, S64, PTX_F_HI), 0x8000000000000000ull, 1), ~0ull);
    assert_int_equal(run2(MF(MUL, S32, PTX_F_WIDE), 0xFFFFFFFF, 5), 0xFFFFFFFFFFFFFFFBull);
    assert_int_equal(run2(MF(MUL, U32, PTX_F_WIDE), 0xFFFFFFFF, 0xFFFFFFFF), 0xFFFFFFFE00000001ull);
    assert_int_equal(run2(MF(MUL, S16, PTX_F_WIDE), 0x8000, 0x8000), 0x40000000);
    assert_int_equal(run2(MF(MUL, U16, PTX_F_HI), 0xFFFF, 0xFFFF), 0xFFFE);
    assert_int_equal(run3(MF(MAD, S32, PTX_F_LO), 3, 0xFFFFFFFE, 10), 4);           /* 3*-2+10 */
    assert_int_equal(run3(MF(MAD, S32, PTX_F_WIDE), 0xFFFFFFFF, 1, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFFFFFFFFFEull);
    assert_int_equal(run3(MF(MAD, S32, PTX_F_HI | PTX_F_SAT), 0x40000000, 0x40000000, 0x7FFFFFFF), 0x7FFFFFFF);
    assert_int_equal(run3(MF(MAD, U32, PTX_F_HI), 0x80000000u, 4, 1), 3);
    /* mul24: only the low 24 bits take part */
    assert_int_equal(run2(MF(MUL24, U32, PTX_F_LO), 0xFF000003, 0x01000005), 15);
    assert_int_equal(run2(MF(MUL24, S32, PTX_F_LO), 0x00FFFFFF, 2), 0xFFFFFFFE);    /* -1 * 2 */
    assert_int_equal(run2(MF(MUL24, U32, PTX_F_HI), 0xFFFFFF, 0xFFFFFF), 0xFFFFFE00); /* 0xFFFFFE000001 >> 16 */
    assert_int_equal(run3(MF(MAD24, U32, PTX_F_LO), 0x1000, 0x1000, 1), 0x1000001);
    assert_int_equal(run3(M(SAD, S32), 0xFFFFFFFE, 3, 100), 105);
    assert_int_equal(run3(M(SAD, U32), 0xFFFFFFFE, 3, 100), 100 + 0xFFFFFFFBu);
}

static void test_madc_chain(void **s)
{
    (void)s;
    /* 64x32 multiply-add in 32-bit words: (2^32-1)*(2^32-1) via lo/hi with carry */
    uint64_t cc = 0;
    ptx_mods lo = MF(MAD, U32, PTX_F_LO | PTX_F_CC), hi = MF(MADC, U32, PTX_F_HI);
    uint64_t r0 = run_lane(&lo, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0, NULL, &cc);
    assert_int_equal(r0, 0);        /* 1 + 0xFFFFFFFF carries */
    assert_int_equal(cc, 1);
    uint64_t r1 = run_lane(&hi, 0xFFFFFFFF, 0xFFFFFFFF, 0, 0, NULL, &cc);
    assert_int_equal(r1, 0xFFFFFFFF);   /* hi = 0xFFFFFFFE, + carry */
}

static void test_div_rem(void **s)
{
    (void)s;
    assert_int_equal(run2(M(DIV, U32), 7, 0), 0xFFFFFFFF);
    assert_int_equal(run2(M(DIV, S32), 7, 0), 0xFFFFFFFF);
    assert_int_equal(run2(M(DIV, S32), 0xFFFFFFF9, 0), 1);      /* -7 / 0 */
    assert_int_equal(run2(M(DIV, U64), 7, 0), ~0ull);
    assert_int_equal(run2(M(REM, U32), 7, 0), 7);
    assert_int_equal(run2(M(DIV, S32), 0x80000000u, 0xFFFFFFFF), 0x80000000u);
    assert_int_equal(run2(M(REM, S32), 0x80000000u, 0xFFFFFFFF), 0);
    assert_int_equal(run2(M(DIV, S64), 0x8000000000000000ull, ~0ull), 0x8000000000000000ull);
    assert_int_equal(run2(M(DIV, S32), 0xFFFFFFF9, 2), 0xFFFFFFFD);    /* -7/2 = -3 */
    assert_int_equal(run2(M(REM, S32), 0xFFFFFFF9, 2), 0xFFFFFFFF);    /* -7%2 = -1 */
    assert_int_equal(run2(M(DIV, U16), 0xFFFF, 2), 0x7FFF);
    assert_int_equal(run2(M(DIV, S16), 0x8000, 0xFFFF), 0x8000);
}

/* Division of many values against C's own (which truncates toward zero, as
 * PTX does), worked out here on 32- and 64-bit C types: signs, values
 * near the limits, small and large divisors. */
static void test_div_rem_many(void **s)
{
    (void)s;
    static const uint32_t edge32[] = {0, 1, 2, 3, 7, 0x7FFFFFFF, 0x80000000u, 0x80000001u, 0xFFFFFFFE, 0xFFFFFFFF};
    uint64_t seed = 12345;
    for (int i = 0; i < 4000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = i < 100 ? edge32[i % 10] : (uint32_t)(seed >> 32);
        uint32_t b = i < 100 ? edge32[i / 10] : (uint32_t)seed >> (seed >> 59);     /* divisors of every size */
        if (b == 0) continue;
        assert_int_equal(run2(M(DIV, U32), a, b), a / b);
        assert_int_equal(run2(M(REM, U32), a, b), a % b);
        int32_t x = (int32_t)a, y = (int32_t)b;
        if (y == -1) continue;          /* INT_MIN / -1: test_div_rem */
        assert_int_equal(run2(M(DIV, S32), a, b), (uint32_t)(x / y));
        assert_int_equal(run2(M(REM, S32), a, b), (uint32_t)(x % y));
        int64_t X = (int64_t)(seed * 0x9E3779B97F4A7C15ull), Y = y;     /* a 64-bit dividend, a 32-bit divisor */
        assert_int_equal(run2(M(DIV, S64), (uint64_t)X, (uint64_t)Y), (uint64_t)(X / Y));
        assert_int_equal(run2(M(REM, S64), (uint64_t)X, (uint64_t)Y), (uint64_t)(X % Y));
        assert_int_equal(run2(M(DIV, U64), (uint64_t)X, b), (uint64_t)X / b);
        assert_int_equal(run2(M(DIV, U64), a, b), a / b);
    }
}

static void test_minmax_abs_neg(void **s)
{
    (void)s;
    assert_int_equal(run2(M(MIN, S32), 0xFFFFFFFF, 1), 0xFFFFFFFF);
    assert_int_equal(run2(M(MIN, U32), 0xFFFFFFFF, 1), 1);
    assert_int_equal(run2(M(MAX, S16), 0x8000, 0x7FFF), 0x7FFF);
    assert_int_equal(run2(M(MAX, U64), 1ull << 63, 5), 1ull << 63);
    assert_int_equal(run2(MF(MAX, S32, PTX_F_RELU), 0xFFFFFFF0, 0xFFFFFFFF), 0);
    assert_int_equal(run2(MF(MIN, S32, PTX_F_RELU), 7, 9), 7);
    assert_int_equal(run1(M(ABS, S32), 0x80000000u), 0x80000000u);
    assert_int_equal(run1(M(ABS, S32), 0xFFFFFFFB), 5);
    assert_int_equal(run1(M(ABS, S16), 0xFFFF), 1);
    assert_int_equal(run1(M(NEG, S32), 1), 0xFFFFFFFF);
    assert_int_equal(run1(M(NEG, S64), 0x8000000000000000ull), 0x8000000000000000ull);
}

static void test_shifts(void **s)
{
    (void)s;
    assert_int_equal(run2(M(SHL, B32), 1, 31), 0x80000000u);
    assert_int_equal(run2(M(SHL, B32), 1, 32), 0);
    assert_int_equal(run2(M(SHL, B32), 1, 0xFFFFFFFF), 0);
    assert_int_equal(run2(M(SHL, B16), 0xFFFF, 8), 0xFF00);
    assert_int_equal(run2(M(SHL, B64), 1, 63), 1ull << 63);
    assert_int_equal(run2(M(SHL, B64), 1, 64), 0);
    assert_int_equal(run2(M(SHR, U32), 0x80000000u, 31), 1);
    assert_int_equal(run2(M(SHR, U32), 0x80000000u, 32), 0);
    assert_int_equal(run2(M(SHR, B32), 0x80000000u, 100), 0);
    assert_int_equal(run2(M(SHR, S32), 0x80000000u, 4), 0xF8000000u);
    assert_int_equal(run2(M(SHR, S32), 0x80000000u, 32), 0xFFFFFFFFu);
    assert_int_equal(run2(M(SHR, S32), 0x80000000u, 0xFFFFFFFF), 0xFFFFFFFFu);
    assert_int_equal(run2(M(SHR, S32), 0x7FFFFFFF, 40), 0);
    assert_int_equal(run2(M(SHR, S16), 0x8000, 15), 0xFFFF);
    assert_int_equal(run2(M(SHR, S64), 0x8000000000000000ull, 64), ~0ull);
}

static void test_logic(void **s)
{
    (void)s;
    assert_int_equal(run2(M(AND, B32), 0xF0F0, 0xFF00), 0xF000);
    assert_int_equal(run2(M(OR, B16), 0xF0F0, 0x0F00), 0xFFF0);
    assert_int_equal(run2(M(XOR, B64), ~0ull, 1), ~1ull);
    assert_int_equal(run1(M(NOT, B32), 0), 0xFFFFFFFF);
    assert_int_equal(run1(M(NOT, B16), 0x00FF), 0xFF00);
    assert_int_equal(run1(M(NOT, PRED), 1), 0);
    assert_int_equal(run1(M(NOT, PRED), 0), 1);
    assert_int_equal(run2(M(AND, PRED), 1, 0), 0);
    assert_int_equal(run1(M(CNOT, B32), 0), 1);
    assert_int_equal(run1(M(CNOT, B32), 0x100), 0);
    assert_int_equal(run1(M(MOV, B32), 0x12345678), 0x12345678);
    assert_int_equal(run1(M(MOV, U16), 0x12345678), 0x5678);
    assert_int_equal(run1(M(MOV, F64), 0x400921FB54442D18ull), 0x400921FB54442D18ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub_wrap),
        cmocka_unit_test(test_carry_chain),
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_madc_chain),
        cmocka_unit_test(test_div_rem),
        cmocka_unit_test(test_div_rem_many),
        cmocka_unit_test(test_minmax_abs_neg),
        cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_logic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
