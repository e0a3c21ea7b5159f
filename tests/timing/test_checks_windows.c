/* racecheck, synccheck and initcheck in a timed launch show the same lines
 * in windows of cycles, on one thread and on three, and cycle by cycle on
 * three threads, as cycle by cycle on one (sim/core/window_order.h): the
 * same first finding of each pair of places, in the same order, the same
 * counts, over two launches that share the program's list of findings
 * shown.  A kernel of many blocks with all five kinds of finding; a
 * kernel that reads its own stores (initcheck takes an SM's own writes of
 * the window as written); racy rounds whose data is too short, where a
 * load's fault (met as it issues) or a store's (which a window meets as it
 * issues and a run cycle by cycle at the cycle's end) ends the lines where
 * they end cycle by cycle.  On a GPU of two SMs, a grid of many waves
 * (whose blocks windows may give the SMs in another order) shows the same
 * lines on one thread and on three. */
#define _GNU_SOURCE     /* open_memstream */
#include "lab_inputs.h"

#include "sim/core/checks.h"
#include "sim/mem/device_memory.h"

/* A kernel of eight rounds named name, each round's global access
 * access (at address %rd3). */
#define LOOPED(name, access)                                                              \
    ".visible .entry " name "(.param .u64 pdata)\n"                                      \
    "{\n"                                                                                \
    " .reg .pred %p<2>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<4>;\n"                      \
    " .shared .align 4 .b8 s2[256];\n"                                                   \
    " ld.param.u64 %rd1, [pdata];\n cvta.to.global.u64 %rd1, %rd1;\n"                    \
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"          \
    " mad.lo.u32 %r4, %r2, %r3, %r1;\n"                                                  \
    " mov.u32 %r5, s2;\n shl.b32 %r6, %r1, 2;\n add.u32 %r7, %r5, %r6;\n"               \
    " xor.b32 %r8, %r1, 32;\n shl.b32 %r8, %r8, 2;\n add.u32 %r8, %r5, %r8;\n"          \
    " shl.b32 %r9, %r4, 3;\n mov.u32 %r10, 0;\n"                                         \
    "LOOP:\n st.shared.u32 [%r7], %r10;\n ld.shared.u32 %r11, [%r8];\n"                 \
    " add.u32 %r12, %r9, %r10;\n mul.wide.u32 %rd2, %r12, 4;\n add.s64 %rd3, %rd1, %rd2;\n" \
    access                                                                                \
    " add.u32 %r10, %r10, 1;\n setp.lt.u32 %p1, %r10, 8;\n @%p1 bra LOOP;\n ret;\n}\n"

/* Per block of 64 threads (two warps): t's input in[gid] (the host wrote
 * the first half of it: initcheck), into s[t]; s[t ^ 32], the other warp's
 * word, read with no barrier (racecheck, or initcheck where the other warp
 * has not written it yet); s[t + 64], never written (initcheck); s[t]
 * written again (racecheck); in odd blocks a barrier that lanes 0-15 of
 * each warp skip (synccheck: divergent barrier); out[gid] the sum. */
