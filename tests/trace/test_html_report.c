/* The HTML report's pieces that need no browser: the issue timeline's bins
 * (counts kept exact while the bins widen), escaping, and a report of a
 * hand-written kernel whose name and source text need escaping.  The page
 * itself is loaded in headless Chromium by tests/report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core_util.h"
#include "sim/base/gpu_config.h"
#include "sim/core/timing.h"
#include "sim/trace/html_report.h"
#include "sim/trace/html_util.h"
#include "sim/trace/issue_timeline.h"

static void test_timeline_bins_widen_and_keep_counts(void **state)
{
    (void)state;
    ws_issue_timeline *t = ws_issue_timeline_create(3, 8);
    assert_non_null(t);
    /* SM 1 slot 2 issues every cycle 0..1999; SM 2 (no slot rows) once at 5 */
    for (uint64_t c = 0; c < 2000; c++) ws_issue_timeline_add(t, 1, 2, c);
    ws_issue_timeline_add(t, 2, 0, 5);
    ws_issue_timeline_add(t, 3, 0, 5);      /* no SM 3: ignored */
    ws_issue_timeline_add(t, 0, 8, 5);      /* no slot 8: ignored */
    /* 2000 cycles in 512 bins: the width doubles to 4 (512 * 4 >= 2000) */
    assert_int_equal(t->width, 4);
    assert_int_equal(ws_issue_timeline_used(t), 500);
    assert_int_equal(t->issues, 2001);
    uint64_t sum = 0;
    for (int b = 0; b < WS_TIMELINE_BINS; b++) {
        uint64_t n = t->sm[1 * WS_TIMELINE_BINS + b];
        assert_int_equal(n, b < 500 ? 4 : 0);
        assert_int_equal(t->slot[((size_t)1 * 8 + 2) * WS_TIMELINE_BINS + b], n);
        sum += n;
    }
    assert_int_equal(sum, 2000);
    assert_int_equal(t->sm[2 * WS_TIMELINE_BINS + 1], 1);      /* cycle 5 in bin 1 */
    ws_issue_timeline_clear(t);
    assert_int_equal(t->width, 1);
    assert_int_equal(ws_issue_timeline_used(t), 0);
    ws_issue_timeline_free(t);
}

static void test_text_is_escaped(void **state)
{
    (void)state;
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    ws_html_text(f, "a < b && c > \"d\" 'e'");
    fclose(f);
    assert_string_equal(text, "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
    free(text);
}

static const char kernel_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"/no/such/dir/k.cu\"\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<2>;\n .reg .b64 %rd<4>;\n"
    " .loc 1 3 0\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r1;\n"
    " ret;\n}\n";

/* A timed launch of k shown as "k<int>": the name escaped everywhere, the
 * timeline holding every warp instruction the launch issued. */
static void test_report_of_a_launch(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, kernel_ptx, "k.ptx")) fail_msg("%s", t.err.msg);
    static uint32_t out[64];
    t_p64(&t, t_alloc(&t, out, sizeof out));
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("teaching", &g, err, sizeof err)) fail_msg("%s", err);
    ws_lines *lines = ws_lines_create();
    ws_html_report *r = ws_html_report_create();
    const char *shown = "k<int>";
    ws_launch l = {.grid = D3(1, 1, 1), .block = D3(64, 1, 1), .params = t.params, .params_size = t.nparams,
                   .pc_counts = ws_lines_counters(lines, t.p, shown)};
    ws_timing_options o = ws_timing_defaults();
    o.regs_per_thread = 16;
    o.timeline = ws_html_report_timeline(r, &g);
    assert_non_null(o.timeline);
    ws_launch_stats st;
    ws_timing_stats ts;
    const ws_kernel *k = ws_program_kernel(t.p, "k");
    if (!ws_launch_timed(t.p, k, &l, &g, &o, &st, &ts, &t.err)) fail_msg("%s", t.err.msg);
    assert_int_equal(o.timeline->issues, ts.warp_insts);
    ws_summary_info info = {.kernel = shown, .grid = l.grid, .block = l.block, .dynamic_smem = 0,
                            .gpu = g.name, .timing = &ts, .sass = NULL, .launch_no = 0, .reused_from = 0};
    assert_true(ws_html_report_add(r, &(ws_html_launch){.info = &info, .stats = &st, .gpu = &g, .kernel = k,
                                                        .carveout = -1, .optin = false}));
    t_free(&t);
    char *html;
    size_t len;
    FILE *f = open_memstream(&html, &len);
    assert_int_equal(ws_html_report_write(f, r, lines), 0);
    fclose(f);
    assert_non_null(strstr(html, "<h2>kernel k&lt;int&gt;</h2>"));
    assert_null(strstr(html, "k<int>"));
    assert_non_null(strstr(html, "id=\"k0-limiter\">Limited by <b>"));
    assert_non_null(strstr(html, "<table class=\"source\" id=\"k0-source\">"));
    assert_non_null(strstr(html, "k0-timeline-data"));
    ws_html_report_free(r);
    ws_lines_free(lines);
    free(html);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeline_bins_widen_and_keep_counts),
        cmocka_unit_test(test_text_is_escaped),
        cmocka_unit_test(test_report_of_a_launch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
