/* End to end through the core: parse -> load -> launch -> results compared
 * with CPU computations, on the course's kernels as nvcc emits them. */
#include "core_util.h"

#include <math.h>

static const char vecadd_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry _Z6vecAddPKfS0_Pfi(\n"
    "\t.param .u64 _Z6vecAddPKfS0_Pfi_param_0,\n"
    "\t.param .u64 _Z6vecAddPKfS0_Pfi_param_1,\n"
    "\t.param .u64 _Z6vecAddPKfS0_Pfi_param_2,\n"
    "\t.param .u32 _Z6vecAddPKfS0_Pfi_param_3\n)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .f32 %f<4>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<11>;\n"
    "\tld.param.u64 %rd1, [_Z6vecAddPKfS0_Pfi_param_0];\n"
    "\tld.param.u64 %rd2, [_Z6vecAddPKfS0_Pfi_param_1];\n"
    "\tld.param.u64 %rd3, [_Z6vecAddPKfS0_Pfi_param_2];\n"
    "\tld.param.u32 %r2, [_Z6vecAddPKfS0_Pfi_param_3];\n"
    "\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %tid.x;\n"
    "\tmad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "\tsetp.ge.s32 %p1, %r1, %r2;\n"
    "\t@%p1 bra $L__BB0_2;\n"
    "\tcvta.to.global.u64 %rd4, %rd1;\n"
    "\tmul.wide.s32 %rd5, %r1, 4;\n"
    "\tadd.s64 %rd6, %rd4, %rd5;\n"
    "\tcvta.to.global.u64 %rd7, %rd2;\n"
    "\tadd.s64 %rd8, %rd7, %rd5;\n"
    "\tld.global.f32 %f1, [%rd8];\n"
    "\tld.global.f32 %f2, [%rd6];\n"
    "\tadd.f32 %f3, %f2, %f1;\n"
    "\tcvta.to.global.u64 %rd9, %rd3;\n"
    "\tadd.s64 %rd10, %rd9, %rd5;\n"
    "\tst.global.f32 [%rd10], %f3;\n"
    "$L__BB0_2:\n\tret;\n}\n";

static void test_vecadd(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, vecadd_ptx, "vecadd.ptx")) fail_msg("%s", t.err.msg);
    for (int n = 1; n <= 1025; n += 1024 / 3) {
        float *a = malloc(sizeof(float) * (size_t)n), *b = malloc(sizeof(float) * (size_t)n);
        float *c = malloc(sizeof(float) * (size_t)n);
        for (int i = 0; i < n; i++) { a[i] = (float)i * 0.25f; b[i] = 1000.0f - (float)i / 3.0f; }
        uint64_t da = t_alloc(&t, a, sizeof(float) * (size_t)n), db = t_alloc(&t, b, sizeof(float) * (size_t)n);
        uint64_t dc = t_alloc(&t, NULL, sizeof(float) * (size_t)n);
        t.nparams = 0;
        t_p64(&t, da); t_p64(&t, db); t_p64(&t, dc); t_p32(&t, (uint32_t)n);
        uint32_t bs = 256, gs = ((uint32_t)n + bs - 1) / bs;
        if (!t_run(&t, "vecAdd", D3(gs, 1, 1), D3(bs, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        assert_true(ws_devmem_read(t.mem, dc, c, sizeof(float) * (size_t)n));
        for (int i = 0; i < n; i++) assert_true(c[i] == a[i] + b[i]);
        assert_int_equal(t.st.blocks, gs);
        assert_int_equal(t.st.warps, gs * 8);
        free(a); free(b); free(c);
    }
    t_free(&t);
}

/* Each thread writes its %tid.x, .y and .z at its linear index: for blocks
 * whose rows hold whole warps, rows shorter or longer than a warp and not a
 * multiple of it, and partial last warps, every thread's three figures
 * must be the ones its linear index gives (x fastest, then y, then z). */
static const char tid_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry tids(.param .u64 out)\n{\n"
    "\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<6>;\n"
    "\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, %tid.z;\n"
    "\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %ntid.y;\n"
    "\tmad.lo.s32 %r6, %r3, %r5, %r2;\n\tmad.lo.s32 %r7, %r6, %r4, %r1;\n"
    "\tmul.wide.u32 %rd3, %r7, 12;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
    "\tst.global.u32 [%rd4], %r1;\n\tst.global.u32 [%rd4+4], %r2;\n\tst.global.u32 [%rd4+8], %r3;\n"
    "\tret;\n}\n";

static void test_tid_rows(void **state)
{
    (void)state;
    static const ws_dim3 blocks[] = {{256, 1, 1}, {64, 2, 1}, {40, 3, 2}, {7, 5, 3}, {32, 2, 2}, {100, 1, 1},
                                     {16, 16, 1}, {33, 1, 4}};
    tctx t;
    if (!t_load(&t, tid_ptx, "tids.ptx")) fail_msg("%s", t.err.msg);
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
        ws_dim3 bd = blocks[k];
        uint32_t n = bd.x * bd.y * bd.z;
        uint32_t *got = malloc(sizeof *got * 3 * n);
        uint64_t out = t_alloc(&t, NULL, sizeof *got * 3 * n);
        t.nparams = 0;
        t_p64(&t, out);
        if (!t_run(&t, "tids", D3(1, 1, 1), D3(bd.x, bd.y, bd.z), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        assert_true(ws_devmem_read(t.mem, out, got, sizeof *got * 3 * n));
        for (uint32_t i = 0; i < n; i++) {
            uint32_t x = i % bd.x, y = i / bd.x % bd.y, z = i / (bd.x * bd.y);
            if (got[3 * i] != x || got[3 * i + 1] != y || got[3 * i + 2] != z)
                fail_msg("block %ux%ux%u thread %u: tid (%u, %u, %u), want (%u, %u, %u)", bd.x, bd.y, bd.z, i,
                         got[3 * i], got[3 * i + 1], got[3 * i + 2], x, y, z);
        }
        free(got);
    }
    t_free(&t);
}

static void test_matmul_tiled(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "matmul_tiled_sm80.ptx");
    int sizes[] = {1, 16, 33};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        size_t bytes = sizeof(float) * (size_t)n * (size_t)n;
        float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
        for (int i = 0; i < n * n; i++) { A[i] = (float)(i % 4); B[i] = (float)((i * 7) % 5); }
        uint64_t da = t_alloc(&t, A, bytes), db = t_alloc(&t, B, bytes), dc = t_alloc(&t, NULL, bytes);
        t.nparams = 0;
        t_p64(&t, da); t_p64(&t, db); t_p64(&t, dc); t_p32(&t, (uint32_t)n);
        uint32_t g = ((uint32_t)n + 15) / 16;
        if (!t_run(&t, "matmulTiled", D3(g, g, 1), D3(16, 16, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        assert_true(ws_devmem_read(t.mem, dc, C, bytes));
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                float sum = 0;     /* small integers: exact in any order */
                for (int k = 0; k < n; k++) sum += A[r * n + k] * B[k * n + c];
                assert_true(C[r * n + c] == sum);
            }
        free(A); free(B); free(C);
    }
    t_free(&t);
}

static void test_reduce_shfl(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "reduce_shfl_sm80.ptx");
    int n = 1000;
    float *in = malloc(sizeof(float) * (size_t)n);
    double ref = 0;
    for (int i = 0; i < n; i++) { in[i] = (float)(i % 7); ref += in[i]; }
    uint64_t din = t_alloc(&t, in, sizeof(float) * (size_t)n), dout = t_alloc(&t, NULL, 4);
    t_p64(&t, din); t_p64(&t, dout); t_p32(&t, (uint32_t)n);
    if (!t_run(&t, "reduceShfl", D3(2, 1, 1), D3(128, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    float out;
    assert_true(ws_devmem_read(t.mem, dout, &out, 4));
    assert_true(out == (float)ref);
    free(in);
    t_free(&t);
}

static void test_reduce_dynamic_shared(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "reduce_shfl_sm80.ptx");
    int n = 1000;
    int32_t *in = malloc(sizeof(int32_t) * (size_t)n);
    int64_t ref = 0;
    for (int i = 0; i < n; i++) { in[i] = i % 5 + 1; ref += in[i]; }
    uint64_t din = t_alloc(&t, in, sizeof(int32_t) * (size_t)n), dout = t_alloc(&t, NULL, 4);
    t_p64(&t, din); t_p64(&t, dout); t_p32(&t, (uint32_t)n);
    if (!t_run(&t, "reduceDyn", D3(4, 1, 1), D3(256, 1, 1), 256 * 4, NULL, 0)) fail_msg("%s", t.err.msg);
    int32_t out;
    assert_true(ws_devmem_read(t.mem, dout, &out, 4));
    /* each block adds its sum plus popc(ballot(sum > 0)) = 32 */
    assert_int_equal(out, ref + 4 * 32);
    /* without the dynamic shared memory the kernel faults on buf[t] */
    assert_false(t_run(&t, "reduceDyn", D3(1, 1, 1), D3(256, 1, 1), 0, NULL, 0));
    assert_non_null(strstr(t.err.msg, "Invalid __shared__ write of size 4"));
    free(in);
    t_free(&t);
}

static void test_conv_const_and_initializers(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "conv_const_sm80.ptx");
    float mask[5] = {1, 2, 3, 2, 1};
    uint64_t size = 0, maddr = ws_program_symbol(t.p, "mask", &size);
    assert_true(maddr != 0);
    assert_int_equal(size, 20);
    assert_true(ws_devmem_write(t.mem, maddr, mask, sizeof mask));
    int n = 37;
    float in[37], out[37];
    for (int i = 0; i < n; i++) in[i] = (float)(i % 10);
    uint64_t din = t_alloc(&t, in, sizeof in), dout = t_alloc(&t, NULL, sizeof out);
    t_p64(&t, din); t_p64(&t, dout); t_p32(&t, (uint32_t)n);
    if (!t_run(&t, "conv1d", D3(2, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_true(ws_devmem_read(t.mem, dout, out, sizeof out));
    int32_t lut[4] = {1, -2, 3, 0x7fffffff};
    for (int i = 0; i < n; i++) {
        float s = 0;
        for (int j = 0; j < 5; j++) {
            int k = i + j - 2;
            if (k >= 0 && k < n) s += in[k] * mask[j];
        }
        float ref = (float)((double)s * 0.5) + (float)lut[i & 3];
        assert_true(out[i] == ref);
    }
    t_free(&t);
}

static void test_device_function_calls(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "devfunc_sm80.ptx");
    int32_t data[70];
    for (int i = 0; i < 70; i++) data[i] = i * 3 - 50;
    uint64_t d = t_alloc(&t, data, sizeof data);
    t_p64(&t, d); t_p32(&t, 65);
    if (!t_run(&t, "incAll", D3(3, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    int32_t out[70];
    assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
    for (int i = 0; i < 70; i++) assert_int_equal(out[i], i < 65 ? data[i] + 1 : data[i]);

    float f[40];
    for (int i = 0; i < 40; i++) f[i] = (float)i;
    uint64_t df = t_alloc(&t, f, sizeof f);
    t.nparams = 0;
    float s = 2.5f;
    t_p64(&t, df); t_param(&t, &s, 4); t_p32(&t, 40);
    if (!t_run(&t, "lab::scaleAll", D3(2, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    float fo[40];
    assert_true(ws_devmem_read(t.mem, df, fo, sizeof fo));
    for (int i = 0; i < 40; i++) assert_true(fo[i] == fmaf((float)i, 2.5f, 1.0f));
    t_free(&t);
}

static void test_printf(void **state)
{
    (void)state;
    tctx t;
    t_load_file(&t, "printf_kernel_sm80.ptx");
    FILE *out = tmpfile();
    assert_non_null(out);
    double y = 2.5;
    t_p32(&t, 7); t_param(&t, &y, 8);
    if (!t_run(&t, "hello", D3(2, 1, 1), D3(2, 1, 1), 0, out, 0)) fail_msg("%s", t.err.msg);
    rewind(out);
    char text[512] = "";
    size_t n = fread(text, 1, sizeof text - 1, out);
    text[n] = '\0';
    fclose(out);
    assert_string_equal(text,
        "block 0 thread 0 x=7 y=2.500000\n"
        "block 0 thread 1 x=7 y=2.500000\n"
        "block 1 thread 0 x=7 y=2.500000\n"
        "block 1 thread 1 x=7 y=2.500000\n");
    t_free(&t);
}

/* Every PTX file the front end's tests carry loads (decodes) cleanly. */
static void test_load_all_data_files(void **state)
{
    (void)state;
    const char *files[] = {"conv_const_sm80.ptx", "conv_const_sm90.ptx", "devfunc_sm80.ptx",
                           "devfunc_sm90.ptx", "matmul_tiled_lineinfo_sm80.ptx", "matmul_tiled_sm80.ptx",
                           "matmul_tiled_sm90.ptx", "misc_ops_sm80.ptx", "misc_ops_sm90.ptx",
                           "printf_kernel_sm80.ptx", "printf_kernel_sm90.ptx", "printf_lineinfo_sm90.ptx",
                           "reduce_shfl_sm80.ptx", "reduce_shfl_sm90.ptx"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        tctx t;
        t_load_file(&t, files[i]);
        t_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd),
        cmocka_unit_test(test_tid_rows),
        cmocka_unit_test(test_matmul_tiled),
        cmocka_unit_test(test_reduce_shfl),
        cmocka_unit_test(test_reduce_dynamic_shared),
        cmocka_unit_test(test_conv_const_and_initializers),
        cmocka_unit_test(test_device_function_calls),
        cmocka_unit_test(test_printf),
        cmocka_unit_test(test_load_all_data_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
