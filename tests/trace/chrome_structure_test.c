/* The Chrome trace's structure, checked by chrome_check.c (cJSON, the
 * Trace Event Format's rules) on traces of launches made here, timed and
 * functional; the checker itself refuses traces that break each rule; and
 * the trace's limit and launch selection. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core_util.h"
#include "chrome_check.h"
#include "sim/base/gpu_config.h"
#include "sim/core/timing.h"
#include "sim/trace/trace.h"

/* Each thread stores its index to a shared word, waits at a barrier, reads
 * it back, and lanes below 10 of each warp write it out: loads, stores, a
 * barrier, a divergent branch, and two independent adds that issue back
 * to back in the timing model. */
static const char kernel_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"/src/chrome.cu\"\n"
    ".shared .align 4 .b8 sm[1024];\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " shl.b32 %r2, %r1, 2;\n"
    " mov.u32 %r3, sm;\n"
    " add.s32 %r4, %r3, %r2;\n"
    " st.shared.u32 [%r4], %r1;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r5, [%r4];\n"
    " .loc 1 12 0\n"
    " add.s32 %r7, %r1, 1;\n"
    " add.s32 %r2, %r1, 2;\n"
    " .loc 1 13 0\n"
    " and.b32 %r6, %r1, 31;\n"
    " setp.ge.u32 %p1, %r6, 10;\n"
    " @%p1 bra SKIP;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r5;\n"
    "SKIP:\n"
    " ret;\n}\n";

typedef struct traced {
    char *text;
    size_t len;
    uint64_t events, warp_insts;
    bool stopped;
} traced;

/* Two launches of k (4 blocks of 96 threads) on one timeline, the second
 * from the first's end, into a Chrome trace. */
static void run_traced(bool functional, const ws_trace_filter *f, traced *r)
{
    tctx t;
    if (!t_load(&t, kernel_ptx, "chrome.ptx")) fail_msg("%s", t.err.msg);
    uint32_t zero[512] = {0};
    t_p64(&t, t_alloc(&t, zero, sizeof zero));
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("a100", &g, err, sizeof err)) fail_msg("%s", err);
    FILE *out = open_memstream(&r->text, &r->len);
    assert_non_null(out);
    ws_trace *tr = ws_trace_open(out, WS_TRACE_CHROME, f);
    assert_non_null(tr);
    ws_trace_set_clock(tr, g.clockRate);
    const ws_kernel *k = ws_program_kernel(t.p, "k");
    uint64_t base = 0;
    r->warp_insts = 0;
    for (int launch = 0; launch < 2; launch++) {
        ws_launch l = {.grid = D3(4, 1, 1), .block = D3(96, 1, 1), .params = t.params, .params_size = t.nparams,
                       .trace = functional ? tr : NULL};
        ws_launch_stats st;
        ws_timing_stats ts;
        memset(&ts, 0, sizeof ts);
        ws_timing_options o = ws_timing_defaults();
        o.regs_per_thread = 16;
        o.trace = tr;
        ws_trace_begin_launch(tr, launch ? "k" : "ns::k<4>", base);
        bool ok = functional ? ws_launch_kernel(t.p, k, &l, &st, &t.err)
                             : ws_launch_timed(t.p, k, &l, &g, &o, &st, &ts, &t.err);
        if (!ok) fail_msg("%s", t.err.msg);
        uint64_t cycles = functional ? st.warp_insts : ts.cycles;
        ws_trace_end_launch(tr, cycles);
        base += cycles;
        r->warp_insts += st.warp_insts;
    }
    r->stopped = ws_trace_stopped(tr);
    r->events = ws_trace_close(tr);
    fclose(out);
    t_free(&t);
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* Instructions that runs of alike ones ("n":N) hold beyond their first. */
static uint64_t merged(const char *s)
{
    uint64_t extra = 0;
    for (const char *p = s; (p = strstr(p, "\"n\":")); p += 4) extra += strtoull(p + 4, NULL, 10) - 1;
    return extra;
}

static void check_passes(bool functional)
{
    ws_trace_filter all = WS_TRACE_FILTER_ALL;
    traced r;
    run_traced(functional, &all, &r);
    assert_int_equal(r.events, r.warp_insts);
    chrome_report rep;
    if (!chrome_check(r.text, r.len, &rep)) fail_msg("%s", rep.first);
    /* a slice per warp instruction, or per run of n alike, and one per
     * launch; 4 blocks of 3 warps twice: 24 warp tracks and the launch
     * track */
    assert_int_equal(rep.slices + merged(r.text), r.warp_insts + 2);
    /* the two adds make one slice of each timed warp (24); in functional
     * mode the other warps' steps come between them */
    assert_int_equal(merged(r.text), functional ? 0 : 24);
    assert_int_equal(rep.tracks, 24 + 1);
    assert_int_equal(count(r.text, "\"thread_name\""), 24 + 1);
    assert_non_null(strstr(r.text, "\"args\":{\"name\":\"ns::k<4> block (3,0,0) warp 2\"}"));
    assert_non_null(strstr(r.text, "\"args\":{\"name\":\"k block (0,0,0) warp 0\"}"));
    assert_non_null(strstr(r.text, "\"clock_khz\":1410000"));
    /* the source line by its file's last component; the PTX line without .loc */
    assert_non_null(strstr(r.text, "\"src\":\"chrome.cu:12\""));
    assert_non_null(strstr(r.text, "\"src\":\"chrome.ptx:11\""));
    free(r.text);
}

