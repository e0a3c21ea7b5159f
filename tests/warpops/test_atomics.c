/* atom/red read-modify-write: each operation against the PTX ISA's
 * definition worked by hand, and the float cases against an H200
 * (data/gpu_probe_sm90.txt, lines "atomf" and "atomi"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

static uint64_t atom(ptx_subop op, ptx_type t, ptx_space space, uint64_t old, uint64_t b, uint64_t c)
{
    ptx_mods m;
    memset(&m, 0, sizeof m);
    m.op = PTX_OP_ATOM;
    m.subop = (uint8_t)op;
    m.types[0] = t;
    m.ntypes = 1;
    m.space = (uint8_t)space;
    return ws_atom_apply(&m, old, b, c);
}

#define G PTX_SPACE_GLOBAL
#define S PTX_SPACE_SHARED

static void test_add_int_wraps(void **state)
{
    (void)state;
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_U32, G, 0xFFFFFFFFu, 2, 0), 1);
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_S32, G, 5, 0xFFFFFFFDu /* -3 */, 0), 2);
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_U64, G, 0xFFFFFFFFFFFFFFFFull, 1, 0), 0);
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_U64, G, 0xFFFFFFFFull, 1, 0), 0x100000000ull);
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_S64, G, 10, (uint64_t)-20, 0), (uint64_t)-10);
}

static void test_min_max_signedness(void **state)
{
    (void)state;
    /* 0x80000000 is INT_MIN as s32, 2^31 as u32 */
    assert_int_equal(atom(PTX_SUB_ATOM_MIN, PTX_T_S32, G, 0x80000000u, 5, 0), 0x80000000u);
    assert_int_equal(atom(PTX_SUB_ATOM_MIN, PTX_T_U32, G, 0x80000000u, 5, 0), 5);
    assert_int_equal(atom(PTX_SUB_ATOM_MAX, PTX_T_S32, G, 0xFFFFFFFFu, 0, 0), 0);
    assert_int_equal(atom(PTX_SUB_ATOM_MAX, PTX_T_U32, G, 0xFFFFFFFFu, 0, 0), 0xFFFFFFFFu);
    assert_int_equal(atom(PTX_SUB_ATOM_MIN, PTX_T_S64, G, 1, 0x8000000000000000ull, 0), 0x8000000000000000ull);
    assert_int_equal(atom(PTX_SUB_ATOM_MAX, PTX_T_U64, G, 1, 0x8000000000000000ull, 0), 0x8000000000000000ull);
}

static void test_exch_cas(void **state)
{
    (void)state;
    assert_int_equal(atom(PTX_SUB_ATOM_EXCH, PTX_T_B32, G, 7, 99, 0), 99);
    assert_int_equal(atom(PTX_SUB_ATOM_CAS, PTX_T_B32, G, 7, 7, 42), 42);
    assert_int_equal(atom(PTX_SUB_ATOM_CAS, PTX_T_B32, G, 7, 8, 42), 7);
    assert_int_equal(atom(PTX_SUB_ATOM_CAS, PTX_T_B64, G, 0x123456789ull, 0x123456789ull, 1), 1);
    /* only the low 32 bits of a b32 compare */
    assert_int_equal(atom(PTX_SUB_ATOM_CAS, PTX_T_B32, G, 3, 0x100000003ull, 4), 4);
}

/* inc: (old >= b) ? 0 : old + 1;  dec: (old == 0 || old > b) ? b : old - 1 */
static void test_inc_dec_wrap(void **state)
{
    (void)state;
    assert_int_equal(atom(PTX_SUB_ATOM_INC, PTX_T_U32, G, 5, 5, 0), 0);
    assert_int_equal(atom(PTX_SUB_ATOM_INC, PTX_T_U32, G, 4, 5, 0), 5);
    assert_int_equal(atom(PTX_SUB_ATOM_INC, PTX_T_U32, G, 9, 5, 0), 0);
    assert_int_equal(atom(PTX_SUB_ATOM_INC, PTX_T_U32, G, 0xFFFFFFFEu, 0xFFFFFFFFu, 0), 0xFFFFFFFFu);
    assert_int_equal(atom(PTX_SUB_ATOM_DEC, PTX_T_U32, G, 0, 5, 0), 5);
    assert_int_equal(atom(PTX_SUB_ATOM_DEC, PTX_T_U32, G, 7, 5, 0), 5);
    assert_int_equal(atom(PTX_SUB_ATOM_DEC, PTX_T_U32, G, 3, 5, 0), 2);
    assert_int_equal(atom(PTX_SUB_ATOM_DEC, PTX_T_U32, G, 1, 0, 0), 0);
    /* counting 0..b-1..0 cyclically with inc, as a ring-buffer index does */
    uint64_t v = 0;
    for (int i = 0; i < 7; i++) v = atom(PTX_SUB_ATOM_INC, PTX_T_U32, G, v, 2, 0);
    assert_int_equal(v, 1);   /* 1 2 0 1 2 0 1 */
}

static void test_bitwise(void **state)
{
    (void)state;
    assert_int_equal(atom(PTX_SUB_ATOM_AND, PTX_T_B32, G, 0xF0F0u, 0xFF00u, 0), 0xF000u);
    assert_int_equal(atom(PTX_SUB_ATOM_OR, PTX_T_B32, G, 0xF0F0u, 0x0F00u, 0), 0xFFF0u);
    assert_int_equal(atom(PTX_SUB_ATOM_XOR, PTX_T_B32, G, 0xF0F0u, 0xFFFFu, 0), 0x0F0Fu);
    assert_int_equal(atom(PTX_SUB_ATOM_OR, PTX_T_B64, G, 1, 0x8000000000000000ull, 0), 0x8000000000000001ull);
    assert_int_equal(atom(PTX_SUB_ATOM_XOR, PTX_T_B64, G, ~0ull, 0xFFFF0000FFFF0000ull, 0), 0x0000FFFF0000FFFFull);
}

