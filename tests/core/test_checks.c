/* racecheck and synccheck: small kernels that commit each hazard, and the
 * same kernels made right, which must report nothing; initcheck's shadow
 * of shared memory against a byte by byte one. */
#include "../timing/timing_util.h"
#include "sim/core/checks.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

/* Two warps: each writes s[t], (barrier), reads s[t ^ 32] (the other
 * warp's word), (barrier), writes s[t] again: the tiled-matmul pattern
 * with either barrier left out. */
static void kernel(tbuf *b, bool first_bar, bool second_bar)
{
    tb(b, HDR ".visible .entry tile(.param .u64 o)\n{\n"               /* 4-5 */
          " .reg .b32 %%r<8>;\n .reg .b64 %%rd<4>;\n"                 /* 6-7 */
          " .shared .align 4 .b8 s[256];\n"                           /* 8 */
          " ld.param.u64 %%rd1, [o];\n mov.u32 %%r1, %%tid.x;\n"      /* 9-10 */
          " mov.u32 %%r2, s;\n shl.b32 %%r3, %%r1, 2;\n add.u32 %%r4, %%r2, %%r3;\n"  /* 11-13 */
          " xor.b32 %%r5, %%r1, 32;\n shl.b32 %%r5, %%r5, 2;\n add.u32 %%r5, %%r2, %%r5;\n"  /* 14-16 */
          " st.shared.u32 [%%r4], %%r1;\n"                            /* 17 */
          " %s\n"                                                     /* 18 */
          " ld.shared.u32 %%r6, [%%r5];\n"                            /* 19 */
          " %s\n"                                                     /* 20 */
          " st.shared.u32 [%%r4], %%r6;\n"                            /* 21 */
          " mul.wide.u32 %%rd2, %%r1, 4;\n add.s64 %%rd3, %%rd1, %%rd2;\n st.global.u32 [%%rd3], %%r6;\n"
          " ret;\n}\n",
       first_bar ? "bar.sync 0;" : "", second_bar ? "bar.sync 0;" : "");
}

/* Runs with checks on; returns what they reported. */
static char *run_with(const tbuf *b, const char *name, uint32_t nthreads, bool timed, uint32_t checks)
{
    tctx t;
    tt_load(&t, b);
    if (checks & WS_CHECK_INIT) ws_devmem_track_init(t.mem);
    uint64_t o = t_alloc(&t, NULL, 256);
    t_p64(&t, o);
    FILE *rep = tmpfile();
    assert_non_null(rep);
    const ws_kernel *k = ws_program_kernel(t.p, name);
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(nthreads, 1, 1), .params = t.params,
                   .params_size = t.nparams, .checks = checks, .report_out = rep};
    bool ok;
    if (timed) {
        ws_gpu_config g;
        ws_timing_stats ts;
        tt_config(&g, "teaching");
        ws_timing_options opt = ws_timing_defaults();
        opt.regs_per_thread = 16;
        ok = ws_launch_timed(t.p, k, &l, &g, &opt, &t.st, &ts, &t.err);
    } else {
        ok = ws_launch_kernel(t.p, k, &l, &t.st, &t.err);
    }
    if (!ok) fail_msg("%s", t.err.msg);
    long n = ftell(rep);
    char *s = calloc(1, (size_t)n + 1);
    rewind(rep);
    assert_int_equal(fread(s, 1, (size_t)n, rep), (size_t)n);
    fclose(rep);
    t_free(&t);
    return s;
}

/* racecheck and synccheck */
static char *run_checked(const tbuf *b, const char *name, uint32_t nthreads, bool timed)
{
    return run_with(b, name, nthreads, timed, WS_CHECK_RACE | WS_CHECK_SYNC);
}

/* Runs with checks on, functionally and timed: nothing reported. */
static void assert_quiet(const tbuf *b, const char *name, uint32_t nthreads, uint32_t checks)
{
    for (int timed = 0; timed < 2; timed++) {
        char *r = run_with(b, name, nthreads, timed, checks);
        assert_string_equal(r, "");
        free(r);
    }
}

