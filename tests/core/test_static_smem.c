/* A kernel's static shared memory, the one computation of it
 * (ws_kernel_static_smem: what run, exec, occupancy and check report and
 * what a block is given), against sizes worked out by hand from the CUDA
 * sources of nvcc-built kernels and from hand-written PTX that covers the
 * layout rules: module-scope variables the kernel names, variables of
 * functions it calls, alignment padding, extern (dynamic) arrays and
 * unused variables left out. */
#include "core_util.h"

static uint32_t smem_of(tctx *t, const char *kernel)
{
    const ws_kernel *k = ws_program_kernel(t->p, kernel);
    if (!k) fail_msg("no kernel %s", kernel);
    return ws_kernel_static_smem(k);
}

/* Kernels nvcc built (tests/ptx/data/src), for both architectures.
 * (features_*.ptx takes a function's address and does not load: there is
 * no kernel of it to ask.) */
static void test_nvcc_kernels(void **state)
{
    (void)state;
    static const char *const archs[] = {"sm80", "sm90"};
    for (int a = 0; a < 2; a++) {
        char name[64];
        tctx t;
        snprintf(name, sizeof name, "vecadd_%s.ptx", archs[a]);
        t_load_file(&t, name);
        assert_int_equal(smem_of(&t, "vecAdd"), 0);
        t_free(&t);
        snprintf(name, sizeof name, "matmul_tiled_%s.ptx", archs[a]);
        t_load_file(&t, name);
        /* two __shared__ float[16][16] tiles */
        assert_int_equal(smem_of(&t, "matmulTiled"), 2 * 16 * 16 * 4);
        t_free(&t);
        snprintf(name, sizeof name, "reduce_shfl_%s.ptx", archs[a]);
        t_load_file(&t, name);
        assert_int_equal(smem_of(&t, "reduceDyn"), 0);      /* extern shared only */
        t_free(&t);
    }
}

/* k1 names a (4 B) and calls f, which names b (.align 16, 32 B) and
 * declares its own c (8 B): a at 0, b at 16 (padding), c at 48: 56 bytes.
 * k2 names only unused's neighbour d (2 B) and the extern array: 2 bytes. */
static void test_layout_rules(void **state)
{
    (void)state;
    const char *src =
        ".version 7.0\n.target sm_80\n.address_size 64\n"
        ".shared .u32 a;\n"
        ".shared .align 16 .b8 b[32];\n"
        ".shared .u16 d;\n"
        ".shared .u32 unused[100];\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".func f()\n{\n"
        "  .shared .u64 c;\n"
        "  .reg .b32 %r<2>;\n"
        "  ld.shared.u32 %r1, [b];\n  st.shared.u64 [c], 0;\n  ret;\n}\n"
        ".visible .entry k1()\n{\n"
        "  .reg .b32 %r<2>;\n"
        "  ld.shared.u32 %r1, [a];\n"
        "  call f, ();\n  ret;\n}\n"
        ".visible .entry k2()\n{\n"
        "  .reg .b16 %h<2>;\n  .reg .b32 %r<2>;\n"
        "  ld.shared.u16 %h1, [d];\n  ld.shared.u32 %r1, [dyn];\n  ret;\n}\n";
    tctx t;
    if (!t_load(&t, src, "layout.ptx")) fail_msg("load: %s", t.err.msg);
    assert_int_equal(smem_of(&t, "k1"), 56);
    assert_int_equal(smem_of(&t, "k2"), 2);
    t_free(&t);
}

/* The parameter layout a loaded kernel carries is the one of its .param
 * list (worked out by hand as in tests/cli/test_kernel_params.c): u8 at 0,
 * .align 8 b8[16] at 8, u32 at 24, f64 at 32; 40 bytes. */
static void test_kernel_param_layout(void **state)
{
    (void)state;
    const char *src =
        ".version 7.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(\n"
        "  .param .u8 c,\n  .param .align 8 .b8 s[16],\n  .param .u32 n,\n  .param .f64 d\n"
        ")\n{\n  ret;\n}\n";
    tctx t;
    if (!t_load(&t, src, "params.ptx")) fail_msg("load: %s", t.err.msg);
    ws_param_layout pl = ws_kernel_params(ws_program_kernel(t.p, "k"));
    assert_int_equal(pl.count, 4);
    static const uint32_t off[] = {0, 8, 24, 32}, size[] = {1, 16, 4, 8};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pl.offset[i], off[i]);
        assert_int_equal(pl.size[i], size[i]);
    }
    assert_int_equal(pl.total, 40);
    t_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvcc_kernels),
        cmocka_unit_test(test_layout_rules),
        cmocka_unit_test(test_kernel_param_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
