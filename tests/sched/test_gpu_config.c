/* The GPU config loader: every config in configs/ loads and says what
 * hardware.md's tables say; bad files get a message naming line and key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/base/gpu_config.h"

/* Per-SM limits from docs/hardware.md. */
typedef struct expect {
    const char *gpu;
    int32_t major, minor, sms, max_warps, max_blocks;
    uint64_t smem_max_kb, optin_kb, reserved, smem_unit;
    int32_t nsteps;
    uint64_t last_step_kb;
} expect;

static const expect table[] = {
    {"a100", 8, 0, 108, 64, 32, 164, 163, 1024, 128, 8, 164},
    {"h100", 9, 0, 132, 64, 32, 228, 227, 1024, 128, 10, 228},
    {"h200", 9, 0, 132, 64, 32, 228, 227, 1024, 128, 10, 228},
    {"rtx4090", 8, 9, 128, 48, 24, 100, 99, 1024, 128, 6, 100},
    {"rtx2080ti", 7, 5, 68, 32, 16, 64, 64, 0, 256, 2, 64},
};

static void test_configs_match_hardware_md(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const expect *e = &table[i];
        ws_gpu_config g;
        char err[1024];
        if (ws_gpu_config_load(e->gpu, &g, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(g.major, e->major);
        assert_int_equal(g.minor, e->minor);
        assert_int_equal(g.multiProcessorCount, e->sms);
        assert_int_equal(g.maxThreadsPerMultiProcessor / g.warpSize, e->max_warps);
        assert_int_equal(g.maxBlocksPerMultiProcessor, e->max_blocks);
        assert_int_equal(g.regsPerMultiprocessor, 65536);
        assert_int_equal(g.regAllocUnitSize, 256);
        assert_int_equal(g.maxRegsPerThread, 255);
        assert_int_equal(g.subPartitionsPerMultiprocessor, 4);
        assert_int_equal(g.sharedMemPerMultiprocessor, e->smem_max_kb * 1024);
        assert_int_equal(g.sharedMemPerBlockOptin, e->optin_kb * 1024);
        assert_int_equal(g.sharedMemPerBlock, 48 * 1024);
        assert_int_equal(g.reservedSharedMemPerBlock, e->reserved);
        assert_int_equal(g.sharedMemAllocUnitSize, e->smem_unit);
        assert_int_equal(g.numCarveoutSteps, e->nsteps);
        assert_int_equal(g.carveoutSteps[e->nsteps - 1], e->last_step_kb * 1024);
    }
    ws_gpu_config g;
    char err[1024];
    assert_int_equal(ws_gpu_config_load("teaching", &g, err, sizeof err), 0);
    assert_true(g.multiProcessorCount >= 1 && g.multiProcessorCount <= 2);
    assert_int_equal(g.latencyFp32, 4);
    /* A path works as well as a name. */
    assert_int_equal(ws_gpu_config_load(WARPSIM_CONFIG_DIR "/a100.ini", &g, err, sizeof err), 0);
    assert_string_equal(g.name, "NVIDIA A100-SXM4-40GB");
    assert_int_equal(g.clockRate, 1410000);
    assert_int_equal(g.latencyL2Hit, 262);
    assert_int_equal(g.fp32LanesPerMultiprocessor, 64);
}

/* The a100 file's text, to break in one place at a time. */
static char *a100_text(void)
{
    FILE *f = fopen(WARPSIM_CONFIG_DIR "/a100.ini", "rb");
    assert_non_null(f);
    static const size_t cap = 1 << 16;
    char *buf = calloc(1, cap);
    assert_non_null(buf);
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Replaces the first occurrence of from with to and loads the result;
 * returns the message (empty on success). */
static const char *load_edited(const char *from, const char *to, char *err, size_t size)
{
    char *text = a100_text();
    char *at = strstr(text, from);
    assert_non_null(at);
    size_t n = strlen(text) + strlen(to) + 1;
    char *edited = malloc(n);
    assert_non_null(edited);
    snprintf(edited, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    ws_gpu_config g;
    err[0] = '\0';
    ws_gpu_config_load_string(edited, "test.ini", &g, err, size);
    free(edited);
    free(text);
    return err;
}

/* The line number inih reports for text's first line containing needle. */
static int line_of(const char *needle)
{
    char *text = a100_text();
    char *at = strstr(text, needle);
    int line = 1;
    for (char *p = text; p < at; p++)
        line += *p == '\n';
    free(text);
    return line;
}

static void test_errors(void **state)
{
    (void)state;
    char err[1024], want[256];
    assert_string_equal(load_edited("warpSize = 32", "warpSize = 32", err, sizeof err), "");

    snprintf(want, sizeof want, "test.ini:%d: error: unknown key 'warpSize2'", line_of("warpSize = 32"));
    assert_string_equal(load_edited("warpSize = 32", "warpSize2 = 32", err, sizeof err), want);

    snprintf(want, sizeof want, "test.ini:%d: error: 'warpSize' must be a non-negative whole number, not 'thirty-two'",
             line_of("warpSize = 32"));
    assert_string_equal(load_edited("warpSize = 32", "warpSize = thirty-two", err, sizeof err), want);

    assert_non_null(strstr(load_edited("warpSize = 32", "warpSize = -1", err, sizeof err), "non-negative"));
    assert_non_null(strstr(load_edited("warpSize = 32", "warpSize = 0", err, sizeof err), "out of range"));
    assert_non_null(strstr(load_edited("warpSize = 32", "warpSize = 32x", err, sizeof err), "whole number"));

    assert_string_equal(load_edited("warpSize = 32\n", "", err, sizeof err),
                        "test.ini: error: missing key 'warpSize'");

    snprintf(want, sizeof want, "test.ini:%d: error: key 'warpSize' given twice", line_of("warpSize = 32") + 1);
    assert_string_equal(load_edited("warpSize = 32", "warpSize = 32\nwarpSize = 32", err, sizeof err), want);

    snprintf(want, sizeof want, "test.ini:%d: error: expected 'key = value', '[section]' or a ';' comment",
             line_of("warpSize = 32"));
    assert_string_equal(load_edited("warpSize = 32", "warpSize 32", err, sizeof err), want);

    assert_non_null(strstr(load_edited("[occupancy]", "[occupancie]", err, sizeof err), "unknown section [occupancie]"));
    assert_non_null(strstr(load_edited("0, 8, 16, 32, 64, 100, 132, 164", "0, 8, 16, 32, 64, 100, 132",
                                       err, sizeof err), "must equal sharedMemPerMultiprocessor"));
    assert_non_null(strstr(load_edited("0, 8, 16, 32, 64, 100, 132, 164", "0, 16, 8, 32, 64, 100, 132, 164",
                                       err, sizeof err), "ascending"));
    assert_non_null(strstr(load_edited("0, 8, 16, 32, 64, 100, 132, 164", "0, 8, lots",
                                       err, sizeof err), "list of sizes"));
    assert_non_null(strstr(load_edited("sharedMemPerBlockOptin = 166912", "sharedMemPerBlockOptin = 167936",
                                       err, sizeof err), "exceeds sharedMemPerMultiprocessor"));
    /* a sub-partition's warps are 64-bit sets: 64 warps in one, or 256 in
     * four, are the most; 257 in four are refused */
    assert_string_equal(load_edited("subPartitionsPerMultiprocessor = 4", "subPartitionsPerMultiprocessor = 1",
                                    err, sizeof err), "");
    assert_string_equal(load_edited("maxThreadsPerMultiProcessor = 2048", "maxThreadsPerMultiProcessor = 8192",
                                    err, sizeof err), "");
    assert_string_equal(load_edited("maxThreadsPerMultiProcessor = 2048", "maxThreadsPerMultiProcessor = 8224",
                                    err, sizeof err),
                        "test.ini: error: at most 64 warps a sub-partition: maxThreadsPerMultiProcessor / "
                        "warpSize (257 warps) needs subPartitionsPerMultiprocessor >= 5");
}

static void test_lookup(void **state)
{
    (void)state;
    ws_gpu_config g;
    char err[1024];
    assert_int_equal(ws_gpu_config_load("a1000", &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown GPU 'a1000'"));
    assert_non_null(strstr(err, "a100, h100, h200, rtx2080ti, rtx4090, teaching"));
    assert_int_equal(ws_gpu_config_load("../configs/a100", &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open GPU config"));
    assert_int_equal(ws_gpu_config_load("/nonexistent/x.ini", &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.ini: error: cannot open GPU config"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_configs_match_hardware_md),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
