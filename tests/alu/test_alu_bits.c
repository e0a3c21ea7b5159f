/* Bit manipulation, against values worked out by hand from the PTX ISA
 * manual's pseudocode and its prmt selector tables, and fns and bmsk
 * against references that compute them another way. */
#include "alu_test_util.h"

#define M(op, t) mods(PTX_OP_##op, PTX_T_##t, PTX_T_NONE, 0, 0)

static void test_popc_clz_brev(void **s)
{
    (void)s;
    assert_int_equal(run1(M(POPC, B32), 0xF0F0F0F1), 17);
    assert_int_equal(run1(M(POPC, B64), ~0ull), 64);
    assert_int_equal(run1(M(CLZ, B32), 0), 32);
    assert_int_equal(run1(M(CLZ, B32), 1), 31);
    assert_int_equal(run1(M(CLZ, B32), 0x80000000u), 0);
    assert_int_equal(run1(M(CLZ, B64), 1), 63);
    assert_int_equal(run1(M(CLZ, B64), 0), 64);
    assert_int_equal(run1(M(BREV, B32), 1), 0x80000000u);
    assert_int_equal(run1(M(BREV, B32), 0x12345678), 0x1E6A2C48);
    assert_int_equal(run1(M(BREV, B64), 1), 1ull << 63);
}

static void test_bfe(void **s)
{
    (void)s;
    assert_int_equal(run3(M(BFE, U32), 0x12345678, 8, 8), 0x56);
    assert_int_equal(run3(M(BFE, S32), 0x0000F000, 12, 4), 0xFFFFFFFF);
    assert_int_equal(run3(M(BFE, S32), 0x00007000, 12, 4), 7);
    /* field running past bit 31: upper bits come from the sign bit a[31] */
    assert_int_equal(run3(M(BFE, S32), 0x80000000u, 28, 8), 0xFFFFFFF8);
    assert_int_equal(run3(M(BFE, U32), 0x80000000u, 28, 8), 0x8);
    assert_int_equal(run3(M(BFE, U32), 0xFFFFFFFF, 40, 8), 0);
    assert_int_equal(run3(M(BFE, S32), 0x80000000u, 40, 8), 0xFFFFFFFF);
    assert_int_equal(run3(M(BFE, S32), 0xFFFFFFFF, 4, 0), 0);
    /* only the low 8 bits of pos and len count */
    assert_int_equal(run3(M(BFE, U32), 0x12345678, 0x108, 0x208), 0x56);
    assert_int_equal(run3(M(BFE, U64), 0xF000000000000000ull, 60, 4), 0xF);
    /* i = 0 takes a[62] = 0, i = 1 a[63] = 1, the rest the sign a[63] */
    assert_int_equal(run3(M(BFE, S64), 0x8000000000000000ull, 62, 10), ~1ull);
}

static void test_bfi(void **s)
{
    (void)s;
    ptx_mods m = M(BFI, B32);
    assert_int_equal(run_lane(&m, 0xAB, 0x12345678, 8, 8, NULL, NULL), 0x1234AB78);
    assert_int_equal(run_lane(&m, 0xFF, 0x02345678, 28, 8, NULL, NULL), 0xF2345678);
    assert_int_equal(run_lane(&m, 0xFF, 0x12345678, 4, 0, NULL, NULL), 0x12345678);
    assert_int_equal(run_lane(&m, 0xFF, 0x12345678, 32, 8, NULL, NULL), 0x12345678);
    ptx_mods m64 = M(BFI, B64);
    assert_int_equal(run_lane(&m64, 1, 0, 63, 1, NULL, NULL), 1ull << 63);
}

static void test_bfind(void **s)
{
    (void)s;
    ptx_mods sh = mods(PTX_OP_BFIND, PTX_T_U32, PTX_T_NONE, 0, PTX_F_SHIFTAMT);
    assert_int_equal(run1(M(BFIND, U32), 0x00010000), 16);
    assert_int_equal(run1(sh, 0x00010000), 15);
    assert_int_equal(run1(M(BFIND, U32), 0), 0xFFFFFFFF);
    assert_int_equal(run1(sh, 0), 0xFFFFFFFF);
    assert_int_equal(run1(M(BFIND, S32), 0xFFFFFFFF), 0xFFFFFFFF);
    assert_int_equal(run1(M(BFIND, S32), 0x80000000u), 30);
    assert_int_equal(run1(M(BFIND, S32), 5), 2);
    assert_int_equal(run1(M(BFIND, U64), 1ull << 40), 40);
    assert_int_equal(run1(M(BFIND, S64), 0xFFFFFFFF00000000ull), 31);
}

static uint64_t prmt(int mode, uint64_t c)
{
    ptx_mods m = M(PRMT, B32);
    m.subop = (uint8_t)mode;
    return run3(m, 0x44332211, 0x88776655, c);
}

