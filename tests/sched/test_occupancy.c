/* The occupancy rule on the course's worked examples (hand-checked), and
 * the two rules side by side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim/base/gpu_config.h"
#include "sim/sched/occupancy.h"
#include "sim/sched/occupancy_report.h"

static void load(const char *name, ws_gpu_config *g)
{
    char err[1024];
    if (ws_gpu_config_load(name, g, err, sizeof err))
        fail_msg("%s", err);
}

static ws_occ_input kernel(int32_t threads, int32_t regs, uint64_t smem)
{
    ws_occ_input in = {threads, regs, smem, 0, WS_OCC_CARVEOUT_DEFAULT, false, false};
    return in;
}

/* sm_90, 256 threads, 34 registers: 34*32 = 1088 -> 1280 per warp; 16384
 * per sub-partition hold 12 warps, 48 per SM, 6 blocks of 8 warps: 75 %.
 * Textbook: 65536 / (34*256) = 7.5 -> 7 blocks, 56 warps: 87.5 %. */
static void test_sm90_256x34(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("h100", &g);
    ws_occ_input in = kernel(256, 34, 0);
    ws_occ_result hw, tb;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &hw);
    ws_occupancy(&g, &in, WS_OCC_TEXTBOOK, &tb);
    assert_int_equal(hw.blocks_per_sm, 6);
    assert_int_equal(hw.active_warps, 48);
    assert_int_equal(hw.max_warps, 64);
    assert_true(hw.occupancy == 0.75);
    assert_int_equal(hw.limiter, WS_OCC_REGISTERS);
    assert_int_equal(hw.regs_per_warp, 1280);
    assert_int_equal(hw.warps_per_subpartition, 12);
    assert_int_equal(tb.blocks_per_sm, 7);
    assert_int_equal(tb.active_warps, 56);
    assert_true(tb.occupancy == 0.875);
    assert_int_equal(tb.limiter, WS_OCC_REGISTERS);

    char why[2048];
    assert_true(ws_occ_explain_difference(&g, &in, &hw, &tb, why, sizeof why) > 0);
    assert_non_null(strstr(why, "hardware 6 blocks (75.0 %), textbook 7 blocks (87.5 %)"));
    assert_non_null(strstr(why, "registers:"));
    assert_null(strstr(why, "shared memory:"));
}

/* A 48-thread block is 2 warps (the second partial).  On sm_75 (32 warp
 * slots, 16 block slots): 16 blocks, 32 warps; with 64 registers, one warp
 * takes 2048 registers, a sub-partition 8 warps, the SM 32: still 16. */
static void test_partial_warp(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("rtx2080ti", &g);
    ws_occ_input in = kernel(48, 64, 0);
    ws_occ_result r;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.warps_per_block, 2);
    assert_int_equal(r.limits[WS_OCC_WARPS], 16);
    assert_int_equal(r.limits[WS_OCC_REGISTERS], 16);
    assert_int_equal(r.blocks_per_sm, 16);
    assert_int_equal(r.active_warps, 32);
    /* 72 threads: 3 warps, 32 / 3 = 10 blocks, 30 warps. */
    in.threads = 72;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.blocks_per_sm, 10);
    assert_int_equal(r.active_warps, 30);
    assert_int_equal(r.limiter, WS_OCC_WARPS);
}

/* sm_80 reserves 1 KB per block: 128 threads with 16 KB static shared
 * memory take 17 KB each, so 164 KB hold 9 blocks (the textbook: 10). */
static void test_reserved_1kb(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("a100", &g);
    ws_occ_input in = kernel(128, 32, 16384);
    ws_occ_result hw, tb;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &hw);
    ws_occupancy(&g, &in, WS_OCC_TEXTBOOK, &tb);
    assert_int_equal(hw.smem_per_block, 17408);
    assert_int_equal(hw.smem_per_sm, 167936);
    assert_int_equal(hw.blocks_per_sm, 9);
    assert_int_equal(hw.limiter, WS_OCC_SHARED_MEMORY);
    assert_int_equal(tb.blocks_per_sm, 10);
    /* sm_75 reserves nothing and allocates in 256 B: 16 KB -> 64/16 = 4. */
    load("rtx2080ti", &g);
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &hw);
    assert_int_equal(hw.smem_per_block, 16384);
    assert_int_equal(hw.blocks_per_sm, 4);
    /* 1 byte of shared memory is a whole 256 B unit there. */
    in.static_smem = 1;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &hw);
    assert_int_equal(hw.smem_per_block, 256);
}

/* A carve-out preference picks a step; a block bigger than it makes the
 * driver take the step that holds one block. */
static void test_carveout(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("a100", &g);
    ws_occ_input in = kernel(64, 16, 10000);
    in.carveout = 50;   /* 50 % of 164 KB = 82 KB -> the 100 KB step */
    ws_occ_result r;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.smem_per_block, 11136);     /* 10000 + 1024 -> 11136 */
    assert_int_equal(r.smem_per_sm, 100 * 1024);
    assert_int_equal(r.blocks_per_sm, 9);          /* 102400 / 11136 */
    in.carveout = 0;    /* no shared memory preferred: one block's step (16 KB) */
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.smem_per_sm, 16 * 1024);
    assert_int_equal(r.blocks_per_sm, 1);
    assert_int_equal(ws_occ_carveout_capacity(&g, 100), 164 * 1024);
    assert_int_equal(ws_occ_carveout_capacity(&g, WS_OCC_CARVEOUT_DEFAULT), 164 * 1024);
}

