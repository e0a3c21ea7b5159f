/* The loads-first block schedule (sim/core/schedule.h): loads and their
 * address arithmetic move ahead of independent arithmetic, never past a
 * register they share, a store or a barrier; a load whose address is ready
 * passes one that waits for its address arithmetic; and the kernel computes
 * what the PTX's own order computes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"

static const char body_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n"
    " .reg .f32 %f<12>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [k_in];\n"             /* 0 */
    " ld.param.u64 %rd2, [k_out];\n"            /* 1 */
    " ld.global.f32 %f1, [%rd1];\n"             /* 2 */
    " ld.global.f32 %f2, [%rd1+4];\n"           /* 3 */
    " fma.rn.f32 %f3, %f1, %f2, %f1;\n"         /* 4 */
    " add.s64 %rd3, %rd1, 8;\n"                 /* 5: address of the next load */
    " ld.global.f32 %f4, [%rd3];\n"             /* 6 */
    " ld.global.f32 %f5, [%rd1+12];\n"          /* 7 */
    " fma.rn.f32 %f6, %f4, %f5, %f3;\n"         /* 8 */
    " st.global.f32 [%rd2], %f6;\n"             /* 9: nothing passes a store */
    " ld.global.f32 %f7, [%rd2];\n"             /* 10: reads what 9 wrote */
    " add.f32 %f8, %f7, %f7;\n"                 /* 11 */
    " st.global.f32 [%rd2+4], %f8;\n"           /* 12 */
    " ret;\n}\n";

static void test_loads_move_ahead_of_independent_arithmetic(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, body_ptx, "sched.ptx")) fail_msg("%s", t.err.msg);
    const ws_insn *c = t.p->code + t.p->funcs[0].start;
    /* the loads of the first block, with the add that makes an address,
     * come before both fmas; the load of [%rd1+12], whose address is
     * ready, passes the one of [%rd3], which waits for the add */
    int pos_fma1 = -1, pos_add = -1, pos_ld[4] = {-1, -1, -1, -1}, nld = 0, pos_st = -1;
    int pos_ld_rd3 = -1, pos_ld_12 = -1;
    for (int i = 0; i < 9; i++) {
        if (c[i].cls == WS_I_LD && c[i].space == WS_SP_GLOBAL && nld < 4) {
            pos_ld[nld++] = i;
            if (c[i].ops[1].imm == 12) pos_ld_12 = i;
            else if (c[i].ops[1].imm == 0 && c[i].ops[1].reg != c[pos_ld[0]].ops[1].reg) pos_ld_rd3 = i;
        }
        if (c[i].m.op == PTX_OP_FMA && pos_fma1 < 0) pos_fma1 = i;
        if (c[i].m.op == PTX_OP_ADD && pos_add < 0) pos_add = i;
    }
    assert_int_equal(nld, 4);
    assert_true(pos_ld[3] < pos_fma1);          /* all four global loads before the first fma */
    assert_true(pos_ld_rd3 >= 0 && pos_ld_12 >= 0);
    assert_true(pos_add < pos_ld_rd3);          /* the address before its load */
    assert_true(pos_ld_12 < pos_ld_rd3);        /* the ready load first */
    for (int i = 0; i < 13; i++)
        if (c[i].cls == WS_I_ST) { pos_st = i; break; }
    assert_int_equal(pos_st, 9);                /* the store keeps its place... */
    assert_int_equal(c[10].cls, WS_I_LD);       /* ...and the load after it stays after it */

    float in[4] = {1.5f, 2.0f, -3.0f, 0.25f}, out[2] = {0, 0};
    uint64_t din = t_alloc(&t, in, sizeof in), dout = t_alloc(&t, out, sizeof out);
    t_p64(&t, din);
    t_p64(&t, dout);
    if (!t_run(&t, "k", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_true(ws_devmem_read(t.mem, dout, out, sizeof out));
    float f3 = fmaf(in[0], in[1], in[0]), f6 = fmaf(in[2], in[3], f3);
    assert_true(out[0] == f6);
    assert_true(out[1] == f6 + f6);
    t_free(&t);
}

/* A kernel timing its own load with clock64 keeps the load between the
 * clock reads. */
static const char clock_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_in)\n{\n"
    " .reg .f32 %f<4>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [k_in];\n"            /* 0 */
    " add.s64 %rd2, %rd1, 4;\n"                /* 1 */
    " mov.u64 %rd3, %clock64;\n"               /* 2 */
    " ld.global.f32 %f1, [%rd2];\n"            /* 3: would move above 2 but for the clock */
    " add.f32 %f2, %f1, %f1;\n"                /* 4 */
    " mov.u64 %rd4, %clock64;\n"               /* 5 */
    " ret;\n}\n";

static void test_clock_reads_keep_loads_between_them(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, clock_ptx, "clock.ptx")) fail_msg("%s", t.err.msg);
    const ws_insn *c = t.p->code + t.p->funcs[0].start;
    assert_int_equal(c[2].cls, WS_I_MOV);
    assert_int_equal(c[2].ops[1].kind, WS_OK_SREG);
    assert_int_equal(c[3].cls, WS_I_LD);
    assert_int_equal(c[5].ops[1].kind, WS_OK_SREG);
    t_free(&t);
}

