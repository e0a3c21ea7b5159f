/* redux.sync: reductions over partial masks, against sums, minima and bit
 * operations worked out lane by lane here, and the forms it refuses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

static ptx_mods rmods(ptx_subop op, ptx_type t)
{
    ptx_mods m;
    memset(&m, 0, sizeof m);
    m.op = PTX_OP_REDUX;
    m.subop = (uint8_t)op;
    m.types[0] = t;
    m.ntypes = 1;
    m.flags = PTX_F_SYNC;
    return m;
}

/* Runs the reduction and checks that every lane of mask got the same value
 * and no other lane was written. */
static uint64_t redux(ptx_subop op, ptx_type t, uint32_t mask, const uint64_t a[32])
{
    ptx_mods m = rmods(op, t);
    uint64_t d[32];
    for (int i = 0; i < 32; i++) d[i] = 0xAB;
    ws_redux_exec(&m, mask, a, d);
    uint64_t r = 0xAB;
    for (int i = 0; i < 32; i++) {
        if (!((mask >> i) & 1u)) { assert_int_equal(d[i], 0xAB); continue; }
        if (r == 0xAB) r = d[i];
        assert_int_equal(d[i], r);
    }
    return r;
}

static void test_add_wraps_modulo_2_32(void **state)
{
    (void)state;
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = 0x10000000u + (uint64_t)i;
    /* 32 * 0x10000000 = 2^33 vanishes; 0 + 1 + ... + 31 = 496 remains */
    assert_int_equal(redux(PTX_SUB_ATOM_ADD, PTX_T_S32, 0xFFFFFFFFu, a), 496);
    assert_int_equal(redux(PTX_SUB_ATOM_ADD, PTX_T_U32, 0xFFFFFFFFu, a), 496);
    /* lanes 1, 3, 5: 3 * 0x10000000 + 9 */
    assert_int_equal(redux(PTX_SUB_ATOM_ADD, PTX_T_U32, 0x2Au, a), 0x30000009u);
    /* -5 + 3 as 32-bit values: 0xFFFFFFFE */
    uint64_t b[32] = {[0] = 0xFFFFFFFBu, [9] = 3};
    assert_int_equal(redux(PTX_SUB_ATOM_ADD, PTX_T_S32, 0x201u, b), 0xFFFFFFFEu);
}

static void test_min_max_signedness(void **state)
{
    (void)state;
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)(uint32_t)(i * 7 - 100);   /* -100 .. 117 */
    assert_int_equal(redux(PTX_SUB_ATOM_MIN, PTX_T_S32, 0xFFFFFFFFu, a), (uint32_t)-100);
    assert_int_equal(redux(PTX_SUB_ATOM_MAX, PTX_T_S32, 0xFFFFFFFFu, a), 117);
    /* as u32 the negative values are the largest: min is 5 (lane 15), max is -2 (lane 14) */
    assert_int_equal(redux(PTX_SUB_ATOM_MIN, PTX_T_U32, 0xFFFFFFFFu, a), 5);
    assert_int_equal(redux(PTX_SUB_ATOM_MAX, PTX_T_U32, 0xFFFFFFFFu, a), (uint32_t)-2);
    /* lanes 20..23 only: 40, 47, 54, 61 */
    assert_int_equal(redux(PTX_SUB_ATOM_MIN, PTX_T_S32, 0x00F00000u, a), 40);
    assert_int_equal(redux(PTX_SUB_ATOM_MAX, PTX_T_U32, 0x00F00000u, a), 61);
    /* one lane: its own value */
    assert_int_equal(redux(PTX_SUB_ATOM_MAX, PTX_T_S32, 0x1u, a), (uint32_t)-100);
}

static void test_bitwise(void **state)
{
    (void)state;
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = (UINT32_C(1) << i) | 0x80000000u;
    assert_int_equal(redux(PTX_SUB_ATOM_OR, PTX_T_B32, 0xFFFFFFFFu, a), 0xFFFFFFFFu);
    assert_int_equal(redux(PTX_SUB_ATOM_AND, PTX_T_B32, 0xFFFFFFFFu, a), 0x80000000u);
    /* lanes 0..3: bits 0..3 once each, bit 31 four times (even) */
    assert_int_equal(redux(PTX_SUB_ATOM_XOR, PTX_T_B32, 0xFu, a), 0xFu);
    assert_int_equal(redux(PTX_SUB_ATOM_XOR, PTX_T_B32, 0x7u, a), 0x80000007u);
    assert_int_equal(redux(PTX_SUB_ATOM_AND, PTX_T_B32, 0x3u, a), 0x80000000u);
}

static void test_empty_mask_writes_nothing(void **state)
{
    (void)state;
    uint64_t a[32] = {0}, d[32];
    for (int i = 0; i < 32; i++) d[i] = 0xAB;
    ptx_mods m = rmods(PTX_SUB_ATOM_ADD, PTX_T_U32);
    ws_redux_exec(&m, 0, a, d);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], 0xAB);
}

static void test_supported_forms(void **state)
{
    (void)state;
    char why[128];
    ptx_mods m = rmods(PTX_SUB_ATOM_ADD, PTX_T_S32);
    assert_true(ws_redux_supports(&m, why, sizeof why));
    m = rmods(PTX_SUB_ATOM_XOR, PTX_T_B32);
    assert_true(ws_redux_supports(&m, why, sizeof why));
    m = rmods(PTX_SUB_ATOM_AND, PTX_T_U32);
    assert_false(ws_redux_supports(&m, why, sizeof why));
    assert_string_equal(why, "and, or and xor take .b32");
    m = rmods(PTX_SUB_ATOM_MIN, PTX_T_B32);
    assert_false(ws_redux_supports(&m, why, sizeof why));
    assert_string_equal(why, "add, min and max take .u32 or .s32");
    m = rmods(PTX_SUB_ATOM_EXCH, PTX_T_B32);
    assert_false(ws_redux_supports(&m, why, sizeof why));
    m = rmods(PTX_SUB_ATOM_MIN, PTX_T_F32);
    m.flags |= PTX_F_ABS | PTX_F_NAN;
    assert_false(ws_redux_supports(&m, why, sizeof why));
    assert_string_equal(why, "redux.sync on .f32 is an sm_100a instruction, not supported");
    m = rmods(PTX_SUB_ATOM_ADD, PTX_T_S32);
    m.flags = 0;
    assert_false(ws_redux_supports(&m, why, sizeof why));
    assert_string_equal(why, "redux needs .sync");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_wraps_modulo_2_32),
        cmocka_unit_test(test_min_max_signedness),
        cmocka_unit_test(test_bitwise),
        cmocka_unit_test(test_empty_mask_writes_nothing),
        cmocka_unit_test(test_supported_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