static void test_timed_trace_passes(void **state)
{
    (void)state;
    check_passes(false);
}

static void test_functional_trace_passes(void **state)
{
    (void)state;
    check_passes(true);
}

/* A trace built by hand around one rule broken. */
static uint64_t problems_of(const char *events)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"traceEvents\":["
             "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"tid\":0,\"args\":{\"name\":\"SM 0\"}},"
             "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2,\"tid\":1,\"args\":{\"name\":\"block (0,0,0) warp 0\"}}"
             "%s],\"otherData\":{\"clock_khz\":1000000}}", events);
    chrome_report rep;
    chrome_check(text, strlen(text), &rep);
    return rep.problems;
}

static void test_checker_refuses_broken_traces(void **state)
{
    (void)state;
    /* at 1 GHz cycle c is c ns: 0.010 us is cycle 10 */
    assert_int_equal(problems_of(",{\"name\":\"a\",\"ph\":\"X\",\"ts\":0.010,\"dur\":0.005,\"pid\":2,\"tid\":1,"
                                 "\"args\":{\"cycle\":10}},{\"name\":\"b\",\"ph\":\"X\",\"ts\":0.015,\"dur\":0.001,"
                                 "\"pid\":2,\"tid\":1,\"args\":{\"cycle\":15}}"), 0);
    /* overlapping without nesting */
    assert_int_not_equal(problems_of(",{\"name\":\"a\",\"ph\":\"X\",\"ts\":0.010,\"dur\":0.005,\"pid\":2,\"tid\":1,"
                                     "\"args\":{\"cycle\":10}},{\"name\":\"b\",\"ph\":\"X\",\"ts\":0.012,"
                                     "\"dur\":0.005,\"pid\":2,\"tid\":1,\"args\":{\"cycle\":12}}"), 0);
    /* a track without a thread_name, a process without a process_name */
    assert_int_not_equal(problems_of(",{\"name\":\"a\",\"ph\":\"X\",\"ts\":0.010,\"dur\":0.001,\"pid\":2,\"tid\":7,"
                                     "\"args\":{\"cycle\":10}}"), 0);
    assert_int_not_equal(problems_of(",{\"name\":\"a\",\"ph\":\"X\",\"ts\":0.010,\"dur\":0.001,\"pid\":5,\"tid\":1,"
                                     "\"args\":{\"cycle\":10}}"), 0);
    /* ts in cycles, not microseconds */
    assert_int_not_equal(problems_of(",{\"name\":\"a\",\"ph\":\"X\",\"ts\":10,\"dur\":1,\"pid\":2,\"tid\":1,"
                                     "\"args\":{\"cycle\":10}}"), 0);
    /* a track named by its numbers */
    assert_int_not_equal(problems_of(",{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"tid\":0,"
                                     "\"args\":{\"name\":\"pid 3\"}}"), 0);
}

static void test_limit_stops_with_a_note(void **state)
{
    (void)state;
    ws_trace_filter f = WS_TRACE_FILTER_ALL;
    f.limit = 10;
    traced r;
    run_traced(false, &f, &r);
    assert_true(r.stopped);
    assert_int_equal(r.events, 10);
    assert_int_equal(count(r.text, "\"cycle\":"), 10 + 1 + 2);     /* the events, the note, 2 launches */
    assert_non_null(strstr(r.text, "reached its limit of 10 events"));
    assert_non_null(strstr(r.text, "\"stopped_at_limit\":true"));
    chrome_report rep;
    if (!chrome_check(r.text, r.len, &rep)) fail_msg("%s", rep.first);
    free(r.text);
}

static void test_kernel_and_launch_selection(void **state)
{
    (void)state;
    ws_trace_filter f = WS_TRACE_FILTER_ALL;
    FILE *out = fopen("/dev/null", "w");
    assert_non_null(out);
    /* by name: with or without template arguments and scope */
    const char *names[] = {"ns::k<4>", "ns::k", "k"};
    for (int i = 0; i < 3; i++) {
        f.kernel = names[i];
        ws_trace *t = ws_trace_open(out, WS_TRACE_TEXT, &f);
        ws_trace_begin_launch(t, "other", 0);
        assert_false(ws_trace_wants(t, 0, 0, 0, 0));
        ws_trace_begin_launch(t, "ns::k<4>", 0);
        assert_true(ws_trace_wants(t, 0, 0, 0, 0));
        ws_trace_close(t);
    }
    /* by index (order of first launch), and the second launch of it */
    f.kernel = "1";
    f.launch = 1;
    ws_trace *t = ws_trace_open(out, WS_TRACE_TEXT, &f);
    const char *launches[] = {"a", "b", "a", "b", "b"};
    bool want[] = {false, false, false, true, false};
    for (int i = 0; i < 5; i++) {
        ws_trace_begin_launch(t, launches[i], 0);
        assert_int_equal(ws_trace_wants(t, 0, 0, 0, 0), want[i]);
    }
    ws_trace_close(t);
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timed_trace_passes),
        cmocka_unit_test(test_functional_trace_passes),
        cmocka_unit_test(test_checker_refuses_broken_traces),
        cmocka_unit_test(test_limit_stops_with_a_note),
        cmocka_unit_test(test_kernel_and_launch_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
