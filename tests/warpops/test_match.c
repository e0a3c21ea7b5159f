/* match.sync: which lanes share a value, worked by hand over full and
 * partial masks, .b32 (the low 32 bits) and .b64. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

static void run(ptx_subop mode, ptx_type t, uint32_t mask, const uint64_t a[32],
                uint64_t d[32], uint64_t p[32])
{
    for (int i = 0; i < 32; i++) { d[i] = 0xAB; if (p) p[i] = 0xAB; }
    ws_match_exec(mode, t, mask, a, d, p);
    for (int i = 0; i < 32; i++)
        if (!((mask >> i) & 1u)) {
            assert_int_equal(d[i], 0xAB);
            if (p) assert_int_equal(p[i], 0xAB);
        }
}

/* a = lane % 3: three classes of lanes. */
static void test_any_mod3(void **state)
{
    (void)state;
    uint64_t a[32], d[32];
    uint32_t cls[3] = {0, 0, 0};
    for (int i = 0; i < 32; i++) { a[i] = (uint64_t)(i % 3); cls[i % 3] |= UINT32_C(1) << i; }
    assert_int_equal(cls[0], 0x49249249u);
    run(PTX_SUB_VOTE_ANY, PTX_T_B32, 0xFFFFFFFFu, a, d, NULL);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], cls[i % 3]);
    /* lanes 0..7: 0 3 6 / 1 4 7 / 2 5 */
    run(PTX_SUB_VOTE_ANY, PTX_T_B32, 0xFFu, a, d, NULL);
    assert_int_equal(d[0], 0x49u);
    assert_int_equal(d[4], 0x92u);
    assert_int_equal(d[5], 0x24u);
}

static void test_width_of_comparison(void **state)
{
    (void)state;
    uint64_t a[32], d[32];
    /* same low 32 bits, different high bits: equal as .b32, not as .b64 */
    for (int i = 0; i < 32; i++) a[i] = ((uint64_t)(i & 1) << 32) | 0x1234u;
    run(PTX_SUB_VOTE_ANY, PTX_T_B32, 0xFFFFFFFFu, a, d, NULL);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], 0xFFFFFFFFu);
    run(PTX_SUB_VOTE_ANY, PTX_T_B64, 0xFFFFFFFFu, a, d, NULL);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], (i & 1) ? 0xAAAAAAAAu : 0x55555555u);
}

static void test_all(void **state)
{
    (void)state;
    uint64_t a[32], d[32], p[32];
    for (int i = 0; i < 32; i++) a[i] = i < 16 ? 7 : 9;
    run(PTX_SUB_VOTE_ALL, PTX_T_B32, 0xFFFFFFFFu, a, d, p);
    for (int i = 0; i < 32; i++) { assert_int_equal(d[i], 0); assert_int_equal(p[i], 0); }
    run(PTX_SUB_VOTE_ALL, PTX_T_B32, 0x0000FF00u, a, d, p);     /* lanes 8..15 all hold 7 */
    for (int i = 8; i < 16; i++) { assert_int_equal(d[i], 0x0000FF00u); assert_int_equal(p[i], 1); }
    run(PTX_SUB_VOTE_ALL, PTX_T_B64, 0x00018000u, a, d, p);     /* lanes 15 and 16: 7 and 9 */
    assert_int_equal(d[15], 0);
    assert_int_equal(p[16], 0);
    run(PTX_SUB_VOTE_ALL, PTX_T_B32, 0x80000000u, a, d, NULL);  /* one lane, no p */
    assert_int_equal(d[31], 0x80000000u);
}

/* d may be the same row as a (match.any.sync.b32 %r1, %r1, ...). */
static void test_in_place(void **state)
{
    (void)state;
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)(i / 8);
    ws_match_exec(PTX_SUB_VOTE_ANY, PTX_T_B32, 0xFFFFFFFFu, a, a, NULL);
    for (int i = 0; i < 32; i++) assert_int_equal(a[i], UINT32_C(0xFF) << (i / 8 * 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_any_mod3),
        cmocka_unit_test(test_width_of_comparison),
        cmocka_unit_test(test_all),
        cmocka_unit_test(test_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