static const char *const src = PTX_HEAD
    ".visible .entry checks(.param .u64 pout, .param .u64 pin)\n"
    "{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<20>;\n .reg .b64 %rd<8>;\n"
    " .shared .align 4 .b8 s[512];\n"
    " ld.param.u64 %rd1, [pout];\n ld.param.u64 %rd2, [pin];\n"
    " cvta.to.global.u64 %rd1, %rd1;\n cvta.to.global.u64 %rd2, %rd2;\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
    " mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    " mov.u32 %r5, s;\n shl.b32 %r6, %r1, 2;\n add.u32 %r7, %r5, %r6;\n"
    " xor.b32 %r8, %r1, 32;\n shl.b32 %r8, %r8, 2;\n add.u32 %r8, %r5, %r8;\n"
    " mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
    " ld.global.u32 %r9, [%rd4];\n"
    " st.shared.u32 [%r7], %r9;\n"
    " ld.shared.u32 %r10, [%r8];\n"
    " ld.shared.u32 %r11, [%r7+256];\n"
    " add.u32 %r10, %r10, %r11;\n"
    " st.shared.u32 [%r7], %r10;\n"
    " add.s64 %rd5, %rd1, %rd3;\n"
    " and.b32 %r12, %r2, 1;\n setp.eq.u32 %p1, %r12, 0;\n @%p1 bra END;\n"
    " and.b32 %r13, %r1, 31;\n setp.lt.u32 %p2, %r13, 16;\n @%p2 bra END;\n"
    " bar.sync 0;\n"
    "END:\n st.global.u32 [%rd5], %r10;\n ret;\n}\n"
    /* Eight rounds of s[t] = i, a read of s[t ^ 32] (racecheck, each
     * round) and data[8 gid + i] stored (looped_store) or loaded
     * (looped_load): where data is short, the last blocks fault in the
     * middle of their rounds while the others still find races. */
    LOOPED("looped_store", " st.global.u32 [%rd3], %r11;\n")
    LOOPED("looped_load", " ld.global.u32 %r13, [%rd3];\n")
    /* data[gid] = gid, a barrier, then data[gid ^ 1] (the neighbour's,
     * which the SM wrote in an earlier cycle: in a window it keeps its own
     * writes, and they are written for initcheck too) and data[gid + 19200]
     * (never written), their sum into data[gid] */
    ".visible .entry inplace(.param .u64 pdata)\n"
    "{\n"
    " .reg .b32 %r<10>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [pdata];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
    " mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    " mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r4;\n"
    " bar.sync 0;\n"
    " xor.b32 %r5, %r4, 1;\n mul.wide.u32 %rd4, %r5, 4;\n add.s64 %rd5, %rd1, %rd4;\n"
    " ld.global.u32 %r6, [%rd5];\n"
    " ld.global.u32 %r7, [%rd3+76800];\n"
    " add.u32 %r6, %r6, %r7;\n"
    " st.global.u32 [%rd3], %r6;\n"
    " ret;\n}\n";

/* What the checks of two launches reported, and how the second went. */
typedef struct checked {
    char *text;
    size_t len;
    bool ok;
    ws_error err;
    ws_timing_stats ts;
} checked;

/* Two launches of kernel (checks: its output out_elems long and its input
 * in_elems, the first in_written of them written; a looped one: its data
 * the input) in blocks blocks of 64 threads on config gpu with options o:
 * the checks' lines of both. */
static checked run_checked(const char *gpu, const char *kernel, uint32_t blocks, uint32_t in_elems,
                           uint32_t in_written, uint32_t out_elems, ws_timing_options o)
{
    tctx t;
    ws_gpu_config g;
    tt_config(&g, gpu);
    if (!t_load(&t, src, "checks.ptx")) fail_msg("load: %s", t.err.msg);
    ws_devmem_track_init(t.mem);
    uint32_t *in = calloc(in_written ? in_written : 1, sizeof *in);
    assert_non_null(in);
    for (uint32_t i = 0; i < in_written; i++) in[i] = i % 13;
    uint64_t din = t_alloc(&t, NULL, sizeof *in * in_elems);
    uint64_t dout = out_elems ? t_alloc(&t, NULL, sizeof *in * out_elems) : 0;
    if (in_written) assert_true(ws_devmem_write(t.mem, din, in, sizeof *in * in_written));
    free(in);
    if (!strcmp(kernel, "checks")) t_p64(&t, dout);
    t_p64(&t, din);
    checked r;
    memset(&r, 0, sizeof r);
    FILE *rep = open_memstream(&r.text, &r.len);
    assert_non_null(rep);
    ws_check_shown *shown = calloc(1, sizeof *shown);
    assert_non_null(shown);
    const ws_kernel *k = ws_program_kernel(t.p, kernel);
    assert_non_null(k);
    ws_launch l = {.grid = D3(blocks, 1, 1), .block = D3(64, 1, 1), .params = t.params, .params_size = t.nparams,
                   .checks = WS_CHECK_RACE | WS_CHECK_SYNC | WS_CHECK_INIT, .checks_shown = shown,
                   .report_out = rep};
    ws_launch_stats st;
    for (int launch = 0; launch < 2; launch++) {
        r.ok = ws_launch_timed(t.p, k, &l, &g, &o, &st, &r.ts, &r.err);
        if (!r.ok) break;
    }
    assert_int_equal(fclose(rep), 0);
    free(shown);
    t_free(&t);
    return r;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

/* Cycle by cycle on one thread, and in the other modes: the same lines. */
static void compare(const char *gpu, const char *kernel, uint32_t blocks, uint32_t in_elems, uint32_t in_written,
                    uint32_t out_elems, const char *fault)
{
    checked ref = run_checked(gpu, kernel, blocks, in_elems, in_written, out_elems, tt_threaded(1, 1));
    assert_int_equal(ref.ok, !fault);
    if (fault && !strstr(ref.err.msg, fault)) fail_msg("not the fault expected: %s", ref.err.msg);
    /* every check finds something, and both launches are counted */
    static const char *const kinds[] = {"warpsim racecheck: ", "warpsim synccheck: divergent barrier",
                                        "uninitialized __global__ memory read",
                                        "uninitialized __shared__ memory read"};
    for (size_t i = 0; !fault && !strcmp(kernel, "checks") && i < sizeof kinds / sizeof *kinds; i++)
        if (!count_of(ref.text, kinds[i])) fail_msg("no %s in\n%s", kinds[i], ref.text);
    if (!fault && count_of(ref.text, "warpsim checks: ") != 2) fail_msg("not two launches' counts:\n%s", ref.text);
    static const struct { int32_t threads; uint32_t window; const char *what; } modes[] = {
        {3, 1, "cycle by cycle, three threads"}, {1, 0, "windows, one thread"}, {3, 0, "windows, three threads"}};
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        checked c = run_checked(gpu, kernel, blocks, in_elems, in_written, out_elems,
                                tt_threaded(modes[m].threads, modes[m].window));
        if (modes[m].window == 0 && c.ts.host.window_cycles <= 1) fail_msg("%s: ran cycle by cycle", modes[m].what);
        assert_int_equal(c.ok, ref.ok);
        if (!ref.ok) assert_string_equal(c.err.msg, ref.err.msg);
        lab_same_text(ref.text, ref.len, c.text, c.len, "cycle by cycle, one thread", modes[m].what);
        free(c.text);
    }
    free(ref.text);
}

