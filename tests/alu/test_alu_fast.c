/* The fast handlers (alu_fast.c) against the general path (ws_alu_exec,
 * itself checked against hand-worked values by the other ALU tests): every
 * form that has a handler, on random inputs (full 64-bit values,
 * canonical 32-bit ones, and float specials: NaN, infinities, zeros,
 * subnormals, values near the integer limits) and random lane masks, must
 * give the same bits in every lane, active or not. */
#include "alu_test_util.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

static uint64_t special(uint64_t *s)
{
    static const uint64_t v[] = {
        0, 1, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFF, 31, 32, 33, 63, 64,
        0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x00000001u, 0x80000001u,
        0x3F800000u, 0xBF800000u, 0x4F000000u, 0xCF000000u, 0x4F800000u, 0xCF000001u,
        0x3F000000u, 0xBF000000u, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x18000, 0xFFFFFFFFFFFF8000ull,
        0x7FF0000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull, 0x8000000000000000ull,
        0x0000000000000001ull, 0x3FF0000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFFull,
    };
    uint64_t r = next(s);
    switch (r % 4) {
    case 0: return r;                                   /* any 64 bits */
    case 1: return (uint32_t)next(s);                   /* a canonical 32-bit value */
    case 2: return v[next(s) % (sizeof v / sizeof v[0])];
    default: return next(s) % 70;                       /* small: shift counts */
    }
}

static bool f64_nan(uint64_t v) { return (v & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }

/* f64 arithmetic keeps a NaN operand's payload, and when several operands
 * are NaN which one the host returns depends on the order the compiler
 * gave the operands (the general path's own result differs between
 * builds): any NaN is accepted there. */
static bool same_result(const ptx_mods *m, uint64_t g, uint64_t f, const uint64_t src[3][WS_WARP_SIZE], int i)
{
    if (g == f) return true;
    if (m->types[0] != PTX_T_F64 || m->op == PTX_OP_SETP || !f64_nan(g) || !f64_nan(f)) return false;
    return f64_nan(src[0][i]) + f64_nan(src[1][i]) + (m->op == PTX_OP_FMA || m->op == PTX_OP_MAD ? f64_nan(src[2][i]) : 0) >= 2;
}

/* The handler's 4-byte form (ws_alu_fast_fns32, for operands of 32 bits
 * or fewer) against the general path on the same sources zero-extended:
 * the low 32 bits of its result in the active lanes, the old values in
 * the others.  Returns how many mismatching lanes. */
static int compare_narrow(const ptx_mods *m, uint8_t h, uint64_t *seed, uint32_t mask)
{
    uint64_t src[3][WS_WARP_SIZE], d1[WS_WARP_SIZE];
    uint32_t n[3][WS_WARP_SIZE], d2[WS_WARP_SIZE];
    int bad = 0;
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < WS_WARP_SIZE; i++) src[r][i] = n[r][i] = (uint32_t)special(seed);
    for (int i = 0; i < WS_WARP_SIZE; i++) d1[i] = d2[i] = (uint32_t)next(seed);
    uint64_t *const dst[2] = {d1, NULL};
    const uint64_t *const s4[4] = {src[0], src[1], src[2], NULL};
    ws_alu_exec(m, mask, dst, s4, NULL);
    ws_alu_fast_fns32[h](mask, d2, n[0], n[1], n[2]);
    for (int i = 0; i < WS_WARP_SIZE; i++)
        if ((uint32_t)d1[i] != d2[i] && bad++ < 3)
            print_message("%s (4-byte lanes): lane %d of mask %08x: a %08x b %08x c %08x: general %08x, fast %08x\n",
                          ptx_opcode_name(m->op), i, mask, n[0][i], n[1][i], n[2][i], (uint32_t)d1[i], d2[i]);
    return bad;
}

/* Whether m's operands all fit rows of 4-byte lanes (the forms that run
 * the 4-byte handlers). */
static bool narrow_form(const ptx_mods *m)
{
    return ptx_type_size(m->types[0]) <= 4 && ptx_type_size(m->types[1]) <= 4 && !(m->flags & PTX_F_WIDE);
}

