/* The reconvergence stack and barriers, against CPU models of the same
 * branching: nested if/else, loops with divergent trip counts and
 * break/continue, early return before a barrier, partial warps, counts. */
#include "core_util.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char paths_ptx[] = HDR
    ".visible .entry paths(.param .u64 paths_param_0)\n{\n"
    " .reg .pred %p<6>;\n .reg .b32 %r<20>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [paths_param_0];\n"
    " mov.u32 %r1, %tid.x;\n"
    " and.b32 %r2, %r1, 1;\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @%p1 bra ELSE;\n"
    " mov.u32 %r3, 1;\n"
    " and.b32 %r4, %r1, 2;\n"
    " setp.eq.u32 %p2, %r4, 0;\n"
    " @%p2 bra IN_ELSE;\n"
    " add.s32 %r3, %r3, 10;\n"
    " bra.uni IN_JOIN;\n"
    "IN_ELSE:\n add.s32 %r3, %r3, 20;\n"
    "IN_JOIN:\n bra.uni JOIN;\n"
    "ELSE:\n mov.u32 %r3, 2;\n activemask.b32 %r12;\n"
    "JOIN:\n activemask.b32 %r10;\n"
    " mov.u32 %r5, 0;\n mov.u32 %r6, 0;\n rem.u32 %r7, %r1, 7;\n"
    "LOOP:\n setp.ge.u32 %p3, %r5, 10;\n @%p3 bra DONE;\n"
    " setp.eq.u32 %p4, %r5, %r7;\n @%p4 bra DONE;\n"         /* break */
    " and.b32 %r8, %r5, 1;\n setp.ne.u32 %p5, %r8, 0;\n @%p5 bra CONT;\n"  /* continue */
    " add.s32 %r6, %r6, %r5;\n"
    "CONT:\n add.s32 %r5, %r5, 1;\n bra.uni LOOP;\n"
    "DONE:\n activemask.b32 %r11;\n"
    " mul.wide.u32 %rd2, %r1, 16;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r3, %r6, %r10, %r11};\n"
    " mul.wide.u32 %rd4, %r1, 4;\n add.s64 %rd5, %rd1, %rd4;\n"
    " st.global.u32 [%rd5+1024], %r12;\n"
    " ret;\n}\n";

