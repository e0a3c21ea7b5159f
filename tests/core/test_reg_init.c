/* The registers a block's start zeroes (sim/core/reg_init.c): those some
 * path of the code may read before writing them, and no others; a thread
 * that reads one of them reads zero, whatever an earlier block left in the
 * storage its warp takes over. */
#include "core_util.h"

#include "sim/core/program.h"

static const char *const src =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    /* %r3 written under a guard (block 0 only), %r4 in one arm of a branch,
     * %r5 in a loop that runs at least once; each stored */
    ".visible .entry partial(.param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<6>;\n .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [pout];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 0;\n"
    " @%p1 add.u32 %r3, %r2, 100;\n"
    " @!%p1 bra SKIP;\n"
    " add.u32 %r4, %r2, 200;\n"
    "SKIP:\n"
    " mov.u32 %r6, 0;\n"
    "LOOP:\n"
    " add.u32 %r5, %r6, 7;\n add.u32 %r6, %r6, 1;\n"
    " setp.lt.u32 %p2, %r6, 2;\n @%p2 bra LOOP;\n"
    " mad.lo.u32 %r7, %r1, 32, %r2;\n mul.wide.u32 %rd2, %r7, 12;\n add.u64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r3;\n st.global.u32 [%rd3+4], %r4;\n st.global.u32 [%rd3+8], %r5;\n"
    " ret;\n"
    "}\n"
    /* every register written before it is read */
    ".visible .entry clean(.param .u64 pout)\n"
    "{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [pout];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
    " add.u64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r1;\n ret;\n"
    "}\n";

/* Whether register reg of k's window is held by one of its rows to zero
 * (registers may share a row, reg_rows.c): the .b32 registers are declared
 * first, so %rN is register N. */
static bool zeroed(const ws_program *p, const ws_kernel *k, int32_t reg)
{
    int32_t row = p->row_of[k->reg_lo + reg] - k->row_lo;
    for (int32_t i = 0; i < k->nzero_rows; i++)
        if (k->zero_rows[i] == row) return true;
    return false;
}

static void test_rows_found(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, src, "reg_init.ptx")) fail_msg("load: %s", t.err.msg);
    const ws_kernel *clean = ws_program_kernel(t.p, "clean");
    assert_non_null(clean->zero_rows);
    assert_int_equal(clean->nzero_rows, 0);
    const ws_kernel *k = ws_program_kernel(t.p, "partial");
    assert_non_null(k->zero_rows);
    /* %r3 (guarded write) and %r4 (one arm) may be read unwritten; %r5
     * (a loop that runs once at least) and the rest may not */
    assert_int_equal(k->nzero_rows, 2);
    assert_true(zeroed(t.p, k, 3));
    assert_true(zeroed(t.p, k, 4));
    assert_false(zeroed(t.p, k, 5));
    t_free(&t);
}

static void test_unwritten_reads_zero(void **state)
{
    (void)state;
    enum { BLOCKS = 4, THREADS = 32 };
    tctx t;
    if (!t_load(&t, src, "reg_init.ptx")) fail_msg("load: %s", t.err.msg);
    uint32_t out[BLOCKS * THREADS * 3];
    uint64_t a = t_alloc(&t, NULL, sizeof out);
    t_p64(&t, a);
    /* the functional launcher runs the blocks one after another in one
     * block's storage: block 0's values are there when block 1 starts */
    assert_true(t_run(&t, "partial", D3(BLOCKS, 1, 1), D3(THREADS, 1, 1), 0, NULL, 0));
    assert_true(ws_devmem_read(t.mem, a, out, sizeof out));
    for (uint32_t b = 0; b < BLOCKS; b++)
        for (uint32_t i = 0; i < THREADS; i++) {
            const uint32_t *o = &out[(b * THREADS + i) * 3];
            assert_int_equal(o[0], b == 0 ? i + 100 : 0);
            assert_int_equal(o[1], b == 0 ? i + 200 : 0);
            assert_int_equal(o[2], 8);
        }
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_found),
        cmocka_unit_test(test_unwritten_reads_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