/* A long unrolled block: PAIRS loads, each followed by an fma into one
 * sum.  Worked by hand from the rule (a load goes first when nothing it
 * needs is pending, and nothing moves up more than WINDOW places): every
 * load in the middle of the block runs exactly WINDOW places ahead of
 * where the PTX puts it, every fma keeps its order after its load, no
 * instruction moves up further, and the sum is the PTX order's. */
enum { PAIRS = 1500, WINDOW = 12 /* schedule.c's WS_SCHEDULE_WINDOW */ };

static void test_long_block(void **state)
{
    (void)state;
    size_t cap = 128 + (size_t)PAIRS * 96, n = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    n += (size_t)snprintf(src + n, cap - n,
                          ".version 9.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n{\n"
                          " .reg .f32 %%f<%d>;\n .reg .f32 %%s<2>;\n .reg .b64 %%rd<3>;\n"
                          " ld.param.u64 %%rd1, [k_in];\n ld.param.u64 %%rd2, [k_out];\n"
                          " mov.f32 %%s1, 0f00000000;\n", PAIRS);
    const int first = 3;        /* the PTX position of the first pair's load */
    for (int i = 0; i < PAIRS; i++)
        n += (size_t)snprintf(src + n, cap - n, " ld.global.f32 %%f%d, [%%rd1+%d];\n fma.rn.f32 %%s1, %%f%d, %%f%d, %%s1;\n",
                              i, 4 * i, i, i);
    n += (size_t)snprintf(src + n, cap - n, " st.global.f32 [%%rd2], %%s1;\n ret;\n}\n");
    assert_true(n < cap);
    tctx t;
    if (!t_load(&t, src, "long.ptx")) fail_msg("%s", t.err.msg);
    free(src);
    const ws_insn *c = t.p->code + t.p->funcs[0].start;
    int len = first + 2 * PAIRS + 2;
    int *ld_at = calloc(PAIRS, sizeof *ld_at), *fma_at = calloc(PAIRS, sizeof *fma_at);
    assert_true(ld_at && fma_at);
    for (int i = 0; i < PAIRS; i++) ld_at[i] = fma_at[i] = -1;
    for (int pos = 0; pos < len; pos++) {
        if (c[pos].cls == WS_I_LD && c[pos].space == WS_SP_GLOBAL) ld_at[c[pos].ops[1].imm / 4] = pos;
        if (c[pos].m.op == PTX_OP_FMA) {
            int i = -1;
            for (int j = 0; j < PAIRS && i < 0; j++)
                if (ld_at[j] >= 0 && c[ld_at[j]].ops[0].reg == c[pos].ops[1].reg) i = j;
            assert_true(i >= 0);            /* after its load */
            fma_at[i] = pos;
        }
    }
    for (int i = 0; i < PAIRS; i++) {
        int ld0 = first + 2 * i, fma0 = ld0 + 1;
        assert_true(ld_at[i] >= ld0 - WINDOW);
        assert_true(fma_at[i] >= fma0 - WINDOW);
        if (i > 0) assert_true(fma_at[i] > fma_at[i - 1]);
        if (i >= WINDOW && i < PAIRS - WINDOW) assert_int_equal(ld_at[i], ld0 - WINDOW);
    }
    assert_int_equal(c[len - 2].cls, WS_I_ST);      /* the store and the end stay last */

    float *in = malloc(PAIRS * sizeof *in), out = 0, want = 0;
    assert_non_null(in);
    for (int i = 0; i < PAIRS; i++) in[i] = (float)((i * 37) % 101 - 50) / 64.0f;
    for (int i = 0; i < PAIRS; i++) want = fmaf(in[i], in[i], want);
    uint64_t din = t_alloc(&t, in, PAIRS * sizeof *in), dout = t_alloc(&t, &out, sizeof out);
    t_p64(&t, din);
    t_p64(&t, dout);
    if (!t_run(&t, "k", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_true(ws_devmem_read(t.mem, dout, &out, sizeof out));
    assert_true(out == want);
    free(in);
    free(ld_at);
    free(fma_at);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_move_ahead_of_independent_arithmetic),
        cmocka_unit_test(test_clock_reads_keep_loads_between_them),
        cmocka_unit_test(test_long_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