static void test_missing_second_barrier(void **state)
{
    (void)state;
    for (int timed = 0; timed < 2; timed++) {
        tbuf b = {0};
        kernel(&b, true, false);
        char *r = run_checked(&b, "tile", 64, timed);
        if (!strstr(r, "warpsim racecheck: shared memory hazard (write after read)") ||
            !strstr(r, "st.shared.u32 at pc ") || !strstr(r, "test.ptx:21)") ||
            !strstr(r, "after the read by warp ") || !strstr(r, "ld.shared.u32 at pc ") ||
            !strstr(r, "test.ptx:19)") || !strstr(r, "with no barrier between"))
            fail_msg("got: %s", r);
        free(r);
    }
}

static void test_missing_first_barrier(void **state)
{
    (void)state;
    tbuf b = {0};
    kernel(&b, false, true);
    char *r = run_checked(&b, "tile", 64, false);
    if (!strstr(r, "hazard (read after write)") || !strstr(r, "test.ptx:19)") ||
        !strstr(r, "after the write by warp ") || !strstr(r, "test.ptx:17)"))
        fail_msg("got: %s", r);
    free(r);
}

static void test_correct_kernel_is_quiet(void **state)
{
    (void)state;
    tbuf b = {0};
    kernel(&b, true, true);
    assert_quiet(&b, "tile", 64, WS_CHECK_RACE | WS_CHECK_SYNC);
    /* One warp alone never races with itself. */
    tbuf one = {0};
    kernel(&one, false, false);
    assert_quiet(&one, "tile", 32, WS_CHECK_RACE | WS_CHECK_SYNC);
}

/* __syncthreads() inside "if (tid >= 16)": allowed to complete (it counts
 * warps), and reported by synccheck. */
static const char divbar_ptx[] = HDR
    ".visible .entry divbar(.param .u64 o)\n{\n"
    " .reg .pred %%p<2>;\n .reg .b32 %%r<3>;\n .reg .b64 %%rd<2>;\n"
    " ld.param.u64 %%rd1, [o];\n"
    " mov.u32 %%r1, %%tid.x;\n"
    " setp.lt.u32 %%p1, %%r1, 16;\n"
    " @%%p1 bra SKIP;\n"
    " bar.sync 0;\n"                                          /* line 13 */
    "SKIP:\n st.global.u32 [%%rd1], %%r1;\n ret;\n}\n";

static void test_divergent_barrier_reported(void **state)
{
    (void)state;
    tbuf b = {0};
    tb(&b, divbar_ptx);
    char *r = run_checked(&b, "divbar", 64, false);
    if (!strstr(r, "warpsim synccheck: divergent barrier: bar.sync at pc ") || !strstr(r, "test.ptx:13)") ||
        !strstr(r, "reached by 16 of the 32 running threads of warp 0 (lanes 0xffff0000 of 0xffffffff)"))
        fail_msg("got: %s", r);
    free(r);
}

/* Every check on a kernel that reads its parameters, its local memory
 * (what it wrote, and a word it never wrote: initcheck looks at global
 * and shared memory only) and global memory it wrote: nothing to report,
 * whether each warp's access goes lane by lane or at once. */
static void test_other_spaces_are_quiet(void **state)
{
    (void)state;
    tbuf b = {0};
    tb(&b, HDR ".visible .entry spaces(.param .u64 o)\n{\n"
           " .reg .b32 %%r<6>;\n .reg .b64 %%rd<6>;\n"
           " .local .align 4 .b8 buf[16];\n"
           " ld.param.u64 %%rd1, [o];\n mov.u32 %%r1, %%tid.x;\n"
           " mov.u64 %%rd2, buf;\n st.local.u32 [%%rd2], %%r1;\n st.local.u32 [%%rd2+4], %%r1;\n"
           " ld.local.u32 %%r2, [%%rd2+4];\n ld.local.u32 %%r3, [%%rd2];\n ld.local.u32 %%r4, [%%rd2+8];\n"
           " add.u32 %%r2, %%r2, %%r3;\n add.u32 %%r2, %%r2, %%r4;\n"
           " mul.wide.u32 %%rd3, %%r1, 4;\n add.s64 %%rd4, %%rd1, %%rd3;\n st.global.u32 [%%rd4], %%r2;\n"
           " bar.sync 0;\n ld.global.u32 %%r5, [%%rd4];\n st.global.u32 [%%rd4], %%r5;\n ret;\n}\n");
    assert_quiet(&b, "spaces", 64, WS_CHECK_RACE | WS_CHECK_SYNC | WS_CHECK_INIT);
}

