/* Barriers: bar.red (__syncthreads_count/_and/_or) against a CPU
 * reduction, and a barrier after a divergent region in a kernel whose
 * later loop is left only by returning (the lanes must reconverge before
 * the barrier even though that loop cannot reach the exit but through a
 * return). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core_util.h"

static void test_barrier_reductions(void **state)
{
    (void)state;
    enum { GRID = 3, BLOCK = 96, N = 250 };
    int32_t in[GRID * BLOCK];
    for (int i = 0; i < GRID * BLOCK; i++)
        in[i] = i < BLOCK ? (i % 3 == 0 ? 5 : -2)    /* block 0: a third positive */
              : i < 2 * BLOCK ? 1 + i                /* block 1: all positive */
              : 7;                                   /* block 2: positive up to N */
    for (const char *const *file = (const char *const[]){"barrier_red_sm80.ptx", "barrier_red_sm90.ptx", NULL};
         *file; file++) {
        tctx t;
        t_load_file(&t, *file);
        uint64_t din = t_alloc(&t, in, sizeof in);
        int32_t zero[3 * GRID] = {0};
        uint64_t dout = t_alloc(&t, zero, sizeof zero);
        t_p64(&t, din);
        t_p64(&t, dout);
        t_p32(&t, N);
        if (!t_run(&t, "barrierReduce", D3(GRID, 1, 1), D3(BLOCK, 1, 1), 0, NULL, 0))
            fail_msg("%s", t.err.msg);
        int32_t out[3 * GRID];
        assert_true(ws_devmem_read(t.mem, dout, out, sizeof out));
        for (int b = 0; b < GRID; b++) {
            int count = 0;
            for (int i = b * BLOCK; i < (b + 1) * BLOCK; i++)
                count += i < N && in[i] > 0;
            assert_int_equal(out[3 * b + 0], count);
            assert_int_equal(out[3 * b + 1], count == BLOCK);
            assert_int_equal(out[3 * b + 2], count > 0);
        }
        t_free(&t);
    }
}

static const char exit_loop_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 sm[52];\n"
    ".visible .entry k(.param .u64 k_out)\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<9>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [k_out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 13;\n"
    " @%p1 bra FILL;\n"
    " bra.uni SYNC;\n"
    "FILL:\n"
    " shl.b32 %r2, %r1, 2;\n"
    " mov.u32 %r8, sm;\n"
    " add.s32 %r2, %r2, %r8;\n"
    " st.shared.u32 [%r2], %r1;\n"
    "SYNC:\n"
    " bar.sync 0;\n"
    " setp.ge.u32 %p2, %r1, 40;\n"
    " @%p2 bra DONE;\n"
    " mov.u32 %r3, %r1;\n"
    "LOOP:\n"                                   /* left only through DONE: ret */
    " rem.u32 %r4, %r3, 13;\n"
    " shl.b32 %r4, %r4, 2;\n"
    " mov.u32 %r8, sm;\n"
    " add.s32 %r4, %r4, %r8;\n"
    " ld.shared.u32 %r5, [%r4];\n"
    " mul.wide.u32 %rd2, %r3, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r5;\n"
    " add.s32 %r3, %r3, 64;\n"
    " setp.lt.u32 %p3, %r3, 40;\n"
    " @%p3 bra LOOP;\n"
    "DONE:\n"
    " ret;\n}\n";

static void test_barrier_after_divergence_with_exit_only_loop(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, exit_loop_ptx, "exitloop.ptx")) fail_msg("%s", t.err.msg);
    uint32_t zero[64] = {0};
    uint64_t dout = t_alloc(&t, zero, sizeof zero);
    t_p64(&t, dout);
    if (!t_run(&t, "k", D3(1, 1, 1), D3(64, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    uint32_t out[64];
    assert_true(ws_devmem_read(t.mem, dout, out, sizeof out));
    for (uint32_t i = 0; i < 64; i++)
        assert_int_equal(out[i], i < 40 ? i % 13 : 0);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_reductions),
        cmocka_unit_test(test_barrier_after_divergence_with_exit_only_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
