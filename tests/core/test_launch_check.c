/* The launch limits (sim/core/launch_check.h), the one check `warpsim run`
 * and `warpsim exec` share, at their boundaries on the A100 config
 * (maxThreadsPerBlock 1024, sharedMemPerBlock 49152, sharedMemPerBlockOptin
 * 166912, regsPerBlock 65536, 256-register allocation units, 4
 * sub-partitions), and the CUDA error each failure is reported as
 * (error_kinds.def; CUDA Runtime API, cudaError). */
#include "core_util.h"
#include "sim/core/launch_check.h"

/* a kernel with 1024 bytes of static shared memory */
static const char *src =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 tile[1024];\n"
    ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  ld.shared.u32 %r1, [tile];\n  ret;\n}\n";

typedef struct fixture { tctx t; ws_gpu_config g; const ws_kernel *k; } fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char err[1024];
    if (!f || !t_load(&f->t, src, "limits.ptx") ||
        ws_gpu_config_load(WARPSIM_SOURCE_DIR "/configs/a100.ini", &f->g, err, sizeof err))
        return -1;
    f->k = ws_program_kernel(f->t.p, "k");
    *state = f;
    return f->k ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    t_free(&f->t);
    free(f);
    return 0;
}

/* The kind (WS_ERR_NONE when it launches) of k with this grid, block,
 * dynamic shared memory, limit and registers per thread. */
static ws_error_kind check(fixture *f, ws_dim3 grid, ws_dim3 block, uint32_t dyn, int64_t limit, int32_t regs)
{
    ws_launch l = {.grid = grid, .block = block, .dynamic_smem = dyn};
    ws_launch_limits lim = {.gpu = &f->g, .max_dynamic_smem = limit, .regs_per_thread = regs, .carveout = -1};
    ws_error err = {.kind = WS_ERR_NONE};
    if (ws_launch_check_limits(f->k, &l, &lim, &err)) return WS_ERR_NONE;
    assert_non_null(strstr(err.msg, ws_error_cuda_name(err.kind)));   /* the message names it */
    return err.kind;
}

#define D(x, y, z) ((ws_dim3){x, y, z})

static void test_dimensions(void **state)
{
    fixture *f = *state;
    int64_t def = WS_SMEM_LIMIT_DEFAULT;
    assert_int_equal(check(f, D(1, 1, 1), D(1024, 1, 1), 0, def, 0), WS_ERR_NONE);
    assert_int_equal(check(f, D(1, 1, 1), D(1025, 1, 1), 0, def, 0), WS_ERR_LAUNCH_CONFIG);
    assert_int_equal(check(f, D(1, 1, 1), D(32, 32, 1), 0, def, 0), WS_ERR_NONE);
    assert_int_equal(check(f, D(1, 1, 1), D(32, 33, 1), 0, def, 0), WS_ERR_LAUNCH_CONFIG);  /* 1056 threads */
    assert_int_equal(check(f, D(1, 1, 1), D(1, 1, 64), 0, def, 0), WS_ERR_NONE);
    assert_int_equal(check(f, D(1, 1, 1), D(1, 1, 65), 0, def, 0), WS_ERR_LAUNCH_CONFIG);
    assert_int_equal(check(f, D(1, 1, 1), D(0, 1, 1), 0, def, 0), WS_ERR_LAUNCH_CONFIG);
    assert_int_equal(check(f, D(2147483647u, 65535, 65535), D(1, 1, 1), 0, def, 0), WS_ERR_NONE);
    assert_int_equal(check(f, D(2147483648u, 1, 1), D(1, 1, 1), 0, def, 0), WS_ERR_LAUNCH_CONFIG);
    assert_int_equal(check(f, D(1, 65536, 1), D(1, 1, 1), 0, def, 0), WS_ERR_LAUNCH_CONFIG);
    assert_int_equal(check(f, D(1, 1, 0), D(1, 1, 1), 0, def, 0), WS_ERR_LAUNCH_CONFIG);
    assert_int_equal(ws_error_cuda_code(WS_ERR_LAUNCH_CONFIG), 9);   /* cudaErrorInvalidConfiguration */
}

/* 1024 static bytes: by default 49152 - 1024 dynamic; raised, at most
 * 166912 - 1024; under run's opt-in limit the same. */
static void test_shared_memory(void **state)
{
    fixture *f = *state;
    ws_dim3 g = D(1, 1, 1), b = D(32, 1, 1);
    assert_int_equal(check(f, g, b, 48128, WS_SMEM_LIMIT_DEFAULT, 0), WS_ERR_NONE);
    assert_int_equal(check(f, g, b, 48129, WS_SMEM_LIMIT_DEFAULT, 0), WS_ERR_LAUNCH_SMEM);
    assert_int_equal(check(f, g, b, 165888, WS_SMEM_LIMIT_OPTIN, 0), WS_ERR_NONE);
    assert_int_equal(check(f, g, b, 165889, WS_SMEM_LIMIT_OPTIN, 0), WS_ERR_LAUNCH_SMEM);
    assert_int_equal(check(f, g, b, 100000, 100000, 0), WS_ERR_NONE);       /* cudaFuncSetAttribute */
    assert_int_equal(check(f, g, b, 100001, 100000, 0), WS_ERR_LAUNCH_SMEM);
    assert_int_equal(check(f, g, b, 165889, 200000, 0), WS_ERR_LAUNCH_SMEM);  /* past the GPU's own */
    assert_int_equal(ws_launch_max_dynamic_smem(f->k, &f->g, WS_SMEM_LIMIT_DEFAULT), 48128);
    assert_int_equal(ws_error_cuda_code(WS_ERR_LAUNCH_SMEM), 1);     /* cudaErrorInvalidValue */
}

/* 1024 threads = 32 warps, 8 per sub-partition; 64 registers a thread is
 * 2048 a warp, 65536 a block: fits; 65 rounds up to 2304 a warp: does not.
 * 0 registers: not checked. */
static void test_registers(void **state)
{
    fixture *f = *state;
    ws_dim3 g = D(1, 1, 1), b = D(1024, 1, 1);
    assert_int_equal(check(f, g, b, 0, WS_SMEM_LIMIT_DEFAULT, 64), WS_ERR_NONE);
    assert_int_equal(check(f, g, b, 0, WS_SMEM_LIMIT_DEFAULT, 65), WS_ERR_LAUNCH_RESOURCES);
    assert_int_equal(check(f, g, D(512, 1, 1), 0, WS_SMEM_LIMIT_DEFAULT, 128), WS_ERR_NONE);
    assert_int_equal(check(f, g, b, 0, WS_SMEM_LIMIT_DEFAULT, 0), WS_ERR_NONE);
    assert_int_equal(ws_error_cuda_code(WS_ERR_LAUNCH_RESOURCES), 701);  /* cudaErrorLaunchOutOfResources */
    assert_true(ws_error_launch_refused(WS_ERR_LAUNCH_RESOURCES));
    assert_false(ws_error_launch_refused(WS_ERR_ILLEGAL_ADDRESS));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dimensions),
        cmocka_unit_test(test_shared_memory),
        cmocka_unit_test(test_registers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