/* initcheck: an atomic's read is no use of a value, and its write marks
 * what it wrote: shared and global words an atomic added to first, read
 * after a barrier, report nothing (global memory the kernel's output,
 * never written before). */
static void test_atomics_mark_written(void **state)
{
    (void)state;
    tbuf b = {0};
    tb(&b, HDR ".visible .entry atomics(.param .u64 o)\n{\n"
           " .reg .b32 %%r<10>;\n .reg .b64 %%rd<4>;\n"
           " .shared .align 4 .b8 s[256];\n"
           " ld.param.u64 %%rd1, [o];\n mov.u32 %%r1, %%tid.x;\n"
           " mov.u32 %%r2, s;\n shl.b32 %%r3, %%r1, 2;\n add.u32 %%r4, %%r2, %%r3;\n"
           " atom.shared.add.u32 %%r5, [%%r4], 1;\n bar.sync 0;\n ld.shared.u32 %%r6, [%%r4];\n"
           " mul.wide.u32 %%rd2, %%r1, 4;\n add.s64 %%rd3, %%rd1, %%rd2;\n"
           " atom.global.add.u32 %%r7, [%%rd3], %%r6;\n bar.sync 0;\n ld.global.u32 %%r8, [%%rd3];\n"
           " add.u32 %%r8, %%r8, %%r5;\n st.global.u32 [%%rd3], %%r8;\n ret;\n}\n");
    assert_quiet(&b, "atomics", 64, WS_CHECK_RACE | WS_CHECK_INIT);
}

/* initcheck's shadow a warp at a time against a byte per byte of shared
 * memory: random warps of random sizes write and read, partly past its
 * end; a read is clean when every byte it reads within the memory was
 * written, and the count of bytes not written is exact. */
static void test_init_shadow_warps(void **state)
{
    (void)state;
    enum { BYTES = 300 };
    ws_initshadow s = {0};
    uint64_t seed = 12345;
    for (int round = 0; round < 20; round++) {
        assert_true(ws_init_begin(&s, BYTES));
        bool written[BYTES + 64] = {0};
        uint32_t unwritten = BYTES;
        for (int access = 0; access < 60; access++) {
            uint64_t addrs[32], origin = 0x1000;
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            static const uint32_t sizes[] = {1, 2, 4, 8, 16};
            uint32_t size = sizes[(seed >> 33) % 5], mask = (uint32_t)(seed >> 11) | 1u;
            bool write = (seed >> 60) & 1;
            for (int lane = 0; lane < 32; lane++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                addrs[lane] = origin + (seed >> 33) % (BYTES + 16 - size + 1);
            }
            if (write) {
                ws_init_shared_write(&s, addrs, origin, mask, size);
                for (int lane = 0; lane < 32; lane++)
                    for (uint32_t i = 0; (mask >> lane & 1) && i < size; i++) {
                        uint64_t at = addrs[lane] - origin + i;
                        if (at < BYTES && !written[at]) { written[at] = true; unwritten--; }
                    }
                assert_int_equal(s.unwritten, unwritten);
            } else {
                bool clean = true;
                for (int lane = 0; lane < 32; lane++)
                    for (uint32_t i = 0; (mask >> lane & 1) && i < size; i++) {
                        uint64_t at = addrs[lane] - origin + i;
                        if (at < BYTES && !written[at]) clean = false;
                    }
                assert_int_equal(ws_init_shared_clean(&s, addrs, origin, mask, size), clean);
            }
        }
    }
    ws_init_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_second_barrier),
        cmocka_unit_test(test_missing_first_barrier),
        cmocka_unit_test(test_correct_kernel_is_quiet),
        cmocka_unit_test(test_divergent_barrier_reported),
        cmocka_unit_test(test_init_shadow_warps),
        cmocka_unit_test(test_other_spaces_are_quiet),
        cmocka_unit_test(test_atomics_mark_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
