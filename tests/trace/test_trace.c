/* The issue trace: one event per warp instruction issued, with the lanes,
 * the source line and what a memory access cost, in each format, filtered
 * as asked.  Expected values are worked out by hand from the kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "../core/core_util.h"
#include "sim/base/gpu_config.h"
#include "sim/core/timing.h"
#include "sim/trace/trace.h"

/* Each thread stores its index at shared word 2*tid (stride 2: lanes t and
 * t+16 share a bank, 2 passes), reads it back, writes it to out[4*tid]
 * (16 B apart: 8 lanes a line), and lanes 0-9 of each warp take a branch
 * to the return. */
static const char kernel_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 sm[1024];\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " shl.b32 %r2, %r1, 3;\n"
    " mov.u32 %r3, sm;\n"
    " add.s32 %r4, %r3, %r2;\n"
    " st.shared.u32 [%r4], %r1;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r5, [%r4];\n"
    " mul.wide.u32 %rd2, %r1, 16;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r5;\n"
    " and.b32 %r6, %r1, 31;\n"
    " setp.lt.u32 %p1, %r6, 10;\n"
    " @%p1 bra SKIP;\n"
    " add.s32 %r5, %r5, 1;\n"
    "SKIP:\n"
    " ret;\n}\n";

typedef struct traced {
    char *text;
    size_t len;
    ws_launch_stats st;
    uint64_t events;
} traced;

static void run_traced(ws_trace_format fmt, const ws_trace_filter *f, traced *r)
{
    tctx t;
    if (!t_load(&t, kernel_ptx, "trace.ptx")) fail_msg("%s", t.err.msg);
    uint32_t zero[256] = {0};
    t_p64(&t, t_alloc(&t, zero, sizeof zero));
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("teaching", &g, err, sizeof err)) fail_msg("%s", err);
    FILE *out = open_memstream(&r->text, &r->len);
    assert_non_null(out);
    ws_timing_options o = ws_timing_defaults();
    o.regs_per_thread = 16;
    o.trace = ws_trace_open(out, fmt, f);
    const ws_kernel *k = ws_program_kernel(t.p, "k");
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(64, 1, 1), .params = t.params, .params_size = t.nparams};
    ws_timing_stats ts;
    if (!ws_launch_timed(t.p, k, &l, &g, &o, &r->st, &ts, &t.err)) fail_msg("%s", t.err.msg);
    r->events = ws_trace_close(o.trace);
    fclose(out);
    t_free(&t);
}

static const ws_trace_filter all = WS_TRACE_FILTER_ALL;

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

static void test_json_lines_one_event_per_issue(void **state)
{
    (void)state;
    traced r;
    run_traced(WS_TRACE_JSON, &all, &r);
    /* two warps of 16 instructions each: lanes 0-9 branch straight to the
     * return and leave there, lanes 10-31 run the add and return */
    assert_int_equal(r.st.warp_insts, 2 * 16);
    assert_int_equal(r.events, r.st.warp_insts);
    assert_int_equal(count(r.text, "\n"), (int)r.events);
    /* the shared read: word 2*tid, banks 2*tid % 32 -- lanes 0-15 and 16-31
     * each cover the even banks once: 2 passes, 2-way, per warp */
    assert_int_equal(count(r.text, "\"insn\":\"ld.shared.u32\""), 2);
    const char *banks = "\"wavefronts\":2,\"degree\":2,\"pass_banks\":[[0,2,4,6,8,10,12,14,16,18,20,22,24,"
                        "26,28,30],[0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30]]";
    assert_int_equal(count(r.text, banks), 4);      /* the store and the load of both warps */
    /* the global store: 32 lanes 16 B apart span 512 B: 16 sectors (two
     * lanes each), 4 lines */
    assert_int_equal(count(r.text, "\"mem\":\"global\",\"store\":true,\"sectors\":16,\"lines\":4"), 2);
    /* the branch splits each warp: lanes 10-31 (0xfffffc00) run the add */
    assert_int_equal(count(r.text, "\"insn\":\"add.s32\",\"active\":\"0xfffffc00\",\"executed\":\"0xfffffc00\""), 2);
    assert_int_equal(count(r.text, "\"insn\":\"bra\",\"active\":\"0xffffffff\",\"executed\":\"0x000003ff\""), 2);
    assert_int_equal(count(r.text, "\"ptx\":\"trace.ptx\",\"ptx_line\":15"), 2);     /* st.shared's line */
    free(r.text);
}

static void test_filters(void **state)
{
    (void)state;
    traced r;
    ws_trace_filter f = all;
    f.warp = 1;
    f.pc_lo = 5;
    f.pc_hi = 7;        /* st.shared, bar.sync, ld.shared */
    run_traced(WS_TRACE_JSON, &f, &r);
    assert_int_equal(r.events, 3);
    assert_int_equal(count(r.text, "\"warp\":1"), 3);
    assert_int_equal(count(r.text, "\"warp\":0"), 0);
    free(r.text);
    f = all;
    f.cycle_hi = 0;
    f.cycle_lo = 1000000;   /* after the kernel */
    run_traced(WS_TRACE_TEXT, &f, &r);
    assert_int_equal(r.events, 0);
    assert_int_equal(count(r.text, "\n"), 1);       /* the header alone */
    free(r.text);
}

static void test_text_and_chrome(void **state)
{
    (void)state;
    traced r;
    run_traced(WS_TRACE_TEXT, &all, &r);
    assert_int_equal(count(r.text, "\n"), (int)r.events + 1);
    assert_int_equal(count(r.text, "[shared ld: 2 passes, 2-way]"), 2);
    assert_int_equal(count(r.text, "[global st: 16 sectors, 4 lines]"), 2);
    free(r.text);
    run_traced(WS_TRACE_CHROME, &all, &r);
    assert_true(strncmp(r.text, "{\"traceEvents\":[\n", 17) == 0);
    assert_int_equal(count(r.text, "\"ph\":\"X\""), (int)r.events);
    assert_non_null(strstr(r.text, "\n],\"displayTimeUnit\""));
    free(r.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_lines_one_event_per_issue),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_text_and_chrome),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
