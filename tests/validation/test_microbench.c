/* configs/h200.ini's latencies against what the microbenchmarks measured on
 * an H200 at the validation runs' clocks (validation/probes/microbench.cu,
 * validation/results/h200_microbench.txt, the section under ncu): the
 * pipe, shared-memory and L1 latencies; and the L2 and DRAM latencies
 * against the pointer chases of validation/probes/calib.cu under ncu
 * (validation/results/h200_calib/calib_ncu.txt). */
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

/* The value of name in the plain section (before "# under ncu") or the
 * one under ncu of the results file; fails when absent. */
static double measured_in(const char *name, bool want_ncu)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/validation/results/h200_microbench.txt", WARPSIM_SOURCE_DIR);
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

static double measured(const char *name) { return measured_in(name, true); }

/* The SM clock of the ncu runs in GHz: sm__cycles_elapsed.max over
 * gpu__time_duration.sum of the launches of h200_trends.csv, the largest
 * (the duration includes a little besides the cycles). */
static double ncu_sm_clock_ghz(void)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/validation/results/h200_trends.csv", WARPSIM_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    double ns = 0, best = 0;
    while (fgets(line, sizeof line, f)) {
        char *v = strrchr(line, ',');
        if (!v) continue;
        double x = strtod(v + 2, NULL);     /* past ,"  */
        if (strstr(line, "\"gpu__time_duration.sum\"")) ns = x;
        if (strstr(line, "\"sm__cycles_elapsed.max\"") && ns > 0 && x / ns > best) best = x / ns;
    }
    fclose(f);
    if (best <= 0) fail_msg("no cycles and durations in %s", path);
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
    if (fabs(g.dramBytesPerCycle - want) > 0.15 * want)
        fail_msg("configs/h200.ini dramBytesPerCycle = %d, the H200 streamed %.0f GB/s at %.3f GHz: %.0f",
                 g.dramBytesPerCycle, gbs, ghz, want);
    double per_op = measured("atomic_same_address_1warp") / 32;
    if (fabs(g.l2AtomicCyclesPerOp - per_op) > 0.15 * per_op)
        fail_msg("configs/h200.ini l2AtomicCyclesPerOp = %d, the H200 measured %.2f", g.l2AtomicCyclesPerOp, per_op);
}

/* The value of metric in the row of the launch with ncu ID id of an ncu
 * CSV ("ID",...,"Metric Name","Metric Unit","Metric Value"; values with
 * thousands separators). */
static double ncu_value(const char *path, int id, const char *metric)
{
    char line[1024], want_id[32], want_metric[128];
    snprintf(want_id, sizeof want_id, "\"%d\",", id);
    snprintf(want_metric, sizeof want_metric, "\"%s\",", metric);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    double v = NAN;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, want_id, strlen(want_id)) || !strstr(line, want_metric)) continue;
        char *q = NULL;     /* the last field: after the last "," */
        for (char *p = strstr(line, "\",\""); p; p = strstr(p + 1, "\",\"")) q = p + 3;
        if (!q) break;
        double x = 0;
        for (; *q && *q != '"'; q++)
            if (*q >= '0' && *q <= '9') x = x * 10 + (*q - '0');
        v = x;
    }
    fclose(f);
    if (isnan(v)) fail_msg("no %s for launch %d in %s", metric, id, path);
    return v;
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
    double req = ncu_value(path, 2, "lts__t_requests_srcunit_tex_op_write.sum");
    double cyc = ncu_value(path, 2, "gpc__cycles_elapsed.max");
    assert_true(req > 1e6 && cyc > 1e5);
    double rate = req / cyc;
    printf("l2WriteRequestsPerCycle = %d, measured %.1f\n", g.l2WriteRequestsPerCycle, rate);
    if (fabs(g.l2WriteRequestsPerCycle - rate) > 0.05 * rate)
        fail_msg("configs/h200.ini l2WriteRequestsPerCycle = %d, the H200 took %.1f a cycle",
                 g.l2WriteRequestsPerCycle, rate);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_h200_latencies),
                                       cmocka_unit_test(test_h200_l2_dram_latencies),
                                       cmocka_unit_test(test_h200_memory_rates),
                                       cmocka_unit_test(test_h200_l2_write_requests)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
