/* ptx_target_fits: which compute capabilities run PTX of a given .target
 * (CUDA C Programming Guide, "PTX Compatibility": PTX for sm_XY is
 * JIT-compiled for X.Y and later; sm_XYa only for X.Y; sm_XYf for the
 * same major from X.Y on). */
#include "frontend/ptx/ptx_query.h"
#include "ptx_test_util.h"

static bool fits(const char *target, int major, int minor)
{
    ptx_module m;
    memset(&m, 0, sizeof m);
    snprintf(m.target, sizeof m.target, "%s", target);
    return ptx_target_fits(&m, major, minor, NULL, 0);
}

static void test_forward_compatible(void **state)
{
    (void)state;
    assert_true(fits("sm_80", 8, 0));
    assert_true(fits("sm_80", 8, 6));
    assert_true(fits("sm_80", 9, 0));
    assert_false(fits("sm_80", 7, 5));
    assert_false(fits("sm_90", 8, 0));
    assert_false(fits("sm_90", 8, 9));
    assert_true(fits("sm_90", 9, 0));
    assert_true(fits("sm_90", 10, 0));
    assert_false(fits("sm_100", 9, 0));
    assert_true(fits("sm_120", 12, 0));
    assert_false(fits("sm_120", 10, 0));
}

static void test_arch_and_family_specific(void **state)
{
    (void)state;
    assert_true(fits("sm_90a", 9, 0));
    assert_false(fits("sm_90a", 10, 0));
    assert_false(fits("sm_90a", 8, 0));
    assert_true(fits("sm_100f", 10, 3));
    assert_false(fits("sm_100f", 12, 0));
    assert_false(fits("sm_103f", 10, 0));
}

static void test_unknown_targets_fit(void **state)
{
    (void)state;
    assert_true(fits("", 8, 0));
    assert_true(fits("compute_90", 8, 0));
    assert_true(fits("sm_9x", 8, 0));
}

static void test_reason(void **state)
{
    (void)state;
    ptx_module m;
    memset(&m, 0, sizeof m);
    char why[256] = "";
    snprintf(m.target, sizeof m.target, "sm_90");
    assert_false(ptx_target_fits(&m, 8, 0, why, sizeof why));
    assert_string_equal(why, "the PTX targets sm_90, which needs compute capability 9.0 or later; the device has 8.0");
    snprintf(m.target, sizeof m.target, "sm_90a");
    assert_false(ptx_target_fits(&m, 10, 0, why, sizeof why));
    assert_string_equal(why, "the PTX targets sm_90a, which needs compute capability 9.0 exactly; the device has 10.0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_compatible),
        cmocka_unit_test(test_arch_and_family_specific),
        cmocka_unit_test(test_unknown_targets_fit),
        cmocka_unit_test(test_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
