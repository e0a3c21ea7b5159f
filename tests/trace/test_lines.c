/* Per-pc counters and their sums per source line (sim/trace/lines.h), on a
 * hand-written kernel with .loc line info; expected values are worked out
 * by hand from the kernel (no nvcc needed; tests/lines checks nvcc's code). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core_util.h"
#include "sim/base/gpu_config.h"
#include "sim/core/timing.h"
#include "sim/trace/lines.h"

/* Line 5: each thread's word of a 32x32 float tile read by column
 * (tid * 128 B: every lane of a warp in bank 0, 32-way).  Line 6: lanes 0-9
 * of each warp branch past line 7.  Line 7: a store to out[2 * tid] (8 B
 * apart: 256 B per warp, 8 sectors where 4 would do). */
static const char kernel_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"/no/such/dir/tile.cu\"\n"
    ".shared .align 4 .b8 tile[4096];\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .f32 %f<2>;\n .reg .b64 %rd<4>;\n"
    " .loc 1 4 0\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " and.b32 %r6, %r1, 31;\n"
    " shl.b32 %r2, %r6, 7;\n"
    " mov.u32 %r3, tile;\n"
    " add.s32 %r4, %r3, %r2;\n"
    " .loc 1 5 0\n"
    " ld.shared.f32 %f1, [%r4];\n"
    " .loc 1 6 0\n"
    " setp.lt.u32 %p1, %r6, 10;\n"
    " @%p1 bra SKIP;\n"
    " .loc 1 7 0\n"
    " mul.wide.u32 %rd2, %r1, 8;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.f32 [%rd3], %f1;\n"
    "SKIP:\n"
    " .loc 1 8 0\n"
    " ret;\n}\n";

/* Runs k with 64 threads (2 warps), timed on the teaching GPU or not, the
 * per-pc counters kept in l; the JSON report into *json. */
static void run_lines(bool timed, ws_lines *lines, char **json, ws_launch_stats *st, ws_timing_stats *ts)
{
    tctx t;
    if (!t_load(&t, kernel_ptx, "lines.ptx")) fail_msg("%s", t.err.msg);
    static uint32_t zero[256];
    t_p64(&t, t_alloc(&t, zero, sizeof zero));
    const ws_kernel *k = ws_program_kernel(t.p, "k");
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(64, 1, 1), .params = t.params, .params_size = t.nparams,
                   .pc_counts = ws_lines_counters(lines, t.p, "k")};
    assert_non_null(l.pc_counts);
    bool ok;
    if (timed) {
        ws_gpu_config g;
        char err[512];
        if (ws_gpu_config_load("teaching", &g, err, sizeof err)) fail_msg("%s", err);
        ws_timing_options o = ws_timing_defaults();
        o.regs_per_thread = 16;
        ok = ws_launch_timed(t.p, k, &l, &g, &o, st, ts, &t.err);
    } else {
        ok = ws_launch_kernel(t.p, k, &l, st, &t.err);
    }
    if (!ok) fail_msg("%s", t.err.msg);
    t_free(&t);     /* the report must not need the program any more */
    size_t len;
    FILE *out = open_memstream(json, &len);
    assert_non_null(out);
    ws_lines_json(out, lines, timed);
    fclose(out);
}

/* The JSON object of line n. */
static const char *row(const char *json, int n)
{
    char key[32];
    snprintf(key, sizeof key, "\"line\":%d,", n);
    const char *p = strstr(json, key);
    if (!p) fail_msg("no row for line %d in %s", n, json);
    while (p > json && p[-1] != '\n') p--;
    return p;
}

static long long field(const char *obj, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *end = strchr(obj, '\n');
    const char *p = strstr(obj, key);
    if (!p || (end && p > end)) fail_msg("no %s in %.200s", name, obj);
    return atoll(p + strlen(key));
}

static void test_counts_per_line_functional(void **state)
{
    (void)state;
    ws_lines *lines = ws_lines_create();
    char *json;
    ws_launch_stats st;
    run_lines(false, lines, &json, &st, NULL);
    /* 2 warps read a column: 2 requests, 32 wavefronts each, 31 conflicts */
    const char *r5 = row(json, 5);
    assert_int_equal(field(r5, "shared_requests_ld"), 2);
    assert_int_equal(field(r5, "shared_wavefronts_ld"), 64);
    assert_int_equal(field(r5, "shared_bank_conflicts_ld"), 62);
    assert_int_equal(field(r5, "warp_instructions"), 2);
    /* line 4: six instructions per warp, every lane */
    const char *r4 = row(json, 4);
    assert_int_equal(field(r4, "warp_instructions"), 12);
    assert_int_equal(field(r4, "thread_instructions"), 12 * 32);
    /* line 6: one branch per warp, each splits the warp (10 lanes go) */
    const char *r6 = row(json, 6);
    assert_int_equal(field(r6, "branches"), 2);
    assert_int_equal(field(r6, "divergent_branches"), 2);
    /* line 7: 22 lanes of each warp; lanes 10-31 store 8 B apart: bytes
     * 80..255 of the warp's 256 B, sectors 2..7 = 6 of them; ideal
     * ceil(22 * 4 / 32) = 3 */
    const char *r7 = row(json, 7);
    assert_int_equal(field(r7, "warp_instructions"), 6);
    assert_int_equal(field(r7, "thread_instructions"), 6 * 22);
    assert_int_equal(field(r7, "global_st_requests"), 2);
    assert_int_equal(field(r7, "global_st_sectors"), 12);
    assert_int_equal(field(r7, "global_st_ideal_sectors"), 6);
    assert_non_null(strstr(r4, "\"file\":\"/no/such/dir/tile.cu\",\"line\":4,\"line_info\":\"cu\""));
    /* every warp instruction is on some line */
    long long sum = field(r4, "warp_instructions") + field(r5, "warp_instructions") +
                    field(r6, "warp_instructions") + field(r7, "warp_instructions") +
                    field(row(json, 8), "warp_instructions");
    assert_int_equal(sum, (long long)st.warp_insts);
    assert_null(strstr(json, "stall_cycles"));      /* functional: no stalls */
    free(json);
    ws_lines_free(lines);
}

