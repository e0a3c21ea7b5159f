/* configs/h200.ini's latencies against what the microbenchmarks measured on
 * an H200 at the validation runs' clocks (validation/probes/microbench.cu,
 * validation/results/h200_microbench.txt, the section under ncu): the
 * pipe, shared-memory and L1 latencies; and the L2 and DRAM latencies
 * against the pointer chases of validation/probes/calib.cu under ncu
 * (validation/results/h200_calib/calib_ncu.txt); the launch overhead and
 * the DRAM access block against validation/probes/launch_overhead.cu and
 * dram_sector.cu (validation/results/h200/probes_2026-12-01/); and the
 * probes of validation/probes/pipe_rest.cu (the tensor pipe, constant
 * loads, a loop's taken branch, shared-memory wavefronts) run in warpsim
 * against the cycles the H200 gave for them. */
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sim/base/gpu_config.h"
#include "../timing/timing_util.h"

/* The value of a "name value unit" line of the results file at file (from
 * the source root): in its plain section (before "# under ncu", or the
 * whole file when it has none) or in the one under ncu; fails when absent. */
static double value_in(const char *file, const char *name, bool want_ncu)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_SOURCE_DIR, file);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    bool under_ncu = false;
    double v = NAN;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "# under ncu")) under_ncu = true;
        size_t n = strlen(name);
        if (under_ncu == want_ncu && !strncmp(line, name, n) && line[n] == ' ') v = strtod(line + n, NULL);
    }
    fclose(f);
    if (isnan(v)) fail_msg("%s not in %s", name, path);
    return v;
}

/* validation/results/h200_microbench.txt (validation/probes/microbench.cu) */
static double measured_in(const char *name, bool want_ncu)
{
    return value_in("validation/results/h200_microbench.txt", name, want_ncu);
}

static double measured(const char *name) { return measured_in(name, true); }

/* One launch of an ncu CSV: its kernel (ncu's name, with the parameter
 * list), grid and block size in x, and one metric's value. */
typedef struct ncu_launch { char kernel[64]; uint32_t grid, block; double value; } ncu_launch;

/* The launches of an ncu CSV ("ID",...,"Metric Name","Metric Unit","Metric
 * Value"; values with thousands separators) in the order of their IDs, with
 * the value of metric; returns how many (at most max). */
static int ncu_launches(const char *path, const char *metric, ncu_launch *out, int max)
{
    char line[1024];
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        if (line[0] != '"' || !strncmp(line, "\"ID\"", 4)) continue;
        /* fields between '"', separated by "," */
        char *field[16];
        int nf = 0;
        for (char *p = line + 1; nf < 16;) {
            field[nf++] = p;
            char *q = strstr(p, "\",\"");
            if (!q) { if ((q = strchr(p, '"'))) *q = '\0'; break; }
            *q = '\0';
            p = q + 3;
        }
        if (nf < 15 || strcmp(field[12], metric)) continue;
        ncu_launch *l = &out[n++];
        snprintf(l->kernel, sizeof l->kernel, "%s", field[4]);
        l->block = (uint32_t)strtoul(field[7] + 1, NULL, 10);   /* "(32, 1, 1)" */
        l->grid = (uint32_t)strtoul(field[8] + 1, NULL, 10);
        double x = 0;
        for (const char *q = field[14]; *q; q++)
            if (*q >= '0' && *q <= '9') x = x * 10 + (*q - '0');
        l->value = x;
    }
    fclose(f);
    return n;
}

/* The SM clock of the ncu runs in GHz: sm__cycles_elapsed.max over
 * gpu__time_duration.sum of the launches of validation/probes/dram_sector.cu
 * under ncu with the validation runs' settings, the largest (the duration
 * includes a little besides the cycles). */
static double ncu_sm_clock_ghz(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/validation/results/h200/probes_2026-12-01/dram_sector_ncu.csv",
             WARPSIM_SOURCE_DIR);
    ncu_launch cyc[32], ns[32];
    int n = ncu_launches(path, "sm__cycles_elapsed.max", cyc, 32);
    if (n == 0 || ncu_launches(path, "gpu__time_duration.sum", ns, 32) != n)
        fail_msg("no cycles and durations in %s", path);
    double best = 0;
    for (int i = 0; i < n; i++)
        if (ns[i].value > 0 && cyc[i].value / ns[i].value > best) best = cyc[i].value / ns[i].value;
    return best;
}

/* Within 15 %: the chains include a little loop overhead, and the config
 * holds whole cycles. */
