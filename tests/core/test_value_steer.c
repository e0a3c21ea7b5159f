/* Which kernels' timing the values they read can steer
 * (sim/core/value_steer.c): a value from memory that reaches a guard, a
 * branch, an address or a member mask does, through any chain of
 * instructions, around loops and through the carry flag; one that only
 * flows into arithmetic, selects and stored values does not, nor do
 * values passed through shared memory (the run that reuses a timing
 * checks those: run.c).  Atomics and clock reads make a kernel's values
 * depend on the timing or placement, and are refused whatever flows where. */
#include "core_util.h"

#include "sim/core/value_steer.h"

#define HEAD ".version 7.0\n.target sm_80\n.address_size 64\n"
/* in, out: %rd1, %rd2 (global); i = ctaid.x * ntid.x + tid.x in %r4, and
 * its byte offset added to in and out: %rd5, %rd6 */
#define PROLOGUE(name) \
    ".visible .entry " name "(.param .u64 pin, .param .u64 pout, .param .u32 pn)\n{\n" \
    " .reg .b32 %r<16>;\n .reg .b64 %rd<16>;\n .reg .pred %p<4>;\n .reg .f32 %f<8>;\n" \
    " ld.param.u64 %rd1, [pin];\n ld.param.u64 %rd2, [pout];\n ld.param.u32 %r9, [pn];\n" \
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n" \
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n mad.lo.s32 %r4, %r1, %r2, %r3;\n" \
    " mul.wide.s32 %rd3, %r4, 4;\n add.s64 %rd5, %rd1, %rd3;\n add.s64 %rd6, %rd2, %rd3;\n"

static const char *const src = HEAD
    /* a bounds check on the key, a value scaled: steers nothing */
    PROLOGUE("scale")
    " setp.ge.s32 %p1, %r4, %r9;\n @%p1 bra DONE;\n"
    " ld.global.f32 %f1, [%rd5];\n mul.f32 %f2, %f1, 0f40000000;\n st.global.f32 [%rd6], %f2;\n"
    "DONE:\n ret;\n}\n"
    /* a loaded value chooses between two by selp: data still */
    PROLOGUE("select")
    " ld.global.f32 %f1, [%rd5];\n setp.gt.f32 %p1, %f1, 0f00000000;\n"
    " selp.f32 %f2, %f1, 0f3F800000, %p1;\n st.global.f32 [%rd6], %f2;\n ret;\n}\n"
    /* x[idx[i]]: the address of the second load comes from the first */
    PROLOGUE("gather")
    " ld.global.u32 %r5, [%rd5];\n mul.wide.u32 %rd7, %r5, 4;\n add.s64 %rd8, %rd2, %rd7;\n"
    " ld.global.f32 %f1, [%rd8];\n st.global.f32 [%rd6], %f1;\n ret;\n}\n"
    /* a branch on a loaded value */
    PROLOGUE("branchy")
    " ld.global.f32 %f1, [%rd5];\n setp.gt.f32 %p1, %f1, 0f00000000;\n @%p1 bra SKIP;\n"
    " st.global.f32 [%rd6], %f1;\n"
    "SKIP:\n ret;\n}\n"
    /* a store guarded by a loaded value (its lanes steered) */
    PROLOGUE("guarded")
    " ld.global.f32 %f1, [%rd5];\n setp.gt.f32 %p1, %f1, 0f00000000;\n @%p1 st.global.f32 [%rd6], %f1;\n"
    " ret;\n}\n"
    /* a loop whose store address comes from a load later in the loop's
     * code: found only once the marks go round the loop */
    PROLOGUE("around")
    " mov.u32 %r6, 0;\n mov.u32 %r8, 0;\n"
    "LOOP:\n"
    " add.s32 %r7, %r6, 1;\n mul.wide.u32 %rd7, %r7, 4;\n add.s64 %rd8, %rd2, %rd7;\n"
    " st.global.u32 [%rd8], %r8;\n"
    " ld.global.u32 %r6, [%rd5];\n"
    " add.s32 %r8, %r8, 1;\n setp.lt.s32 %p2, %r8, 4;\n @%p2 bra LOOP;\n"
    " ret;\n}\n"
    /* a loaded value through the carry flag into an address */
    PROLOGUE("carry")
    " ld.global.u32 %r5, [%rd5];\n add.cc.u32 %r6, %r5, 1;\n addc.u32 %r7, 0, 0;\n"
    " mul.wide.u32 %rd7, %r7, 4;\n add.s64 %rd8, %rd2, %rd7;\n st.global.u32 [%rd8], %r6;\n ret;\n}\n"
    /* a loaded value as the lanes a shuffle names, and as its member mask */
    PROLOGUE("shuffled")
    " ld.global.u32 %r5, [%rd5];\n shfl.sync.idx.b32 %r6, %r4, %r5, 31, -1;\n"
    " st.global.u32 [%rd6], %r6;\n ret;\n}\n"
    PROLOGUE("masked")
    " ld.global.u32 %r5, [%rd5];\n shfl.sync.idx.b32 %r6, %r4, 0, 31, %r5;\n"
    " st.global.u32 [%rd6], %r6;\n ret;\n}\n"
    /* whatever flows where: an atomic (global or shared), a clock read */
    PROLOGUE("atomic")
    " atom.global.add.u32 %r5, [%rd6], 1;\n ret;\n}\n"
    ".visible .entry sharedAtomic(.param .u64 pin)\n{\n .reg .b32 %r<5>;\n .shared .align 4 .b8 buf[128];\n"
    " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, buf;\n add.s32 %r3, %r3, %r2;\n"
    " atom.shared.add.u32 %r4, [%r3], 1;\n ret;\n}\n"
    /* a loaded value through shared memory into a store: data */
    ".visible .entry sharing(.param .u64 pin)\n{\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
    " .shared .align 4 .b8 buf[128];\n"
    " ld.param.u64 %rd1, [pin];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, buf;\n add.s32 %r3, %r3, %r2;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r4, [%rd3];\n"
    " st.shared.u32 [%r3], %r4;\n bar.sync 0;\n ld.shared.u32 %r5, [%r3];\n st.global.u32 [%rd3], %r5;\n"
    " ret;\n}\n"
    PROLOGUE("timed")
    " mov.u32 %r5, %clock;\n st.global.u32 [%rd6], %r5;\n ret;\n}\n";

