/* Kernel faults and load errors: messages that name what went wrong and
 * where (kernel, block, thread or warp, pc, PTX line). */
#include "core_util.h"

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"

static const char oob_ptx[] = HDR                                   /* lines 1-3 */
    ".visible .entry rd(.param .u64 rd_param_0, .param .u32 rd_param_1)\n{\n"   /* 4-5 */
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<6>;\n"  /* 6-8 */
    " ld.param.u64 %rd1, [rd_param_0];\n"                         /* 9 */
    " ld.param.u32 %r1, [rd_param_1];\n"                          /* 10 */
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"  /* 11-13 */
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"                           /* 14 */
    " mul.wide.s32 %rd2, %r5, %r1;\n"                             /* 15: stride in bytes */
    " add.s64 %rd3, %rd1, %rd2;\n"                                /* 16 */
    " ld.global.u32 %r1, [%rd3];\n"                               /* 17 */
    " st.global.u32 [%rd3], %r1;\n"                               /* 18 */
    " ret;\n}\n";

static void test_out_of_bounds(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, oob_ptx, "oob.ptx")) fail_msg("%s", t.err.msg);
    uint64_t buf = t_alloc(&t, NULL, 32 * 4);
    t_p64(&t, buf); t_p32(&t, 4);
    assert_false(t_run(&t, "rd", D3(2, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    char want[256];
    snprintf(want, sizeof want,
             "Invalid __global__ read of size 4 at 0x%llx by thread (0,0,0) in block (1,0,0) of kernel rd at pc 8 (ld.global.u32, oob.ptx:17:",
             (unsigned long long)(buf + 128));
    if (!strstr(t.err.msg, want)) fail_msg("got: %s\nwant: %s", t.err.msg, want);
    snprintf(want, sizeof want, "): the address is 0 bytes after the end of the 128-byte allocation at 0x%llx",
             (unsigned long long)buf);
    if (!strstr(t.err.msg, want)) fail_msg("got: %s\nwant: %s", t.err.msg, want);
    assert_int_equal(t.err.kind, WS_ERR_ILLEGAL_ADDRESS);
    /* block 0 completed its stores before the fault */
    assert_int_equal(t.st.blocks, 2);
    t_free(&t);
}

static void test_misaligned(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, oob_ptx, "oob.ptx")) fail_msg("%s", t.err.msg);
    uint64_t buf = t_alloc(&t, NULL, 1024);
    t_p64(&t, buf); t_p32(&t, 2);        /* lane 1 reads at +2 */
    assert_false(t_run(&t, "rd", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    char want[200];
    snprintf(want, sizeof want, "Misaligned __global__ read of size 4 at 0x%llx",
             (unsigned long long)(buf + 2));
    if (!strstr(t.err.msg, want) || !strstr(t.err.msg, "by thread (1,0,0) in block (0,0,0)"))
        fail_msg("got: %s", t.err.msg);
    assert_int_equal(t.err.kind, WS_ERR_MISALIGNED);
    t_free(&t);
}

static const char divbar_ptx[] = HDR
    ".visible .entry divbar(.param .u64 divbar_param_0)\n{\n"      /* 4-5 */
    " .reg .pred %p<2>;\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n"  /* 6-8 */
    " ld.param.u64 %rd1, [divbar_param_0];\n"                     /* 9 */
    " mov.u32 %r1, %tid.x;\n"                                     /* 10 */
    " setp.lt.u32 %p1, %r1, 16;\n"                                /* 11 */
    " @%p1 bra SKIP;\n"                                           /* 12 */
    " bar.sync 0;\n"                                              /* 13 */
    "SKIP:\n st.global.u32 [%rd1], %r1;\n"                        /* 14-15 */
    " ret;\n}\n";

/* bar.sync is aligned: it counts whole warps.  Lanes 16-31 of warp 0 and
 * all of warp 1 reach it; warp 0 counts with all its threads, so the
 * barrier completes (as on sm_70 and later GPUs). */
static void test_divergent_barrier(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, divbar_ptx, "divbar.ptx")) fail_msg("%s", t.err.msg);
    uint64_t buf = t_alloc(&t, NULL, 4);
    t_p64(&t, buf);
    if (!t_run(&t, "divbar", D3(1, 1, 1), D3(64, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    t_free(&t);
}

static const char deadlock_ptx[] = HDR
    ".visible .entry dl()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<3>;\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 32;\n"
    " @%p1 bra A;\n"
    " bar.sync 1;\n"                     /* pc 3 */
    " bra.uni E;\n"
    "A:\n bar.sync 0;\n"                 /* pc 5 */
    "E:\n ret;\n}\n";

static void test_deadlock(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, deadlock_ptx, "dl.ptx")) fail_msg("%s", t.err.msg);
    assert_false(t_run(&t, "dl", D3(1, 1, 1), D3(64, 1, 1), 0, NULL, 0));
    if (!strstr(t.err.msg, "barrier deadlock in block (0,0,0) of kernel dl") ||
        !strstr(t.err.msg, "warp 0 at barrier 0 (pc 5, dl.ptx:") ||
        !strstr(t.err.msg, "warp 1 at barrier 1 (pc 3, dl.ptx:"))
        fail_msg("got: %s", t.err.msg);
    assert_int_equal(t.err.kind, WS_ERR_KERNEL_FAULT);
    /* one warp alone: its barrier 0 releases */
    if (!t_run(&t, "dl", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    t_free(&t);
}

static const char spin_ptx[] = HDR
    ".visible .entry spin()\n{\n"
    "L:\n bra.uni L;\n}\n";

static void test_instruction_limit(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, spin_ptx, "spin.ptx")) fail_msg("%s", t.err.msg);
    assert_false(t_run(&t, "spin", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 1000));
    if (!strstr(t.err.msg, "launch timed out: instruction limit exceeded (1000 warp instructions; ") ||
        !strstr(t.err.msg, "--max-warp-insts N raises the limit")) fail_msg("got: %s", t.err.msg);
    assert_int_equal(t.st.warp_insts, 1000);
    t_free(&t);
}

/* Thread 0 waits for a flag that thread 32 sets only after the barrier
 * thread 0 never reaches: no store, no atomic, no exit for ever. */
static const char flag_ptx[] = HDR
    ".visible .entry waitflag(.param .u64 f)\n{\n"                   /* 4-5 */
    " .reg .pred %p<3>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n"    /* 6-8 */
    " ld.param.u64 %rd1, [f];\n mov.u32 %r1, %tid.x;\n"              /* 9-10 */
    " setp.ne.u32 %p1, %r1, 0;\n @%p1 bra DONE;\n"                   /* 11-12 */
    "SPIN:\n ld.volatile.global.u32 %r2, [%rd1];\n"                  /* 13-14 */
    " setp.eq.u32 %p2, %r2, 0;\n @%p2 bra SPIN;\n"                   /* 15-16 */
    "DONE:\n ret;\n}\n";

static bool run_limited(tctx *t, const char *name, uint64_t progress_limit, double timeout_s)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(64, 1, 1), .params = t->params, .params_size = t->nparams,
                   .progress_limit = progress_limit, .timeout_s = timeout_s};
    return ws_launch_kernel(t->p, k, &l, &t->st, &t->err);
}