static void near(const char *key, int32_t config, const char *name)
{
    double m = measured(name);
    if (fabs(config - m) > 0.15 * m)
        fail_msg("configs/h200.ini %s = %d, the H200 measured %.2f (%s)", key, config, m, name);
}

static void test_h200_latencies(void **state)
{
    (void)state;
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("h200", &g, err, sizeof err) != 0) fail_msg("%s", err);
    near("latencyFp32", g.latencyFp32, "latency_fp32_fma");
    near("latencyInt", g.latencyInt, "latency_int_add");
    near("latencyFp64", g.latencyFp64, "latency_fp64_fma");
    near("latencySfu", g.latencySfu, "latency_sfu_sin");
    near("latencySharedLoad", g.latencySharedLoad, "latency_shared_load");
    near("latencyL1Hit", g.latencyL1Hit, "latency_l1_hit");
}

/* The median of the "NAME C cycles" lines of calib_ncu.txt whose name
 * starts with prefix and whose footprint (the number before "KB") lies in
 * [lo_kb, hi_kb]; a chase with a footprint of 0 (no "KB") is taken when
 * lo_kb is 0. */
static double chase_median(const char *prefix, long lo_kb, long hi_kb)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/validation/results/h200_calib/calib_ncu.txt", WARPSIM_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    double v[64];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < 64) {
        size_t len = strlen(prefix);
        if (strncmp(line, prefix, len)) continue;
        long kb = strtol(line + len, NULL, 10);
        if (kb < lo_kb || kb > hi_kb) continue;
        char *sp = strchr(line, ' ');
        if (sp) v[n++] = strtod(sp + 1, NULL);
    }
    fclose(f);
    if (n == 0) fail_msg("no %s lines of %ld-%ld KB in %s", prefix, lo_kb, hi_kb, path);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
        }
    return v[(n - 1) / 2];
}

/* L2: ld.global.cg chases over 512 KB to 16 MB (past the L1, inside the
 * 60 MB L2); DRAM: chases over 128 to 512 MB, far past the L2.  Within 5 %. */
static void test_h200_l2_dram_latencies(void **state)
{
    (void)state;
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("h200", &g, err, sizeof err) != 0) fail_msg("%s", err);
    double l2 = chase_median("chase_cg_", 512, 16384), dram = chase_median("chase_cg_", 131072, 524288);
    printf("latencyL2Hit = %d, measured %.1f; latencyDram = %d, measured %.1f\n", g.latencyL2Hit, l2,
           g.latencyDram, dram);
    if (fabs(g.latencyL2Hit - l2) > 0.05 * l2)
        fail_msg("configs/h200.ini latencyL2Hit = %d, the H200's L2 chases give %.1f", g.latencyL2Hit, l2);
    if (fabs(g.latencyDram - dram) > 0.05 * dram)
        fail_msg("configs/h200.ini latencyDram = %d, the H200's DRAM chases give %.1f", g.latencyDram, dram);
}

/* DRAM: the read stream of the plain run (GB/s, at the GPU's clocks) over
 * the SM clock of the ncu runs, in bytes a cycle; the L2's atomic unit: 32
 * lanes on one word, from one warp, per lane (under ncu). */
static void test_h200_memory_rates(void **state)
{
    (void)state;
    ws_gpu_config g;
    char err[512];
    if (ws_gpu_config_load("h200", &g, err, sizeof err) != 0) fail_msg("%s", err);
    double ghz = ncu_sm_clock_ghz();
    assert_true(ghz > 1.0 && ghz < 2.0);
    /* the plain line reads "bandwidth_dram B bytes_per_cycle (G GB/s at ...)": take G
     * (B counts cycles of the boost clock) */
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/validation/results/h200_microbench.txt", WARPSIM_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    double gbs = 0;
    while (fgets(line, sizeof line, f) && !strstr(line, "# under ncu")) {
        char *p = strstr(line, "bandwidth_dram ");
        if (p && (p = strchr(p, '('))) gbs = strtod(p + 1, NULL);
    }
    fclose(f);
    if (gbs <= 0) fail_msg("no plain bandwidth_dram in %s", path);
    double want = gbs / ghz;
    printf("dramBytesPerCycle = %d, measured %.0f (%.0f GB/s over %.3f GHz)\n", g.dramBytesPerCycle, want, gbs, ghz);
    if (fabs(g.dramBytesPerCycle - want) > 0.15 * want)
        fail_msg("configs/h200.ini dramBytesPerCycle = %d, the H200 streamed %.0f GB/s at %.3f GHz: %.0f",
                 g.dramBytesPerCycle, gbs, ghz, want);
    double per_op = measured("atomic_same_address_1warp") / 32;
    if (fabs(g.l2AtomicCyclesPerOp - per_op) > 0.15 * per_op)
        fail_msg("configs/h200.ini l2AtomicCyclesPerOp = %d, the H200 measured %.2f", g.l2AtomicCyclesPerOp, per_op);
}

