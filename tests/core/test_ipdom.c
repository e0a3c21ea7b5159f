/* Immediate post-dominators on hand-drawn CFGs, and the reconvergence pcs
 * the decoder gives branches. */
#include "core_util.h"

#include "sim/core/cfg.h"

/* Builds CSR successor lists from an edge list and runs ws_ipdom. */
static void ipdom_of(int32_t n, const int32_t (*edges)[2], int32_t ne, int32_t exit, int32_t *ipdom)
{
    int32_t off[16] = {0}, succ[32], fill[16] = {0};
    for (int32_t e = 0; e < ne; e++) off[edges[e][0] + 1]++;
    for (int32_t i = 0; i < n; i++) off[i + 1] += off[i];
    for (int32_t e = 0; e < ne; e++) succ[off[edges[e][0]] + fill[edges[e][0]]++] = edges[e][1];
    assert_true(ws_ipdom(n, off, succ, exit, ipdom));
}

static void test_if_else(void **state)
{
    (void)state;
    const int32_t e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}};
    int32_t d[5];
    ipdom_of(5, e, 5, 4, d);
    assert_int_equal(d[0], 3);
    assert_int_equal(d[1], 3);
    assert_int_equal(d[2], 3);
    assert_int_equal(d[3], 4);
    assert_int_equal(d[4], 4);
}

static void test_nested_if(void **state)
{
    (void)state;
    /* 0: if A { 1: if B {2} else {3}; 4 } 5 */
    const int32_t e[][2] = {{0, 1}, {0, 5}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {4, 5}, {5, 6}};
    int32_t d[7];
    ipdom_of(7, e, 8, 6, d);
    assert_int_equal(d[0], 5);
    assert_int_equal(d[1], 4);
    assert_int_equal(d[2], 4);
    assert_int_equal(d[3], 4);
    assert_int_equal(d[4], 5);
}

static void test_loop_break_continue(void **state)
{
    (void)state;
    /* 1: loop header (exit to 5); 2: if break -> 3 -> 5, else 4 -> back to 1 */
    const int32_t e[][2] = {{0, 1}, {1, 2}, {1, 5}, {2, 3}, {2, 4}, {3, 5}, {4, 1}, {5, 6}};
    int32_t d[7];
    ipdom_of(7, e, 8, 6, d);
    assert_int_equal(d[0], 1);
    assert_int_equal(d[1], 5);
    assert_int_equal(d[2], 5);
    assert_int_equal(d[3], 5);
    assert_int_equal(d[4], 1);
}

static void test_early_return_and_infinite_loop(void **state)
{
    (void)state;
    /* 0 returns early (edge to the exit 3) or goes on through 1, 2 */
    const int32_t e[][2] = {{0, 1}, {0, 3}, {1, 2}, {2, 3}};
    int32_t d[4];
    ipdom_of(4, e, 4, 3, d);
    assert_int_equal(d[0], 3);
    assert_int_equal(d[1], 2);
    /* 1 spins forever: it cannot reach the exit */
    const int32_t f[][2] = {{0, 1}, {0, 2}, {1, 1}, {2, 3}};
    int32_t g[4];
    ipdom_of(4, f, 4, 3, g);
    assert_int_equal(g[1], 3);
    assert_int_equal(g[0], 2);
}

static const char ifelse_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p0)\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<8>;\n"
    "\tmov.u32 %r1, %tid.x;\n"                  /* 0 */
    "\tsetp.lt.u32 %p1, %r1, 8;\n"              /* 1 */
    "\t@%p1 bra THEN;\n"                         /* 2: rpc JOIN (7): the ret exits */
    "\tadd.s32 %r2, %r1, 2;\n"                   /* 3 */
    "\tbra.uni JOIN;\n"                          /* 4 */
    "THEN:\n\tsetp.lt.u32 %p2, %r1, 4;\n"        /* 5 */
    "\t@%p2 ret;\n"                              /* 6: kernel: an exit */
    "JOIN:\n\tadd.s32 %r3, %r1, 1;\n"            /* 7 */
    "\tsetp.eq.u32 %p2, %r1, 0;\n"               /* 8 */
    "\t@%p2 bra END;\n"                          /* 9: END exits: rpc 10 */
    "\tadd.s32 %r4, %r1, 1;\n"                   /* 10 */
    "END:\n\tret;\n}\n";                          /* 11 */

static void test_decoded_reconvergence_pcs(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, ifelse_ptx, "ifelse.ptx")) fail_msg("%s", t.err.msg);
    const ws_func *f = &t.p->funcs[0];
    const ws_insn *c = t.p->code + f->start;
    assert_int_equal(c[2].cls, WS_I_BRA);
    assert_int_equal(c[2].target, f->start + 5);
    assert_int_equal(c[2].rpc, f->start + 7);
    assert_int_equal(c[9].rpc, f->start + 10);
    assert_int_equal(f->end, f->start + 12);
    assert_int_equal(t.p->code[f->end].cls, WS_I_FEND);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_nested_if),
        cmocka_unit_test(test_loop_break_continue),
        cmocka_unit_test(test_early_return_and_infinite_loop),
        cmocka_unit_test(test_decoded_reconvergence_pcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