static void test_prmt(void **s)
{
    (void)s;
    assert_int_equal(prmt(PTX_SUB_NONE, 0x3210), 0x44332211);
    assert_int_equal(prmt(PTX_SUB_NONE, 0x7654), 0x88776655);
    assert_int_equal(prmt(PTX_SUB_NONE, 0x0123), 0x11223344);
    assert_int_equal(prmt(PTX_SUB_NONE, 0x4444), 0x55555555);
    /* msb of a nibble: replicate the selected byte's sign bit (0x88 < 0, 0x11 > 0) */
    assert_int_equal(prmt(PTX_SUB_NONE, 0x8F70), 0x00FF8811);
    assert_int_equal(prmt(PTX_SUB_PRMT_F4E, 1), 0x55443322);
    assert_int_equal(prmt(PTX_SUB_PRMT_F4E, 3), 0x77665544);
    assert_int_equal(prmt(PTX_SUB_PRMT_B4E, 0), 0x66778811);
    assert_int_equal(prmt(PTX_SUB_PRMT_B4E, 3), 0x11223344);
    assert_int_equal(prmt(PTX_SUB_PRMT_RC8, 2), 0x33333333);
    assert_int_equal(prmt(PTX_SUB_PRMT_ECL, 1), 0x44332222);
    assert_int_equal(prmt(PTX_SUB_PRMT_ECR, 2), 0x33332211);
    assert_int_equal(prmt(PTX_SUB_PRMT_RC16, 1), 0x44334433);
    assert_int_equal(prmt(PTX_SUB_PRMT_RC16, 2), 0x22112211);
}

static void test_lop3(void **s)
{
    (void)s;
    ptx_mods m = M(LOP3, B32);
    /* F(0xF0, 0xCC, 0xAA) reproduces the table itself */
    static const uint32_t luts[] = { 0x80, 0xFE, 0x96, 0xE8, 0x00, 0xFF, 0x1A };
    for (size_t i = 0; i < sizeof luts / sizeof luts[0]; i++)
        assert_int_equal(run_lane(&m, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, luts[i], NULL, NULL),
                         luts[i] * 0x01010101u);
    assert_int_equal(run_lane(&m, 0x0000FFFF, 0x00FF00FF, 0x0F0F0F0F, 0x80, NULL, NULL), 0x0000000F);
    /* 0x78 = a ^ (b & c) */
    assert_int_equal(run_lane(&m, 0x12345678, 0xFFFF0000, 0x0F0F0F0F, 0x78, NULL, NULL),
                     0x12345678u ^ (0xFFFF0000u & 0x0F0F0F0Fu));
}

static void test_dp4a(void **s)
{
    (void)s;
    assert_int_equal(run3(mods(PTX_OP_DP4A, PTX_T_U32, PTX_T_U32, 0, 0), 0x01020304, 0x01010101, 10), 20);
    assert_int_equal(run3(mods(PTX_OP_DP4A, PTX_T_S32, PTX_T_S32, 0, 0), 0xFF, 0x02, 5), 3);
    assert_int_equal(run3(mods(PTX_OP_DP4A, PTX_T_S32, PTX_T_U32, 0, 0), 0xFF, 0xFF, 0), 0xFFFFFF01);
    assert_int_equal(run3(mods(PTX_OP_DP4A, PTX_T_U32, PTX_T_U32, 0, 0), 0xFFFFFFFF, 0xFFFFFFFF, 0),
                     4u * 255u * 255u);
}

static uint64_t shf(int dir, uint32_t mode, ptx_type t, uint64_t c)
{
    ptx_mods m = mods(PTX_OP_SHF, t, PTX_T_NONE, 0, mode);
    m.subop = (uint8_t)dir;
    return run3(m, 0x89ABCDEF, 0x01234567, c);
}

static void test_shf(void **s)
{
    (void)s;
    assert_int_equal(shf(PTX_SUB_SHF_L, PTX_F_WRAP, PTX_T_B32, 4), 0x12345678);
    assert_int_equal(shf(PTX_SUB_SHF_L, PTX_F_WRAP, PTX_T_B32, 36), 0x12345678);
    assert_int_equal(shf(PTX_SUB_SHF_L, PTX_F_CLAMP, PTX_T_B32, 36), 0x89ABCDEF);
    assert_int_equal(shf(PTX_SUB_SHF_L, PTX_F_CLAMP, PTX_T_B32, 0), 0x01234567);
    assert_int_equal(shf(PTX_SUB_SHF_R, PTX_F_WRAP, PTX_T_B32, 4), 0x789ABCDE);
    assert_int_equal(shf(PTX_SUB_SHF_R, PTX_F_CLAMP, PTX_T_B32, 40), 0x01234567);
    assert_int_equal(shf(PTX_SUB_SHF_R, PTX_F_WRAP, PTX_T_B32, 32), 0x89ABCDEF);
    ptx_mods m = mods(PTX_OP_SHF, PTX_T_B32, PTX_T_NONE, 0, PTX_F_CLAMP);
    m.subop = PTX_SUB_SHF_R;
    assert_int_equal(run3(m, 0, 0x80000000u, 4), 0);    /* low word of {b, a} >> 4 */
    assert_int_equal(run3(m, 0, 0x80000000u, 36), 0x80000000u);
    m.types[0] = PTX_T_S32;
    assert_true(unsupported(m, "shf.clamp.s32 is not supported"));
}