/* Runs m both ways on random rows; returns how many mismatching lanes. */
static int compare_paths(const ptx_mods *m, uint8_t h, uint64_t *seed)
{
    int bad = 0;
    for (int iter = 0; iter < 300; iter++) {
        uint64_t src[3][WS_WARP_SIZE], d1[WS_WARP_SIZE], d2[WS_WARP_SIZE];
        for (int r = 0; r < 3; r++)
            for (int i = 0; i < WS_WARP_SIZE; i++) src[r][i] = special(seed);
        for (int i = 0; i < WS_WARP_SIZE; i++) d1[i] = d2[i] = next(seed);
        uint32_t mask = iter % 3 == 0 ? UINT32_MAX : iter % 7 == 0 ? 0 : (uint32_t)next(seed);
        uint64_t *const dst[2] = {d1, NULL};
        const uint64_t *const s4[4] = {src[0], src[1], src[2], NULL};
        ws_alu_exec(m, mask, dst, s4, NULL);
        ws_alu_fast_fns[h](mask, d2, src[0], src[1], src[2]);
        for (int i = 0; i < WS_WARP_SIZE; i++)
            if (!same_result(m, d1[i], d2[i], (const uint64_t (*)[WS_WARP_SIZE])src, i) && bad++ < 3)
                print_message("%s: lane %d of mask %08x: a %016llx b %016llx c %016llx: general %016llx, fast %016llx\n",
                              ptx_opcode_name(m->op), i, mask, (unsigned long long)src[0][i],
                              (unsigned long long)src[1][i], (unsigned long long)src[2][i],
                              (unsigned long long)d1[i], (unsigned long long)d2[i]);
        if (narrow_form(m)) bad += compare_narrow(m, h, seed, mask);
    }
    return bad;
}

static void test_fast_matches_general(void **s)
{
    (void)s;
    static const ptx_opcode ops[] = {
        PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MUL, PTX_OP_MAD, PTX_OP_FMA, PTX_OP_DIV, PTX_OP_REM, PTX_OP_SHL, PTX_OP_SHR,
        PTX_OP_AND, PTX_OP_OR, PTX_OP_XOR, PTX_OP_NOT, PTX_OP_MIN, PTX_OP_MAX, PTX_OP_NEG, PTX_OP_ABS,
        PTX_OP_SETP, PTX_OP_SELP, PTX_OP_CVT, PTX_OP_SQRT, PTX_OP_RCP,
    };
    static const ptx_type types[] = {
        PTX_T_NONE, PTX_T_PRED, PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_U8, PTX_T_U16, PTX_T_U32,
        PTX_T_U64, PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64, PTX_T_F16, PTX_T_F32, PTX_T_F64,
    };
    static const uint32_t flags[] = { 0, PTX_F_LO, PTX_F_HI, PTX_F_WIDE, PTX_F_FTZ, PTX_F_SAT };
    static const int rnds[] = { PTX_RND_NONE, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RZI };
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    int forms = 0, bad = 0;
    const size_t nt = sizeof types / sizeof types[0];
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t t0 = 1; t0 < nt; t0++)
            for (size_t t1 = 0; t1 < nt; t1++)
                for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
                    for (size_t r = 0; r < sizeof rnds / sizeof rnds[0]; r++)
                        for (int c = PTX_CMP_NONE; c <= PTX_CMP_NAN; c++) {
                            if (c != PTX_CMP_NONE && ops[o] != PTX_OP_SETP) break;
                            ptx_mods m = mods(ops[o], types[t0], types[t1], rnds[r], flags[f]);
                            m.cmp = (uint8_t)c;
                            uint8_t h = ws_alu_fast_of(&m);
                            if (!h) continue;
                            assert_true(ws_alu_supports(&m, NULL, 0));
                            forms++;
                            bad += compare_paths(&m, h, &seed);
                        }
    print_message("%d forms with a fast handler compared\n", forms);
    assert_true(forms >= 100);      /* the forms alu_fast.c names, in their spellings */
    assert_int_equal(bad, 0);
}

/* 32-bit div and rem by one divisor in every lane (alu_fast.c takes a
 * reciprocal for the warp then) against the general path: divisors at the
 * edges (2, powers of two, 2^31, the largest, -2 and INT_MIN as signed
 * values, 1, 0 and -1, which keep to the per-lane path) and at random,
 * dividends at the edges and at random, and a row whose high bits are
 * set (which an unsigned division hands to the general path). */