static void test_nested_branches_and_loops(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, paths_ptx, "paths.ptx")) fail_msg("%s", t.err.msg);
    uint64_t out = t_alloc(&t, NULL, 2048);
    t_p64(&t, out);
    if (!t_run(&t, "paths", D3(1, 1, 1), D3(48, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t o[512];
    assert_true(ws_devmem_read(t.mem, out, o, sizeof o));
    for (uint32_t tid = 0; tid < 48; tid++) {
        uint32_t path = (tid & 1) ? ((tid & 2) ? 11 : 21) : 2;
        uint32_t acc = 0;
        for (uint32_t i = 0; i < 10 && i != tid % 7; i++)
            if (!(i & 1)) acc += i;
        uint32_t warp_mask = tid < 32 ? 0xffffffffu : 0x0000ffffu;
        assert_int_equal(o[tid * 4 + 0], path);
        assert_int_equal(o[tid * 4 + 1], acc);
        assert_int_equal(o[tid * 4 + 2], warp_mask);        /* reconverged after if/else */
        assert_int_equal(o[tid * 4 + 3], warp_mask);        /* reconverged after the loop */
        /* inside the else path only the even lanes run */
        assert_int_equal(o[256 + tid], (tid & 1) ? 0 : (0x55555555u & warp_mask));
    }
    assert_int_equal(t.st.blocks, 1);
    assert_int_equal(t.st.warps, 2);
    assert_true(t.st.divergent_branches > 0);
    t_free(&t);
}

static const char count_ptx[] = HDR
    ".visible .entry count()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 10;\n"
    " @%p1 bra SKIP;\n"
    " add.s32 %r2, %r1, 1;\n"
    "SKIP:\n add.s32 %r3, %r1, 2;\n"
    " ret;\n}\n";

static void test_instruction_counts(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, count_ptx, "count.ptx")) fail_msg("%s", t.err.msg);
    /* one warp: mov setp bra (32 lanes), add (22 lanes), add ret (32) */
    if (!t_run(&t, "count", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_int_equal(t.st.warp_insts, 6);
    assert_int_equal(t.st.thread_insts, 32 * 5 + 22);
    assert_int_equal(t.st.branches, 1);
    assert_int_equal(t.st.divergent_branches, 1);
    /* 48 threads: the second warp has 16 lanes, none below 10: uniform */
    if (!t_run(&t, "count", D3(1, 1, 1), D3(48, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_int_equal(t.st.warp_insts, 12);
    assert_int_equal(t.st.thread_insts, 32 * 5 + 22 + 16 * 6);
    assert_int_equal(t.st.branches, 2);
    assert_int_equal(t.st.divergent_branches, 1);
    assert_int_equal(t.st.warps, 2);
    /* two blocks in 2D: twice everything */
    if (!t_run(&t, "count", D3(1, 2, 1), D3(16, 3, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_int_equal(t.st.warp_insts, 24);
    assert_int_equal(t.st.blocks, 2);
    t_free(&t);
}

static const char early_ptx[] = HDR
    ".visible .entry early(.param .u64 early_param_0)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<6>;\n"
    " .shared .align 4 .b8 sh[256];\n"
    " ld.param.u64 %rd1, [early_param_0];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ge.u32 %p1, %r1, 40;\n"
    " @%p1 bra END;\n"
    " shl.b32 %r2, %r1, 2;\n mov.u32 %r3, sh;\n add.s32 %r4, %r3, %r2;\n"
    " mul.lo.s32 %r5, %r1, 3;\n st.shared.u32 [%r4], %r5;\n"
    " bar.sync 0;\n"
    " add.s32 %r6, %r1, 1;\n rem.u32 %r7, %r6, 40;\n shl.b32 %r8, %r7, 2;\n"
    " add.s32 %r9, %r3, %r8;\n ld.shared.u32 %r10, [%r9];\n"
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r10;\n"
    "END:\n ret;\n}\n";

static void test_early_return_before_barrier(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, early_ptx, "early.ptx")) fail_msg("%s", t.err.msg);
    uint32_t init[64];
    for (int i = 0; i < 64; i++) init[i] = 0xdeadbeefu;
    uint64_t out = t_alloc(&t, init, sizeof init);
    t_p64(&t, out);
    if (!t_run(&t, "early", D3(2, 1, 1), D3(64, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t o[64];
    assert_true(ws_devmem_read(t.mem, out, o, sizeof o));
    for (uint32_t i = 0; i < 64; i++)
        assert_int_equal(o[i], i < 40 ? 3 * ((i + 1) % 40) : 0xdeadbeefu);
    t_free(&t);
}

static const char rev_ptx[] = HDR
    ".visible .entry rev(.param .u64 rev_param_0)\n{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<6>;\n"
    " .shared .align 4 .b8 sh[512];\n"
    " ld.param.u64 %rd1, [rev_param_0];\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r11, %ctaid.x;\n"
    " shl.b32 %r2, %r1, 2;\n mov.u32 %r3, sh;\n add.s32 %r4, %r3, %r2;\n"
    " mad.lo.s32 %r5, %r11, 1000, %r1;\n st.shared.u32 [%r4], %r5;\n"
    " bar.sync 0;\n"
    " sub.s32 %r6, 127, %r1;\n shl.b32 %r8, %r6, 2;\n add.s32 %r9, %r3, %r8;\n"
    " ld.shared.u32 %r10, [%r9];\n"
    " bar.sync 0;\n"
    " st.shared.u32 [%r4], 0;\n"         /* overwrite: must not reach other warps' reads */
    " mad.lo.s32 %r7, %r11, 128, %r1;\n"
    " mul.wide.u32 %rd2, %r7, 4;\n add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r10;\n"
    " ret;\n}\n";

static void test_barrier_exchange(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, rev_ptx, "rev.ptx")) fail_msg("%s", t.err.msg);
    uint64_t out = t_alloc(&t, NULL, 3 * 128 * 4);
    t_p64(&t, out);
    if (!t_run(&t, "rev", D3(3, 1, 1), D3(128, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t o[384];
    assert_true(ws_devmem_read(t.mem, out, o, sizeof o));
    for (uint32_t b = 0; b < 3; b++)
        for (uint32_t i = 0; i < 128; i++) assert_int_equal(o[b * 128 + i], b * 1000 + 127 - i);
    t_free(&t);
}

static void test_determinism(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "reduce_shfl_sm80.ptx");
    int n = 777;
    float in[777];
    for (int i = 0; i < n; i++) in[i] = (float)i * 0.37f;     /* rounding: order matters */
    uint64_t din = t_alloc(&t, in, sizeof in), dout = t_alloc(&t, NULL, 4);
    t_p64(&t, din); t_p64(&t, dout); t_p32(&t, (uint32_t)n);
    float r[2];
    ws_launch_stats s[2];
    for (int k = 0; k < 2; k++) {
        assert_true(ws_devmem_fill(t.mem, dout, 0, 4));
        if (!t_run(&t, "reduceShfl", D3(3, 1, 1), D3(96, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        assert_true(ws_devmem_read(t.mem, dout, &r[k], 4));
        s[k] = t.st;
    }
    assert_memory_equal(&r[0], &r[1], 4);
    assert_memory_equal(&s[0], &s[1], sizeof s[0]);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_branches_and_loops),
        cmocka_unit_test(test_instruction_counts),
        cmocka_unit_test(test_early_return_before_barrier),
        cmocka_unit_test(test_barrier_exchange),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