/* The L2's rate of write requests: one-lane stores from every SM
 * (validation/probes/stores_few_sms.cu, launch 2: 132 blocks, stride 2048,
 * every request one partly written sector), requests over cycles. */
static void test_h200_l2_write_requests(void **state)
{
    (void)state;
    ws_gpu_config g;
    char err[512], path[1024];
    if (ws_gpu_config_load("h200", &g, err, sizeof err) != 0) fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/validation/results/h200/probes_2026-12-01/stores_few_sms_ncu.csv",
             WARPSIM_SOURCE_DIR);
    ncu_launch r[8], c[8];
    assert_int_equal(ncu_launches(path, "lts__t_requests_srcunit_tex_op_write.sum", r, 8), 6);
    assert_int_equal(ncu_launches(path, "gpc__cycles_elapsed.max", c, 8), 6);
    double req = r[2].value, cyc = c[2].value;
    assert_true(req > 1e6 && cyc > 1e5);
    double rate = req / cyc;
    printf("l2WriteRequestsPerCycle = %d, measured %.1f\n", g.l2WriteRequestsPerCycle, rate);
    if (fabs(g.l2WriteRequestsPerCycle - rate) > 0.05 * rate)
        fail_msg("configs/h200.ini l2WriteRequestsPerCycle = %d, the H200 took %.1f a cycle",
                 g.l2WriteRequestsPerCycle, rate);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* launchOverheadCycles: each launch of validation/probes/launch_overhead.cu
 * (kernels that do almost nothing, 1 to 1056 blocks) took the H200
 * sm__cycles_elapsed.max cycles under ncu; warpsim simulates the same
 * launch (the probe's PTX as nvcc built it for the GPU, with ptxas's
 * register counts) and the overhead is the median of what the GPU took
 * beyond warpsim's cycles for the work.  Within 5 %: warpsim's cycles for
 * the work may move a little as the model does. */
static void test_h200_launch_overhead(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h200");
    char path[1024];
    snprintf(path, sizeof path, "%s/validation/results/h200/probes_2026-12-01/launch_overhead_ncu.csv",
             WARPSIM_SOURCE_DIR);
    ncu_launch l[64];
    int n = ncu_launches(path, "sm__cycles_elapsed.max", l, 64);
    assert_int_equal(n, 42);
    snprintf(path, sizeof path, "%s/validation/probes/launch_overhead.ptx", WARPSIM_SOURCE_DIR);
    tctx t;
    t_load_path(&t, path);
    uint64_t in = t_alloc(&t, NULL, 132 * 1024 * 4), out = t_alloc(&t, NULL, 132 * 1024 * 4);
    double over[64];
    for (int i = 0; i < n; i++) {
        const char *name = NULL;
        int32_t regs = 0;   /* ptxas -v for sm_90, as warpsim exec takes them */
        t.nparams = 0;
        if (!strncmp(l[i].kernel, "launch_empty(", 13)) {
            name = "_Z12launch_emptyv", regs = 4;
        } else if (!strncmp(l[i].kernel, "launch_store(", 13)) {
            name = "_Z12launch_storePi", regs = 10;
            t_p64(&t, out);
        } else if (!strncmp(l[i].kernel, "launch_load_store(", 18)) {
            name = "_Z17launch_load_storePKiPi", regs = 10;
            t_p64(&t, in);
            t_p64(&t, out);
        } else {
            fail_msg("unknown kernel %s in %s", l[i].kernel, path);
        }
        ws_timing_stats ts;
        tt_run(&t, &g, name, D3(l[i].grid, 1, 1), D3(l[i].block, 1, 1), 0, regs, &ts);
        over[i] = l[i].value - (double)(ts.cycles - ts.launch_cycles);
    }
    t_free(&t);
    qsort(over, (size_t)n, sizeof *over, cmp_double);
    double median = (over[(n - 1) / 2] + over[n / 2]) / 2;
    printf("launchOverheadCycles = %d, measured %.1f (%.0f-%.0f over %d launches)\n", g.launchOverheadCycles,
           median, over[0], over[n - 1], n);
    if (fabs(g.launchOverheadCycles - median) > 0.05 * median)
        fail_msg("configs/h200.ini launchOverheadCycles = %d, the H200's launches give %.1f",
                 g.launchOverheadCycles, median);
}