static uint64_t addf(ptx_space s, uint32_t a, uint32_t b) { return atom(PTX_SUB_ATOM_ADD, PTX_T_F32, s, a, b, 0); }

#define SUB 0x00400000u      /* 2^-127, subnormal */
#define TINY 0x00000001u     /* 2^-149 */
#define MINN 0x00800000u     /* 2^-126 */

/* Every expected value below was read on an H200 (probe line "atomf"). */
static void test_add_f32_global_flushes(void **state)
{
    (void)state;
    assert_int_equal(addf(G, 0, SUB), 0);
    assert_int_equal(addf(G, SUB, 0), 0);
    assert_int_equal(addf(G, SUB, SUB), 0);                  /* inputs flushed first */
    assert_int_equal(addf(G, MINN, TINY | 0x80000000u), MINN);
    assert_int_equal(addf(PTX_SPACE_NONE, SUB, SUB), 0);     /* generic: as global */
    /* a normal result that is exact */
    assert_int_equal(addf(G, 0x3F800000u, 0x40000000u), 0x40400000u);   /* 1 + 2 = 3 */
}

static void test_add_f32_shared_keeps_subnormals(void **state)
{
    (void)state;
    assert_int_equal(addf(S, 0, SUB), SUB);
    assert_int_equal(addf(S, SUB, SUB), MINN);
    assert_int_equal(addf(S, MINN, TINY | 0x80000000u), 0x007FFFFFu);
}

static void test_add_f32_rounding_and_nan(void **state)
{
    (void)state;
    assert_int_equal(addf(G, 0x3F800000u, 0x33800001u), 0x3F800001u);  /* above half an ulp: up */
    assert_int_equal(addf(G, 0x3F800000u, 0x33800000u), 0x3F800000u);  /* tie, to even */
    assert_int_equal(addf(G, 0x3F800001u, 0x33800000u), 0x3F800002u);  /* tie, to even (up) */
    assert_int_equal(addf(G, 0x7F800000u, 0xFF800000u), 0x7FFFFFFFu);  /* inf - inf */
    assert_int_equal(addf(G, 0x7FC00001u, 0x3F800000u), 0x7FFFFFFFu);  /* NaN payload dropped */
}

static void test_add_f64(void **state)
{
    (void)state;
    /* 2^-1074 + 2^-1074 = 2^-1073: no flush in f64 (probe: 0x...02) */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_F64, G, 1, 1, 0), 2);
    /* 0.1 + 0.2 = 0x3FD3333333333334 in IEEE double */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_F64, G, 0x3FB999999999999Aull, 0x3FC999999999999Aull, 0),
                     0x3FD3333333333334ull);
}

static void test_add_half(void **state)
{
    (void)state;
    /* f16: 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200; 2048 + 1 ties to 2048 */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_F16, G, 0x3C00u, 0x4000u, 0), 0x4200u);
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_F16, G, 0x6800u, 0x3C00u, 0), 0x6800u);
    /* 2^-24 + 2^-24 = 2^-23: subnormals kept (.noftz) */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_F16, G, 0x0001u, 0x0001u, 0), 0x0002u);
    /* f16x2 adds each half: {1, 2} + {2, 1} = {3, 3} */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_F16X2, G, 0x40003C00u, 0x3C004000u, 0), 0x42004200u);
    /* bf16: 1.0 = 0x3F80; 256 + 1 = 257 ties to 256 (8 significant bits) */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_BF16, G, 0x3F80u, 0x3F80u, 0), 0x4000u);
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_BF16, G, 0x4380u, 0x3F80u, 0), 0x4380u);
    /* 256 + 3 = 259 -> 260 (0x4382), nearest */
    assert_int_equal(atom(PTX_SUB_ATOM_ADD, PTX_T_BF16, G, 0x4380u, 0x4040u, 0), 0x4382u);
}

static void test_min_max_f32(void **state)
{
    (void)state;
    ptx_subop mn = PTX_SUB_ATOM_MIN, mx = PTX_SUB_ATOM_MAX;
    assert_int_equal(atom(mn, PTX_T_F32, G, 0x3F800000u, 0x7FC00000u, 0), 0x3F800000u);   /* min(1, NaN) = 1 */
    assert_int_equal(atom(mn, PTX_T_F32, G, 0x7FC00000u, 0x40000000u, 0), 0x40000000u);
    assert_int_equal(atom(mn, PTX_T_F32, G, 0x00000000u, 0x80000000u, 0), 0x80000000u);   /* -0 < +0 */
    assert_int_equal(atom(mx, PTX_T_F32, G, 0x80000000u, 0x00000000u, 0), 0x00000000u);
    assert_int_equal(atom(mx, PTX_T_F32, G, 0x40400000u, 0xC0A00000u, 0), 0x40400000u);   /* max(3, -5) */
    assert_int_equal(atom(mn, PTX_T_F32, G, 0x40400000u, 0xC0A00000u, 0), 0xC0A00000u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_int_wraps),
        cmocka_unit_test(test_min_max_signedness),
        cmocka_unit_test(test_exch_cas),
        cmocka_unit_test(test_inc_dec_wrap),
        cmocka_unit_test(test_bitwise),
        cmocka_unit_test(test_add_f32_global_flushes),
        cmocka_unit_test(test_add_f32_shared_keeps_subnormals),
        cmocka_unit_test(test_add_f32_rounding_and_nan),
        cmocka_unit_test(test_add_f64),
        cmocka_unit_test(test_add_half),
        cmocka_unit_test(test_min_max_f32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
