/* shfl.sync against the PTX ISA's rules (worked by hand below) and against
 * the values an H200 produced (data/gpu_probe_sm90.txt). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

#define FULL 0xFFFFFFFFu

static void fill(uint64_t row[32], uint64_t v) { for (int i = 0; i < 32; i++) row[i] = v; }

static void shfl(ptx_subop mode, uint32_t mask, const uint64_t a[32], uint32_t b, uint32_t c,
                 uint64_t d[32], uint64_t p[32])
{
    uint64_t br[32], cr[32];
    fill(br, b);
    fill(cr, c);
    ws_shfl_exec(mode, mask, a, br, cr, d, p);
}

/* The warp-sum idiom of the reduction lab: v += __shfl_down_sync(~0, v, off)
 * for off = 16..1; nvcc passes c = 31 (see tests/ptx/data/reduce_shfl_sm80.ptx).
 * Lane 0 ends with 1 + 2 + ... + 32 = 528. */
static void test_reduction_tree_down(void **state)
{
    (void)state;
    uint64_t v[32], d[32], p[32];
    for (int i = 0; i < 32; i++) v[i] = (uint64_t)(i + 1);
    for (uint32_t off = 16; off > 0; off >>= 1) {
        shfl(PTX_SUB_SHFL_DOWN, FULL, v, off, 31, d, p);
        for (int i = 0; i < 32; i++) {
            /* in range exactly when lane + off <= 31 */
            assert_int_equal(p[i], (uint64_t)(i + (int)off <= 31));
            v[i] = (v[i] + d[i]) & 0xFFFFFFFFu;
        }
    }
    assert_int_equal(v[0], 528);
}

static void test_broadcast_idx(void **state)
{
    (void)state;
    uint64_t a[32], d[32], p[32];
    for (int i = 0; i < 32; i++) a[i] = 1000u + (uint64_t)i;
    shfl(PTX_SUB_SHFL_IDX, FULL, a, 5, 31, d, p);
    for (int i = 0; i < 32; i++) { assert_int_equal(d[i], 1005); assert_int_equal(p[i], 1); }
    /* b is taken modulo 32: b = 37 reads lane 5 too */
    shfl(PTX_SUB_SHFL_IDX, FULL, a, 37, 31, d, p);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], 1005);
}

/* Butterfly: lane i reads lane i ^ b; after xor 16, 8, 4, 2, 1 every lane
 * holds the sum of all. */
static void test_bfly_allreduce(void **state)
{
    (void)state;
    uint64_t v[32], d[32], p[32];
    shfl(PTX_SUB_SHFL_BFLY, FULL, (uint64_t[32]){[3] = 7, [4] = 9}, 1, 31, d, p);
    assert_int_equal(d[2], 7);   /* 2 ^ 1 = 3 */
    assert_int_equal(d[5], 9);   /* 5 ^ 1 = 4 */
    for (int i = 0; i < 32; i++) v[i] = (uint64_t)(i * i);
    for (uint32_t m = 16; m > 0; m >>= 1) {
        shfl(PTX_SUB_SHFL_BFLY, FULL, v, m, 31, d, p);
        for (int i = 0; i < 32; i++) { assert_int_equal(p[i], 1); v[i] += d[i]; }
    }
    for (int i = 0; i < 32; i++) assert_int_equal(v[i], 10416);   /* sum of i^2, i < 32 */
}

/* width = 16, as nvcc compiles __shfl_*_sync(mask, v, x, 16): c = 0x101F for
 * down, xor and idx, c = 0x1000 for up (checked with nvcc 13.0 -ptx).
 * segmask = 0x10, so lanes 0..15 and 16..31 are separate segments. */
static void test_width16_subwarps(void **state)
{
    (void)state;
    uint64_t a[32], d[32], p[32];
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)i;

    shfl(PTX_SUB_SHFL_DOWN, FULL, a, 1, 0x101F, d, p);
    for (int i = 0; i < 32; i++) {
        bool last = (i % 16) == 15;    /* maxLane = segment start + 15 */
        assert_int_equal(d[i], last ? (uint64_t)i : (uint64_t)(i + 1));
        assert_int_equal(p[i], !last);
    }
    shfl(PTX_SUB_SHFL_UP, FULL, a, 2, 0x1000, d, p);
    for (int i = 0; i < 32; i++) {
        bool first = (i % 16) < 2;     /* j = lane - 2 below the segment start */
        assert_int_equal(d[i], first ? (uint64_t)i : (uint64_t)(i - 2));
        assert_int_equal(p[i], !first);
    }
    shfl(PTX_SUB_SHFL_IDX, FULL, a, 3, 0x101F, d, p);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], i < 16 ? 3 : 19);
    shfl(PTX_SUB_SHFL_BFLY, FULL, a, 16, 0x101F, d, p);
    /* lane ^ 16 leaves the segment: lanes 0..15 get j > maxLane = 15 */
    for (int i = 0; i < 16; i++) { assert_int_equal(d[i], i); assert_int_equal(p[i], 0); }
    /* lanes 16..31: maxLane = 31, j = lane - 16 is <= 31, so it is taken */
    for (int i = 16; i < 32; i++) { assert_int_equal(d[i], i - 16); assert_int_equal(p[i], 1); }
}