static void test_uniform_divisors(void **s)
{
    (void)s;
    static const uint64_t edge[] = {
        0, 1, 2, 3, 4, 5, 7, 10, 26, 31, 32, 1000, 0x7FFF, 0x8000, 0x10000, 0xFFFF, 0x7FFFFFFE, 0x7FFFFFFF,
        0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0xFFFFFFF9u, 0x40000000u, 0x55555555u, 0xAAAAAAABu,
    };
    const size_t nedge = sizeof edge / sizeof edge[0];
    static const ptx_opcode ops[] = {PTX_OP_DIV, PTX_OP_REM};
    static const ptx_type types[] = {PTX_T_U32, PTX_T_S32};
    uint64_t seed = 0xD1B54A32D192ED03ull;
    int bad = 0, uniform = 0;
    for (size_t o = 0; o < 2; o++)
        for (size_t t = 0; t < 2; t++) {
            ptx_mods m = mods(ops[o], types[t], PTX_T_NONE, 0, 0);
            uint8_t h = ws_alu_fast_of(&m);
            assert_true(h != 0);
            for (int iter = 0; iter < 4000; iter++) {
                uint64_t a[WS_WARP_SIZE], b[WS_WARP_SIZE], zero[WS_WARP_SIZE] = {0};
                uint64_t d1[WS_WARP_SIZE], d2[WS_WARP_SIZE];
                uint64_t y = iter < 2 * (int)nedge ? edge[iter % nedge] : iter % 3 ? (uint32_t)next(&seed)
                                                                                 : next(&seed) % 100;
                for (int i = 0; i < WS_WARP_SIZE; i++) {
                    b[i] = y;
                    a[i] = i < (int)nedge && iter % 2 ? edge[i] : (uint32_t)next(&seed);
                    d1[i] = d2[i] = next(&seed);
                }
                if (iter % 97 == 5) a[iter % WS_WARP_SIZE] |= UINT64_C(1) << 40;
                uniform += (uint32_t)y > 1;
                uint32_t mask = iter % 2 ? UINT32_MAX : (uint32_t)next(&seed);
                uint64_t *const dst[2] = {d1, NULL};
                const uint64_t *const s4[4] = {a, b, zero, NULL};
                ws_alu_exec(&m, mask, dst, s4, NULL);
                ws_alu_fast_fns[h](mask, d2, a, b, zero);
                for (int i = 0; i < WS_WARP_SIZE; i++)
                    if (d1[i] != d2[i] && bad++ < 3)
                        print_message("%s.%s: a %016llx / b %016llx: general %016llx, fast %016llx\n",
                                      ptx_opcode_name(m.op), t ? "s32" : "u32", (unsigned long long)a[i],
                                      (unsigned long long)b[i], (unsigned long long)d1[i], (unsigned long long)d2[i]);
                /* the 4-byte form, on the same rows cut to 32 bits */
                uint32_t a32[WS_WARP_SIZE], b32[WS_WARP_SIZE], z32[WS_WARP_SIZE] = {0}, d3[WS_WARP_SIZE];
                uint64_t az[WS_WARP_SIZE], bz[WS_WARP_SIZE];
                for (int i = 0; i < WS_WARP_SIZE; i++) {
                    az[i] = a32[i] = (uint32_t)a[i];
                    bz[i] = b32[i] = (uint32_t)b[i];
                    d3[i] = (uint32_t)d1[i];
                }
                const uint64_t *const sz[4] = {az, bz, zero, NULL};
                ws_alu_exec(&m, mask, dst, sz, NULL);
                ws_alu_fast_fns32[h](mask, d3, a32, b32, z32);
                for (int i = 0; i < WS_WARP_SIZE; i++)
                    if ((uint32_t)d1[i] != d3[i] && bad++ < 3)
                        print_message("%s.%s (4-byte lanes): a %08x / b %08x: general %08x, fast %08x\n",
                                      ptx_opcode_name(m.op), t ? "s32" : "u32", a32[i], b32[i],
                                      (uint32_t)d1[i], d3[i]);
            }
        }
    assert_true(uniform > 10000);
    assert_int_equal(bad, 0);
}

/* Forms that must keep to the general path. */
static void test_general_forms(void **s)
{
    (void)s;
    ptx_mods m = mods(PTX_OP_ADD, PTX_T_S32, PTX_T_NONE, 0, PTX_F_SAT);
    assert_int_equal(ws_alu_fast_of(&m), 0);
    m = mods(PTX_OP_ADD, PTX_T_F32, PTX_T_NONE, PTX_RND_RZ, 0);
    assert_int_equal(ws_alu_fast_of(&m), 0);
    m = mods(PTX_OP_ADD, PTX_T_F32, PTX_T_NONE, 0, PTX_F_FTZ | PTX_F_SAT);
    assert_int_equal(ws_alu_fast_of(&m), 0);
    m = mods(PTX_OP_SETP, PTX_T_S32, PTX_T_NONE, 0, 0);
    m.cmp = PTX_CMP_LT;
    m.boolop = PTX_BOOL_AND;
    assert_int_equal(ws_alu_fast_of(&m), 0);
    m = mods(PTX_OP_CVT, PTX_T_S32, PTX_T_S64, 0, PTX_F_SAT);
    assert_int_equal(ws_alu_fast_of(&m), 0);
    m = mods(PTX_OP_MAD, PTX_T_U32, PTX_T_NONE, 0, PTX_F_HI);
    assert_int_equal(ws_alu_fast_of(&m), 0);
    m = mods(PTX_OP_SQRT, PTX_T_F32, PTX_T_NONE, PTX_RND_RZ, 0);
    assert_int_equal(ws_alu_fast_of(&m), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_matches_general),
        cmocka_unit_test(test_uniform_divisors),
        cmocka_unit_test(test_general_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