static void test_spinning_kernel(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, flag_ptx, "flag.ptx")) fail_msg("%s", t.err.msg);
    uint64_t f = t_alloc(&t, NULL, 4);
    t_p64(&t, f);
    assert_false(run_limited(&t, "waitflag", 100000, 0));
    if (!strstr(t.err.msg, "launch timed out: kernel waitflag made no progress in 100000 warp instructions") ||
        !strstr(t.err.msg, "In block (0,0,0): warp 0 at pc ") || !strstr(t.err.msg, "(flag.ptx:1"))
        fail_msg("got: %s", t.err.msg);
    assert_int_equal(t.err.kind, WS_ERR_TIMEOUT);
    /* warp 1 exited at the start: progress, then none */
    assert_true(t.st.warp_insts >= 100000 && t.st.warp_insts < 100100);
    /* Wall-clock time bounds it too. */
    assert_false(run_limited(&t, "waitflag", UINT64_MAX, 0.05));
    if (!strstr(t.err.msg, "launch timed out: kernel waitflag ran past --timeout 0.05 s"))
        fail_msg("got: %s", t.err.msg);
    /* The flag set: the same kernel ends. */
    uint32_t one = 1;
    assert_true(ws_devmem_write(t.mem, f, &one, 4));
    if (!run_limited(&t, "waitflag", 1000, 0)) fail_msg("%s", t.err.msg);
    t_free(&t);
}