/* fns: the PTX ISA's own examples, then every base and offset against a
 * reference that counts set bits instead of walking them. */
static uint32_t fns_ref(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0) return (mask >> base) & 1 ? base : 0xFFFFFFFFu;
    if (offset > 0) {
        uint32_t m = mask & (0xFFFFFFFFu << base);      /* bits at and above base */
        if ((uint32_t)__builtin_popcount(m) < (uint32_t)offset) return 0xFFFFFFFFu;
        for (int32_t k = 1; k < offset; k++) m &= m - 1;
        return (uint32_t)__builtin_ctz(m);
    }
    uint32_t m = base == 31 ? mask : mask & ((2u << base) - 1);   /* bits at and below base */
    if ((uint32_t)__builtin_popcount(m) < (uint32_t)-offset) return 0xFFFFFFFFu;
    for (int32_t k = 1; k < -offset; k++) m &= ~(0x80000000u >> __builtin_clz(m));
    return 31u - (uint32_t)__builtin_clz(m);
}

static void test_fns(void **s)
{
    (void)s;
    ptx_mods m = M(FNS, B32);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 3, 1), 3);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 3, (uint32_t)-1), 3);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 2, 1), 3);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 2, (uint32_t)-1), 1);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 2, 0), 0xFFFFFFFFu);     /* bit 2 clear */
    assert_int_equal(run3(m, 0xAAAAAAAAu, 3, 0), 3);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 0, 16), 31);
    assert_int_equal(run3(m, 0xAAAAAAAAu, 0, 17), 0xFFFFFFFFu);    /* only 16 set bits */
    assert_int_equal(run3(m, 0xF0F0u, 3, (uint32_t)-2), 0xFFFFFFFFu);
    assert_int_equal(run3(m, 0xF0F0u, 15, (uint32_t)-6), 6);
    assert_int_equal(run3(m, 0, 0, 1), 0xFFFFFFFFu);
    assert_int_equal(run3(m, 0x80000001u, 31, (uint32_t)-2), 0);
    static const uint32_t masks[] = {0xAAAAAAAAu, 0x0F0F00F1u, 0xFFFFFFFFu, 0x80000001u, 0x12345678u};
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++)
        for (uint32_t base = 0; base < 32; base++)
            for (int32_t off = -34; off <= 34; off++)
                if (run3(m, masks[i], base, (uint32_t)off) != fns_ref(masks[i], base, off))
                    fail_msg("fns(0x%08x, %u, %d): got 0x%08llx want 0x%08x", masks[i], base, off,
                             (unsigned long long)run3(m, masks[i], base, (uint32_t)off),
                             fns_ref(masks[i], base, off));
}

/* bmsk: a width-bit mask from bit pos, cut at bit 31; .clamp saturates pos
 * and width at 32, .wrap takes them mod 32 (PTX ISA, "bmsk"). */
static uint32_t bmsk_ref(uint32_t pos, uint32_t width, bool clamp)
{
    if (clamp) {
        if (pos >= 32) return 0;
        if (width > 32) width = 32;
    } else {
        pos &= 31;
        width &= 31;
    }
    return (uint32_t)((((UINT64_C(1) << width) - 1) << pos) & 0xFFFFFFFFu);
}

static void test_bmsk(void **s)
{
    (void)s;
    ptx_mods wrap = mods(PTX_OP_BMSK, PTX_T_B32, PTX_T_NONE, 0, PTX_F_WRAP);
    ptx_mods clamp = mods(PTX_OP_BMSK, PTX_T_B32, PTX_T_NONE, 0, PTX_F_CLAMP);
    assert_int_equal(run2(wrap, 1, 2), 0x00000006u);       /* the ISA's example */
    assert_int_equal(run2(clamp, 4, 8), 0x00000FF0u);
    assert_int_equal(run2(clamp, 28, 8), 0xF0000000u);
    assert_int_equal(run2(clamp, 0, 32), 0xFFFFFFFFu);
    assert_int_equal(run2(wrap, 0, 32), 0);
    assert_int_equal(run2(clamp, 32, 4), 0);
    assert_int_equal(run2(wrap, 33, 4), 0x1Eu);
    assert_int_equal(run2(clamp, 5, 0), 0);
    for (uint32_t pos = 0; pos < 70; pos += 3)
        for (uint32_t width = 0; width < 70; width += 5) {
            assert_int_equal(run2(clamp, pos, width), bmsk_ref(pos, width, true));
            assert_int_equal(run2(wrap, pos, width), bmsk_ref(pos, width, false));
        }
    assert_true(unsupported(M(BMSK, B32), "bmsk.b32 is not supported"));   /* the mode is required */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_popc_clz_brev),
        cmocka_unit_test(test_bfe),
        cmocka_unit_test(test_bfi),
        cmocka_unit_test(test_bfind),
        cmocka_unit_test(test_prmt),
        cmocka_unit_test(test_lop3),
        cmocka_unit_test(test_dp4a),
        cmocka_unit_test(test_shf),
        cmocka_unit_test(test_fns),
        cmocka_unit_test(test_bmsk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