/* dramAccessBytes: validation/probes/dram_sector.cu reads one word a thread
 * at strides of 4, 32, 64, 128, 256, 1024 and 4096 bytes, three launches
 * each in that order.  DRAM bytes per L2 read sector: at stride 32 (every
 * sector read) 32; from stride 64 on (each sector alone in its 64 B) the
 * config's block.  Within 2 %. */
static void test_h200_dram_access_block(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h200");
    char path[1024];
    snprintf(path, sizeof path, "%s/validation/results/h200/probes_2026-12-01/dram_sector_ncu.csv",
             WARPSIM_SOURCE_DIR);
    ncu_launch dram[32], sectors[32];
    int n = ncu_launches(path, "dram__bytes_read.sum", dram, 32);
    assert_int_equal(n, 21);
    assert_int_equal(ncu_launches(path, "lts__t_sectors_srcunit_tex_op_read.sum", sectors, 32), 21);
    for (int i = 3; i < n; i++) {
        assert_true(sectors[i].value >= 1 << 20);
        double per_sector = dram[i].value / sectors[i].value, want = i < 6 ? 32 : g.dramAccessBytes;
        if (fabs(per_sector - want) > 0.02 * want)
            fail_msg("launch %d of %s: %.2f DRAM bytes per sector; configs/h200.ini dramAccessBytes = %d",
                     i, path, per_sector, g.dramAccessBytes);
    }
    printf("dramAccessBytes = %d, measured %.2f for a lone sector, %.2f for adjacent ones\n",
           g.dramAccessBytes, dram[20].value / sectors[20].value, dram[4].value / sectors[4].value);
}

/* A line of validation/results/h200/probes_2026-12-01/pipe_rest_ncu.txt
 * (validation/probes/pipe_rest.cu under ncu; the file has no plain part). */
static double pipe_measured(const char *name)
{
    return value_in("validation/results/h200/probes_2026-12-01/pipe_rest_ncu.txt", name, false);
}

/* One probe kernel of validation/probes/pipe_rest.ptx (nvcc -O3
 * -arch=sm_90 -ptx, regs from ptxas -v) timed in warpsim on the h200
 * config; it stores its own clock64 cycles in its last parameter.  The
 * simulated cycles per unit (the probe's divisor) against the H200's,
 * within tol. */
typedef struct pipe_probe {
    const char *measured;   /* the line of pipe_rest_ncu.txt */
    const char *kernel;     /* mangled */
    int32_t regs;
    uint32_t threads;
    int32_t a0, a1;         /* the leading scalar arguments (or pointers, see below) */
    bool halves;            /* the kernel takes (a, b, n, out, cycles): a0 is n */
    double per;             /* the probe's divisor: units a launch */
    double tol;
} pipe_probe;