/* width = 8 idx: c = ((32 - 8) << 8) | 31 = 0x181F; b = 7 reads the last lane
 * of each group of 8. */
static void test_width8_idx(void **state)
{
    (void)state;
    uint64_t a[32], d[32], p[32];
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)(50 + i);
    shfl(PTX_SUB_SHFL_IDX, FULL, a, 7, 0x181F, d, p);
    for (int i = 0; i < 32; i++) assert_int_equal(d[i], 50 + (i / 8) * 8 + 7);
}

/* Only the lanes in exec_mask are written; a source lane in range but
 * outside exec_mask gives 0 and p = 1, what the ISA leaves undefined and an
 * H200 gives (validation/results/h200_issue8_probes.txt, partialShfl). */
static void test_partial_mask(void **state)
{
    (void)state;
    uint64_t a[32], d[32], p[32];
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)(100 + i);
    fill(d, 0xEE);
    fill(p, 0xEE);
    shfl(PTX_SUB_SHFL_DOWN, 0x55555555u, a, 2, 31, d, p);
    for (int i = 0; i < 32; i++) {
        if (i & 1) { assert_int_equal(d[i], 0xEE); assert_int_equal(p[i], 0xEE); continue; }
        if (i == 30) { assert_int_equal(d[i], 130); assert_int_equal(p[i], 0); continue; }
        assert_int_equal(d[i], 100 + i + 2);
        assert_int_equal(p[i], 1);
    }
    shfl(PTX_SUB_SHFL_DOWN, 0x55555555u, a, 1, 31, d, p);
    for (int i = 0; i < 32; i += 2) {       /* every source lane is odd: none takes part */
        assert_int_equal(d[i], 0);
        assert_int_equal(p[i], 1);
    }
}

/* d may be the same row as a; a NULL p is allowed.  Each lane's own b is used. */
static void test_in_place_and_per_lane_b(void **state)
{
    (void)state;
    uint64_t v[32], b[32], c[32];
    for (int i = 0; i < 32; i++) { v[i] = (uint64_t)i; b[i] = (uint64_t)(31 - i); c[i] = 31; }
    ws_shfl_exec(PTX_SUB_SHFL_IDX, FULL, v, b, c, v, NULL);
    for (int i = 0; i < 32; i++) assert_int_equal(v[i], 31 - i);
}

/* Replays every full-warp case of the H200 probe: a = 100 + lane, results
 * written there as "(d - 100)/p" per lane. */
static void test_gpu_probe_replay(void **state)
{
    (void)state;
    FILE *f = fopen(WARPSIM_TEST_DATA "/gpu_probe_sm90.txt", "r");
    assert_non_null(f);
    char line[4096];
    int cases = 0;
    static const ptx_subop modes[] = { PTX_SUB_SHFL_UP, PTX_SUB_SHFL_DOWN, PTX_SUB_SHFL_BFLY, PTX_SUB_SHFL_IDX };
    while (fgets(line, sizeof line, f)) {
        int mode, n;
        unsigned b, c;
        if (sscanf(line, "shfl mode=%d b=%u c=0x%x:%n", &mode, &b, &c, &n) != 3) continue;
        uint64_t a[32], d[32], p[32];
        for (int i = 0; i < 32; i++) a[i] = (uint64_t)(100 + i);
        shfl(modes[mode], FULL, a, b, c, d, p);
        const char *s = line + n;
        for (int i = 0; i < 32; i++) {
            int dv, pv, used;
            assert_int_equal(sscanf(s, " %d/%d%n", &dv, &pv, &used), 2);
            s += used;
            if (d[i] != (uint64_t)(dv + 100) || p[i] != (uint64_t)pv)
                fail_msg("mode %d b=%u c=0x%x lane %d: got %d/%d, GPU %d/%d", mode, b, c, i,
                         (int)d[i] - 100, (int)p[i], dv, pv);
        }
        cases++;
    }
    fclose(f);
    assert_true(cases >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduction_tree_down),
        cmocka_unit_test(test_broadcast_idx),
        cmocka_unit_test(test_bfly_allreduce),
        cmocka_unit_test(test_width16_subwarps),
        cmocka_unit_test(test_width8_idx),
        cmocka_unit_test(test_partial_mask),
        cmocka_unit_test(test_in_place_and_per_lane_b),
        cmocka_unit_test(test_gpu_probe_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