/* Blocks that can never run are the runtime's launch errors. */
static void test_launch_errors(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("a100", &g);
    ws_occ_result r;
    ws_occ_input in = kernel(1025, 16, 0);
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_ERR_THREADS);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_string_equal(ws_occ_error_cuda_name(r.error), "cudaErrorInvalidConfiguration");

    /* 1024 x 64 = 65536 fits exactly; 1024 x 65 does not. */
    in = kernel(1024, 64, 0);
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_OK);
    assert_int_equal(r.blocks_per_sm, 1);
    in.regs = 65;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_ERR_REGISTERS);
    assert_int_equal(r.limiter, WS_OCC_REGISTERS);
    assert_string_equal(ws_occ_error_cuda_string(r.error), "too many resources requested for launch");
    /* 1000 threads x 65 registers: 65536 > 65000, so the textbook fits
     * it, but 32 warps of 2304 registers do not. */
    in.threads = 1000;
    ws_occupancy(&g, &in, WS_OCC_TEXTBOOK, &r);
    assert_int_equal(r.error, WS_OCC_ERR_REGISTERS);

    /* 48 KB of dynamic shared memory fits without opt-in, one byte more
     * does not; with opt-in up to 163 KB does. */
    in = kernel(128, 16, 0);
    in.dynamic_smem = 49152;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_OK);
    in.dynamic_smem = 49153;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_ERR_SHARED_MEMORY);
    assert_string_equal(ws_occ_error_cuda_name(r.error), "cudaErrorInvalidValue");
    in.optin = true;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_OK);
    assert_int_equal(r.blocks_per_sm, 3);    /* 50304 B per block in 164 KB */
    in.dynamic_smem = 166912 + 1;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_ERR_SHARED_MEMORY);

    in = kernel(128, 16, 49153);
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.error, WS_OCC_ERR_STATIC_SMEM);
}

/* The teaching GPU: 32 warps, 32 K registers, 32 KB shared memory. */
static void test_teaching(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("teaching", &g);
    /* 256 threads x 32 registers: 1024 per warp, 8 warps per sub-partition,
     * 32 per SM, 4 blocks = 100 %; 33 registers: 1280, 6 -> 24 warps, 3 blocks. */
    ws_occ_input in = kernel(256, 32, 0);
    ws_occ_result r;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.blocks_per_sm, 4);
    assert_true(r.occupancy == 1.0);
    assert_int_equal(r.limiting, (1u << WS_OCC_WARPS) | (1u << WS_OCC_REGISTERS));
    assert_int_equal(r.limiter, WS_OCC_WARPS);
    in.regs = 33;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.blocks_per_sm, 3);
    assert_true(r.occupancy == 0.75);
    /* 7 KB static: 8 KB per block with the reserved 1 KB: 4 blocks. */
    in = kernel(64, 16, 7 * 1024);
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    assert_int_equal(r.blocks_per_sm, 4);
    assert_int_equal(r.limiter, WS_OCC_SHARED_MEMORY);
}

static void test_json(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("h100", &g);
    ws_occ_input in = kernel(256, 34, 0);
    ws_occ_result r;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &r);
    char buf[1024] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    ws_occ_print_json(f, &r);
    fclose(f);
    assert_string_equal(buf,
        "{\"blocks_per_sm\": 6, \"active_warps\": 48, \"max_warps\": 64, \"occupancy\": 0.75, "
        "\"limiter\": \"registers\", \"limits\": {\"warps\": 8, \"registers\": 6, "
        "\"shared_memory\": 228, \"blocks\": 32}, \"rule\": \"hardware\"}");
}

static void test_sweep(void **state)
{
    (void)state;
    ws_gpu_config g;
    load("a100", &g);
    ws_occ_input in = kernel(256, 34, 0);
    ws_occ_sweep_point pts[300];
    size_t n = ws_occ_sweep(&g, &in, WS_SWEEP_REGS, pts, 300);
    assert_int_equal(n, 256);   /* 0..255 */
    assert_int_equal(pts[34].x, 34);
    assert_int_equal(pts[34].hw.blocks_per_sm, 6);
    assert_int_equal(pts[34].tb.blocks_per_sm, 7);
    assert_int_equal(ws_occ_sweep(&g, &in, WS_SWEEP_THREADS, NULL, 0), 1024);
    assert_int_equal(ws_occ_sweep(&g, &in, WS_SWEEP_SMEM, NULL, 0), 49152 / 128 + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sm90_256x34),
        cmocka_unit_test(test_partial_warp),
        cmocka_unit_test(test_reserved_1kb),
        cmocka_unit_test(test_carveout),
        cmocka_unit_test(test_launch_errors),
        cmocka_unit_test(test_teaching),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
