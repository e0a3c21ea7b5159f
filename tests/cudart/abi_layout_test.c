/* warpsim's declarations of the CUDA runtime types (cudart_abi.h) against
 * the toolkit's: struct sizes and field offsets must be equal, or a
 * program built with nvcc would read cudaGetDeviceProperties wrongly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "abi_fields.h"

static void layouts_agree(void **state)
{
    (void)state;
    size_t ours[128], theirs[128];
    int n1 = 0, n2 = 0;
    abi_layout_ours(ours, &n1);
    abi_layout_toolkit(theirs, &n2);
    assert_int_equal(n1, n2);
    assert_true(n1 > 30);
    for (int i = 0; i < n1; i++) {
        if (ours[i] != theirs[i]) fail_msg("layout item %d: warpsim %zu, toolkit %zu", i, ours[i], theirs[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(layouts_agree)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
