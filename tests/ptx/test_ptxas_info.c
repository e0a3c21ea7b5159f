/* ptx_ptxas_entry: one entry's registers and static shared memory from
 * ptxas -v's output for a whole module (the text below is the format of
 * ptxas of CUDA 13.0, `ptxas -v -arch=sm_90` on kernels/ptx/sm_90, cut to
 * three entries, the middle one with no smem on its "Used" line and the
 * last one with none at all). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "frontend/ptx/ptxas_info.h"

static const char *const output =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z11conv3dTiledPKfPfiii' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z11conv3dTiledPKfPfiii\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 24 registers, used 1 barriers, 2048 bytes smem\n"
    "ptxas info    : Compile time = 10.449 ms\n"
    "ptxas info    : Compiling entry function '_Z11conv3dNaivePKfPfiii' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z11conv3dNaivePKfPfiii\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 9.052 ms\n"
    "ptxas info    : Compiling entry function '_Z10noRegistersv' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z10noRegistersv\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function '_Z11conv1dTiledPKfPfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z11conv1dTiledPKfPfi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 22 registers, used 1 barriers, 512 bytes smem\n"
    "ptxas info    : Compile time = 2.287 ms\n";

static void test_each_entry(void **state)
{
    (void)state;
    int32_t regs = -1;
    uint64_t smem = 99;
    char err[256] = "";
    assert_int_equal(ptx_ptxas_entry(output, "ptxas", "_Z11conv3dTiledPKfPfiii", &regs, &smem, err, sizeof err), 0);
    assert_int_equal(regs, 24);
    assert_int_equal(smem, 2048);
    assert_int_equal(ptx_ptxas_entry(output, "ptxas", "_Z11conv3dNaivePKfPfiii", &regs, &smem, err, sizeof err), 0);
    assert_int_equal(regs, 32);
    assert_int_equal(smem, 0);     /* no "bytes smem" on its line: none, not the next entry's */
    assert_int_equal(ptx_ptxas_entry(output, "ptxas", "_Z11conv1dTiledPKfPfi", &regs, &smem, err, sizeof err), 0);
    assert_int_equal(regs, 22);
    assert_int_equal(smem, 512);
}

static void test_absent_entry(void **state)
{
    (void)state;
    int32_t regs = -1;
    uint64_t smem = 99;
    char err[256] = "";
    assert_int_equal(ptx_ptxas_entry(output, "/usr/local/cuda/bin/ptxas", "_Z6absentv", &regs, &smem, err,
                                     sizeof err), -1);
    assert_string_equal(err, "/usr/local/cuda/bin/ptxas printed no register count for '_Z6absentv'");
    assert_int_equal(regs, -1);
    assert_int_equal(smem, 99);
    /* a name that only begins another entry's is not that entry */
    assert_int_equal(ptx_ptxas_entry(output, "ptxas", "_Z11conv1dTiled", &regs, &smem, err, sizeof err), -1);
}

/* An entry with no "Used" line of its own does not take the next entry's. */
static void test_next_entrys_line_not_taken(void **state)
{
    (void)state;
    int32_t regs = -1;
    uint64_t smem = 99;
    char err[256] = "";
    assert_int_equal(ptx_ptxas_entry(output, "ptxas", "_Z10noRegistersv", &regs, &smem, err, sizeof err), -1);
    assert_string_equal(err, "ptxas printed no register count for '_Z10noRegistersv'");
    assert_int_equal(regs, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_entry),
        cmocka_unit_test(test_absent_entry),
        cmocka_unit_test(test_next_entrys_line_not_taken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