/* The analysis' answer for kernel name: NULL or why, and at which line
 * of the PTX (0 when none). */
static const char *answer(const tctx *t, const char *name, int32_t *line)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    assert_non_null(k);
    int32_t pc;
    const char *why = ws_kernel_steered_by_values(t->p, k, &pc);
    *line = pc >= 0 ? t->p->code[pc].pos.line : 0;
    return why;
}

static void expect(const tctx *t, const char *name, const char *part)
{
    int32_t line;
    const char *why = answer(t, name, &line);
    if (!part) {
        if (why) fail_msg("%s: steered (%s, line %d), expected not", name, why, line);
        return;
    }
    if (!why) fail_msg("%s: not steered, expected \"%s\"", name, part);
    if (!strstr(why, part)) fail_msg("%s: \"%s\", expected \"%s\"", name, why, part);
    assert_true(line > 0);
}

static void test_data_only(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, src, "value_steer.ptx")) fail_msg("load: %s", t.err.msg);
    expect(&t, "scale", NULL);
    expect(&t, "select", NULL);
    expect(&t, "shuffled", NULL);
    expect(&t, "sharing", NULL);
    t_free(&t);
}

static void test_steered(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, src, "value_steer.ptx")) fail_msg("load: %s", t.err.msg);
    expect(&t, "gather", "an address");
    expect(&t, "branchy", "a branch or guard");
    expect(&t, "guarded", "a branch or guard");
    expect(&t, "around", "an address");
    expect(&t, "carry", "an address");
    expect(&t, "masked", "member mask");
    t_free(&t);
}

static void test_order_or_place(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, src, "value_steer.ptx")) fail_msg("load: %s", t.err.msg);
    expect(&t, "atomic", "an atomic");
    expect(&t, "sharedAtomic", "an atomic");
    expect(&t, "timed", "special register");
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_only),
        cmocka_unit_test(test_steered),
        cmocka_unit_test(test_order_or_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