static void test_one_wave(void **state)
{
    (void)state;
    enum { BLOCKS = 300, N = BLOCKS * 64 };
    compare("h100", "checks", BLOCKS, N, N / 2, N, NULL);
}

/* A kernel that reads its own stores (in windows its SMs keep their own
 * writes): initcheck finds only the bytes never written, as cycle by
 * cycle. */
static void test_own_writes(void **state)
{
    (void)state;
    enum { BLOCKS = 300, N = BLOCKS * 64 };
    compare("h100", "inplace", BLOCKS, 2 * N, 0, 0, NULL);
    checked c = run_checked("h100", "inplace", BLOCKS, 2 * N, 0, 0, tt_threaded(1, 0));
    assert_true(c.ts.host.window_cycles > 1);
    if (count_of(c.text, "warpsim initcheck: ") != 1 || !strstr(c.text, "checks.ptx:126)"))
        fail_msg("not the one finding of the read never written:\n%s", c.text);
    free(c.text);
}

/* The data of the looped kernels 700 elements short: a last block faults
 * in its fifth round or so, a load's fault as it issues, a store's at the
 * end of its cycle (cycle by cycle) or as it issues (in windows). */
static void test_faults(void **state)
{
    (void)state;
    enum { BLOCKS = 300, N = BLOCKS * 64 * 8 };
    compare("h100", "looped_load", BLOCKS, N - 700, N - 700, 0, "Invalid __global__ read");
    compare("h100", "looped_store", BLOCKS, N - 700, 0, 0, "Invalid __global__ write");
}

/* Blocks of many waves on the teaching GPU's two SMs: windows on one
 * thread and on three. */
static void test_many_waves(void **state)
{
    (void)state;
    enum { BLOCKS = 200, N = BLOCKS * 64 };
    checked one = run_checked("teaching", "checks", BLOCKS, N, N / 2, N, tt_threaded(1, 0));
    checked three = run_checked("teaching", "checks", BLOCKS, N, N / 2, N, tt_threaded(3, 0));
    assert_true(one.ok && three.ok);
    assert_true(one.ts.host.window_cycles > 1);
    assert_true(count_of(one.text, "warpsim checks: ") == 2);
    lab_same_text(one.text, one.len, three.text, three.len, "windows, one thread", "windows, three threads");
    free(one.text);
    free(three.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_wave),
        cmocka_unit_test(test_own_writes),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_many_waves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