/* A long loop that stores as it goes is progress, however long. */
static const char busy_ptx[] = HDR
    ".visible .entry busy(.param .u64 f)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [f];\n mov.u32 %r1, 0;\n"
    "L:\n add.u32 %r1, %r1, 1;\n st.global.u32 [%rd1], %r1;\n"
    " setp.lt.u32 %p1, %r1, 20000;\n @%p1 bra L;\n ret;\n}\n";

static void test_busy_kernel_runs(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, busy_ptx, "busy.ptx")) fail_msg("%s", t.err.msg);
    uint64_t f = t_alloc(&t, NULL, 4);
    t_p64(&t, f);
    if (!run_limited(&t, "busy", 100, 0)) fail_msg("%s", t.err.msg);
    assert_true(t.st.warp_insts > 2 * 80000);
    t_free(&t);
}

static const char trap_ptx[] = HDR
    ".visible .entry tr()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<2>;\n"
    " mov.u32 %r1, %tid.x;\n setp.eq.u32 %p1, %r1, 5;\n @%p1 trap;\n ret;\n}\n";

static void test_trap(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, trap_ptx, "tr.ptx")) fail_msg("%s", t.err.msg);
    assert_false(t_run(&t, "tr", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0));
    if (!strstr(t.err.msg, "trap instruction executed by thread (5,0,0)")) fail_msg("got: %s", t.err.msg);
    t_free(&t);
}

static const char recursion_ptx[] = HDR
    ".func f()\n{\n call.uni f, ();\n ret;\n}\n"
    ".visible .entry k()\n{\n call.uni f, ();\n ret;\n}\n";

/* an atomic on a vector (sm_90's atom.global.v2.f32.add): refused, not
 * run as if its elements were one value */
static const char vector_atom_ptx[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n"
    " .reg .b64 %rd<2>;\n .reg .f32 %f<6>;\n ld.param.u64 %rd1, [p];\n"
    " mov.f32 %f1, 0f3F800000;\n mov.f32 %f2, 0f40000000;\n"
    " atom.global.v2.f32.add {%f3, %f4}, [%rd1], {%f1, %f2};\n ret;\n}\n";

static void test_load_errors(void **state)
{
    (void)state;
    tctx t;
    assert_false(t_load(&t, recursion_ptx, "rec.ptx"));
    if (!strstr(t.err.msg, "rec.ptx:6:") || !strstr(t.err.msg, "recursive call of 'f'"))
        fail_msg("got: %s", t.err.msg);
    t_free(&t);
    assert_false(t_load(&t, vector_atom_ptx, "vatom.ptx"));
    if (!strstr(t.err.msg, "vatom.ptx:11:2") || !strstr(t.err.msg, "atomics on vectors"))
        fail_msg("got: %s", t.err.msg);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_of_bounds),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_divergent_barrier),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_instruction_limit),
        cmocka_unit_test(test_spinning_kernel),
        cmocka_unit_test(test_busy_kernel_runs),
        cmocka_unit_test(test_trap),
        cmocka_unit_test(test_load_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