static void test_h200_pipe_probes(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h200");
    char path[1024];
    snprintf(path, sizeof path, "%s/validation/probes/pipe_rest.ptx", WARPSIM_SOURCE_DIR);
    tctx t;
    t_load_path(&t, path);
    /* the constant table the probe's host fills: next[i] = (i * 389 + 17) % 1024 */
    bool table = false;
    for (int32_t i = 0; i < t.p->nglobals; i++)
        if (!strcmp(t.p->globals[i].name, "const_next")) {
            uint32_t next[1024];
            for (uint32_t j = 0; j < 1024; j++) next[j] = (j * 389 + 17) % 1024;
            assert_true(t.p->globals[i].size == sizeof next);
            assert_true(ws_devmem_write(t.mem, t.p->globals[i].addr, next, sizeof next));
            table = true;
        }
    assert_true(table);
    uint16_t h[256];   /* f16 (i % 7) * 0.01, as the probe's host makes them; values do not
                        * change the cycles */
    for (int i = 0; i < 256; i++) h[i] = (uint16_t)(0x2000 + i % 7);
    uint64_t a = t_alloc(&t, h, sizeof h), b = t_alloc(&t, h, sizeof h);
    uint64_t out = t_alloc(&t, NULL, 16 * 256 * 4), sink = t_alloc(&t, NULL, 1024 * 4);
    uint64_t cyc = t_alloc(&t, NULL, 8);
    const int n = 256;
    const pipe_probe probes[] = {
        {"tensor_chain", "_Z12tensor_chainPK6__halfS1_iPfPx", 28, 32, n, 0, true, n * 8, 0.05},
        {"tensor_rate_16warps", "_Z11tensor_ratePK6__halfS1_iPfPx", 48, 512, n, 0, true, n * 4, 0.05},
        /* the PTX's address arithmetic is an instruction longer than ptxas's (mul.wide and
         * add.s64 against IMAD.SHL): 4 cycles more a load */
        {"const_chain_64B", "_Z11const_chainijPjPx", 14, 1, n, 16, false, n * 8, 0.20},
        /* the loop's counter, compare and branch issue in PTX's order after the body, where
         * ptxas interleaves them with the chain: 8 cycles more a round */
        {"branch_loop_8x1", "_Z11branch_loopILi8ELi1EEviPfPx", 14, 1, n * 8, -1, false, n * 8, 0.25},
        {"branch_loop_16x1", "_Z11branch_loopILi16ELi1EEviPfPx", 14, 1, n * 8, -1, false, n * 8, 0.15},
        {"branch_loop_4x8", "_Z11branch_loopILi4ELi8EEviPfPx", 24, 1, n * 8, -1, false, n * 8, 0.15},
        {"shared_conflict_1", "_Z15shared_conflictiiPjPx", 17, 1024, 1, n, false, 32.0 * n * 8, 0.15},
        {"shared_conflict_2", "_Z15shared_conflictiiPjPx", 17, 1024, 2, n, false, 32.0 * n * 8, 0.15},
        {"shared_conflict_4", "_Z15shared_conflictiiPjPx", 17, 1024, 4, n, false, 32.0 * n * 8, 0.05},
        {"shared_conflict_8", "_Z15shared_conflictiiPjPx", 17, 1024, 8, n, false, 32.0 * n * 8, 0.05},
        {"shared_conflict_16", "_Z15shared_conflictiiPjPx", 17, 1024, 16, n, false, 32.0 * n * 8, 0.05},
        {"shared_conflict_32", "_Z15shared_conflictiiPjPx", 17, 1024, 32, n, false, 32.0 * n * 8, 0.05},
    };
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
        const pipe_probe *q = &probes[i];
        t.nparams = 0;
        if (q->halves) {
            t_p64(&t, a);
            t_p64(&t, b);
            t_p32(&t, (uint32_t)q->a0);
            t_p64(&t, out);
        } else {
            t_p32(&t, (uint32_t)q->a0);
            if (q->a1 >= 0) t_p32(&t, (uint32_t)q->a1);
            t_p64(&t, sink);
        }
        t_p64(&t, cyc);
        ws_timing_stats ts;
        tt_run(&t, &g, q->kernel, D3(1, 1, 1), D3(q->threads, 1, 1), 0, q->regs, &ts);
        int64_t c = 0;
        assert_true(ws_devmem_read(t.mem, cyc, &c, sizeof c));
        double sim = (double)c / q->per, gpu = pipe_measured(q->measured);
        printf("%-20s warpsim %7.2f  H200 %7.2f\n", q->measured, sim, gpu);
        if (fabs(sim - gpu) > q->tol * gpu)
            fail_msg("%s: warpsim %.2f cycles, the H200 %.2f (configs/h200.ini against "
                     "validation/results/h200/probes_2026-12-01/pipe_rest_ncu.txt)", q->measured, sim, gpu);
    }
    t_free(&t);
}

/* l2BytesPerCyclePerSlice: the L2 read bandwidth the microbenchmark
 * measured (bytes a cycle, at the GPU's clocks) over the config's slices,
 * within 5 %. */
static void test_h200_l2_bandwidth(void **state)
{
    (void)state;
    ws_gpu_config g;
    tt_config(&g, "h200");
    double per_slice = measured_in("bandwidth_l2", false) / g.l2Slices;
    printf("l2BytesPerCyclePerSlice = %d, measured %.1f\n", g.l2BytesPerCyclePerSlice, per_slice);
    if (fabs(g.l2BytesPerCyclePerSlice - per_slice) > 0.05 * per_slice)
        fail_msg("configs/h200.ini l2BytesPerCyclePerSlice = %d, the H200's L2 gave %.1f a slice",
                 g.l2BytesPerCyclePerSlice, per_slice);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_h200_latencies),
                                       cmocka_unit_test(test_h200_l2_dram_latencies),
                                       cmocka_unit_test(test_h200_memory_rates),
                                       cmocka_unit_test(test_h200_l2_write_requests),
                                       cmocka_unit_test(test_h200_launch_overhead),
                                       cmocka_unit_test(test_h200_dram_access_block),
                                       cmocka_unit_test(test_h200_pipe_probes),
                                       cmocka_unit_test(test_h200_l2_bandwidth)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