static void test_stalls_per_line_sum_to_the_launch(void **state)
{
    (void)state;
    ws_lines *lines = ws_lines_create();
    char *json1;
    ws_launch_stats st;
    ws_timing_stats ts;
    run_lines(true, lines, &json1, &st, &ts);
    uint64_t stalls = 0;
    for (int i = 0; i < WS_STALL_COUNT; i++) stalls += ts.stall[i];
    long long per_line = 0;
    for (int n = 4; n <= 8; n++) per_line += field(row(json1, n), "stall_cycles");
    assert_int_equal(per_line, (long long)stalls);
    free(json1);
    ws_lines_free(lines);
}

static void test_text_names_the_conflict_first(void **state)
{
    (void)state;
    ws_lines *lines = ws_lines_create();
    char *json, *text;
    size_t len;
    ws_launch_stats st;
    run_lines(false, lines, &json, &st, NULL);
    FILE *out = open_memstream(&text, &len);
    ws_lines_text(out, lines, false);
    fclose(out);
    const char *worst = strstr(text, "far from ideal, worst first:\n");
    assert_non_null(worst);
    /* 62 extra wavefronts at line 5 outweigh 6 extra sectors at line 7 */
    assert_true(strncmp(strchr(worst, '\n') + 1, "  tile.cu:5  ", 13) == 0);
    assert_non_null(strstr(text, "32.0-way bank conflict on shared loads"));
    assert_non_null(strstr(text, "6.0 sectors per request where 3.0 would do: neighbouring threads write "
                               "addresses 8 B apart"));
    free(text);
    free(json);
    ws_lines_free(lines);
}

/* Line 3 loads in[tid]: 2 warps, 4 sectors each, never seen before, so
 * no L1 hit.  Line 4 loads in[tid] again: the same 8 sectors, each in L1
 * now (or on its way there), so 8 hits and nothing reaches L2.  Line 5
 * stores: L2 only. */
static const char reuse_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"/no/such/dir/reuse.cu\"\n"
    ".visible .entry r(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<2>;\n .reg .f32 %f<4>;\n .reg .b64 %rd<6>;\n"
    " .loc 1 2 0\n"
    " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd1, %rd3;\n add.s64 %rd5, %rd2, %rd3;\n"
    " .loc 1 3 0\n ld.global.f32 %f1, [%rd4];\n"
    " .loc 1 4 0\n ld.global.f32 %f2, [%rd4];\n"
    " .loc 1 5 0\n add.f32 %f3, %f1, %f2;\n st.global.f32 [%rd5], %f3;\n"
    " ret;\n}\n";

static void test_cache_hits_per_line(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, reuse_ptx, "reuse.ptx")) fail_msg("%s", t.err.msg);
    static float in[64], out[64];
    t_p64(&t, t_alloc(&t, in, sizeof in));
    t_p64(&t, t_alloc(&t, out, sizeof out));
    ws_lines *lines = ws_lines_create();
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(64, 1, 1), .params = t.params, .params_size = t.nparams,
                   .pc_counts = ws_lines_counters(lines, t.p, "r")};
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("teaching", &g, err, sizeof err)) fail_msg("%s", err);
    ws_timing_options o = ws_timing_defaults();
    o.regs_per_thread = 16;
    ws_launch_stats st;
    ws_timing_stats ts;
    if (!ws_launch_timed(t.p, ws_program_kernel(t.p, "r"), &l, &g, &o, &st, &ts, &t.err))
        fail_msg("%s", t.err.msg);
    t_free(&t);
    char *json;
    size_t len;
    FILE *f = open_memstream(&json, &len);
    ws_lines_json(f, lines, true);
    fclose(f);
    const char *r3 = row(json, 3), *r4 = row(json, 4), *r5 = row(json, 5);
    assert_int_equal(field(r3, "l1_sectors"), 8);
    assert_int_equal(field(r3, "l1_hit_sectors"), 0);
    assert_int_equal(field(r3, "l2_sectors"), 8);
    assert_int_equal(field(r4, "l1_sectors"), 8);
    assert_int_equal(field(r4, "l1_hit_sectors"), 8);
    assert_int_equal(field(r4, "l2_sectors"), 0);
    assert_non_null(strstr(r4, "\"l1_hit_rate\":1,"));
    assert_int_equal(field(r5, "l1_sectors"), 0);
    assert_int_equal(field(r5, "l2_sectors"), 8);
    /* the lines' shares add up to the launch's */
    assert_int_equal(field(r3, "l1_sectors") + field(r4, "l1_sectors"), (long long)ts.l1_sectors);
    assert_int_equal(field(r3, "l2_sectors") + field(r5, "l2_sectors"), (long long)ts.l2_sectors);
    assert_int_equal(field(r3, "l2_hit_sectors") + field(r5, "l2_hit_sectors"), (long long)ts.l2_hit_sectors);
    free(json);
    ws_lines_free(lines);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_per_line_functional),
        cmocka_unit_test(test_stalls_per_line_sum_to_the_launch),
        cmocka_unit_test(test_text_names_the_conflict_first),
        cmocka_unit_test(test_cache_hits_per_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
