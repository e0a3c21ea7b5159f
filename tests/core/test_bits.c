/* ws_popcount32/64 against counting the bits one at a time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/base/bits.h"

static uint32_t by_bits(uint64_t x)
{
    uint32_t n = 0;
    for (int i = 0; i < 64; i++) n += (x >> i) & 1;
    return n;
}

static void test_popcount(void **state)
{
    (void)state;
    static const uint64_t edge[] = {0, 1, 0x80000000u, 0xFFFFFFFFu, 0x100000000ull, 0x8000000000000000ull,
                                    ~0ull, 0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull, 0x0F0F0F0F0F0F0F0Full};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        assert_int_equal(ws_popcount64(edge[i]), by_bits(edge[i]));
        assert_int_equal(ws_popcount32((uint32_t)edge[i]), by_bits((uint32_t)edge[i]));
    }
    uint64_t seed = 7;
    for (int i = 0; i < 100000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t x = seed & (seed >> (seed & 63));     /* sparse and dense words */
        assert_int_equal(ws_popcount64(x), by_bits(x));
        assert_int_equal(ws_popcount32((uint32_t)x), by_bits((uint32_t)x));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_popcount),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
