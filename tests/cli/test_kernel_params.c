/* Kernel parameter layout (ws_param_offset/size/total), worked out by hand
 * with the C struct rule the CUDA ABI uses for kernel parameters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/core/sim.h"
#include "frontend/ptx/ptx_parse.h"
#include <string.h>

static ptx_var param(ptx_type t, uint32_t align, uint64_t count)
{
    ptx_var v = {0};
    v.name = "p";
    v.space = PTX_SPACE_PARAM;
    v.type = t;
    v.align = align;
    v.vec = 1;
    v.count = count;
    return v;
}

static ptx_function fn(ptx_var *params, int n)
{
    ptx_function f = {0};
    f.name = "k";
    f.is_entry = true;
    f.params = params;
    f.nparams = n;
    return f;
}

static void test_pointers_and_int(void **state)
{
    (void)state;
    ptx_var p[] = {param(PTX_T_U64, 0, 1), param(PTX_T_U64, 0, 1), param(PTX_T_U32, 0, 1)};
    ptx_function f = fn(p, 3);
    assert_int_equal(ws_param_offset(&f, 0), 0);
    assert_int_equal(ws_param_offset(&f, 1), 8);
    assert_int_equal(ws_param_offset(&f, 2), 16);
    assert_int_equal(ws_param_size(&f, 2), 4);
    assert_int_equal(ws_params_total_size(&f), 20);
}

static void test_padding(void **state)
{
    (void)state;
    /* int, pointer: the pointer goes to offset 8 */
    ptx_var p[] = {param(PTX_T_U32, 0, 1), param(PTX_T_U64, 0, 1)};
    ptx_function f = fn(p, 2);
    assert_int_equal(ws_param_offset(&f, 1), 8);
    assert_int_equal(ws_params_total_size(&f), 16);

    /* char, short, int, double */
    ptx_var q[] = {param(PTX_T_U8, 0, 1), param(PTX_T_S16, 0, 1), param(PTX_T_F32, 0, 1),
                   param(PTX_T_F64, 0, 1)};
    f = fn(q, 4);
    assert_int_equal(ws_param_offset(&f, 0), 0);
    assert_int_equal(ws_param_offset(&f, 1), 2);
    assert_int_equal(ws_param_offset(&f, 2), 4);
    assert_int_equal(ws_param_offset(&f, 3), 8);
    assert_int_equal(ws_params_total_size(&f), 16);
}

static void test_byte_arrays(void **state)
{
    (void)state;
    /* u32; struct {double, double} as .align 8 .b8 [16]; u8; .align 4 .b8 [3]; u32 */
    ptx_var p[] = {param(PTX_T_U32, 0, 1), param(PTX_T_B8, 8, 16), param(PTX_T_U8, 0, 1),
                   param(PTX_T_B8, 4, 3), param(PTX_T_U32, 0, 1)};
    ptx_function f = fn(p, 5);
    assert_int_equal(ws_param_offset(&f, 1), 8);
    assert_int_equal(ws_param_size(&f, 1), 16);
    assert_int_equal(ws_param_offset(&f, 2), 24);
    assert_int_equal(ws_param_offset(&f, 3), 28);
    assert_int_equal(ws_param_size(&f, 3), 3);
    assert_int_equal(ws_param_offset(&f, 4), 32);
    assert_int_equal(ws_params_total_size(&f), 36);

    /* an unaligned byte array packs at any offset */
    ptx_var q[] = {param(PTX_T_U8, 0, 1), param(PTX_T_B8, 0, 5), param(PTX_T_U16, 0, 1)};
    f = fn(q, 3);
    assert_int_equal(ws_param_offset(&f, 1), 1);
    assert_int_equal(ws_param_offset(&f, 2), 6);
    assert_int_equal(ws_params_total_size(&f), 8);
}

static void test_vector_and_edges(void **state)
{
    (void)state;
    ptx_var p[] = {param(PTX_T_U32, 0, 1), param(PTX_T_F32, 0, 1)};
    p[1].vec = 2;   /* .v2 .f32: 8 bytes, 8-aligned */
    ptx_function f = fn(p, 2);
    assert_int_equal(ws_param_offset(&f, 1), 8);
    assert_int_equal(ws_param_size(&f, 1), 8);
    assert_int_equal(ws_params_total_size(&f), 16);
    assert_int_equal(ws_param_offset(&f, 2), 0);
    assert_int_equal(ws_param_size(&f, -1), 0);

    ptx_function none = fn(NULL, 0);
    assert_int_equal(ws_params_total_size(&none), 0);
}

/* The same layout from parsed PTX, as nvcc writes a struct parameter. */
static void test_parsed_params(void **state)
{
    (void)state;
    const char *src =
        ".version 7.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(\n"
        "  .param .u8 c,\n"
        "  .param .align 8 .b8 s[16],\n"
        "  .param .u32 n,\n"
        "  .param .f64 d\n"
        ")\n{\n  ret;\n}\n";
    ptx_error e;
    ptx_module *m = ptx_parse(src, strlen(src), "params.ptx", &e);
    if (!m)
        fail_msg("parse: %s", e.msg);
    const ptx_function *f = ptx_find_kernel(m, "k");
    assert_non_null(f);
    assert_int_equal(f->nparams, 4);
    assert_int_equal(ws_param_offset(f, 0), 0);
    assert_int_equal(ws_param_offset(f, 1), 8);
    assert_int_equal(ws_param_size(f, 1), 16);
    assert_int_equal(ws_param_offset(f, 2), 24);
    assert_int_equal(ws_param_offset(f, 3), 32);
    assert_int_equal(ws_params_total_size(f), 40);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pointers_and_int),
        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_byte_arrays),
        cmocka_unit_test(test_vector_and_edges),
        cmocka_unit_test(test_parsed_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
