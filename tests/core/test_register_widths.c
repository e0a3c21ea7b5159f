/* Values narrower than their register: cvt to a signed type sign-extends to
 * the register width, to an unsigned one zero-extends (PTX ISA, "Operand
 * Size Exceeding Instruction-Type Size"); narrow loads likewise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core_util.h"

static const char widths_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_out, .param .u32 k_v)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n .reg .b16 %rs<2>;\n"
    " ld.param.u64 %rd1, [k_out];\n"
    " ld.param.u32 %r1, [k_v];\n"
    " cvt.s8.s32 %r2, %r1;\n"
    " cvt.u8.u32 %r3, %r1;\n"
    " cvt.s16.s32 %r4, %r1;\n"
    " cvt.s8.s32 %rs1, %r1;\n"
    " cvt.u32.u16 %r5, %rs1;\n"
    " cvt.s32.s8 %r6, %r1;\n"
    " st.global.u32 [%rd1], %r2;\n"
    " st.global.u32 [%rd1+4], %r3;\n"
    " st.global.u32 [%rd1+8], %r4;\n"
    " st.global.u32 [%rd1+12], %r5;\n"
    " st.global.u32 [%rd1+16], %r6;\n"
    " ret;\n}\n";

static void run_widths(uint32_t v, uint32_t out[5])
{
    tctx t;
    if (!t_load(&t, widths_ptx, "widths.ptx")) fail_msg("%s", t.err.msg);
    uint32_t zero[5] = {0};
    uint64_t d = t_alloc(&t, zero, sizeof zero);
    t_p64(&t, d);
    t_p32(&t, v);
    if (!t_run(&t, "k", D3(1, 1, 1), D3(1, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
    assert_true(ws_devmem_read(t.mem, d, out, 5 * sizeof *out));
    t_free(&t);
}

static void test_cvt_extends_to_the_register(void **state)
{
    (void)state;
    static const uint32_t values[] = {0x1f0, 0x7f, 0x80, 0xffff8001u, 0x12345678};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint32_t v = values[i], out[5];
        run_widths(v, out);
        assert_int_equal(out[0], (uint32_t)(int32_t)(int8_t)(uint8_t)v);
        assert_int_equal(out[1], v & 0xff);
        assert_int_equal(out[2], (uint32_t)(int32_t)(int16_t)(uint16_t)v);
        /* a 16-bit register holds the sign-extended byte in 16 bits */
        assert_int_equal(out[3], (uint16_t)(int16_t)(int8_t)(uint8_t)v);
        assert_int_equal(out[4], (uint32_t)(int32_t)(int8_t)(uint8_t)v);
    }
}

/* Narrow loads of a kernel parameter (the executor reads those for every
 * lane at once): signed types sign-extend to the register's width,
 * unsigned ones zero-extend, a 16-bit register keeps 16 bits; every lane
 * of a full warp gets the value. */
static const char param_loads_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_out, .param .u32 k_v)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .b16 %rs<2>;\n"
    " ld.param.u64 %rd1, [k_out];\n"
    " mov.u32 %r7, %tid.x;\n"
    " mul.wide.u32 %rd2, %r7, 32;\n"
    " add.s64 %rd1, %rd1, %rd2;\n"
    " ld.param.s8 %r1, [k_v];\n"
    " ld.param.u8 %r2, [k_v];\n"
    " ld.param.s16 %r3, [k_v];\n"
    " ld.param.s8 %rs1, [k_v];\n"
    " cvt.u32.u16 %r4, %rs1;\n"
    " ld.param.s32 %rd3, [k_v];\n"
    " ld.param.u32 %rd4, [k_v];\n"
    " st.global.u32 [%rd1], %r1;\n"
    " st.global.u32 [%rd1+4], %r2;\n"
    " st.global.u32 [%rd1+8], %r3;\n"
    " st.global.u32 [%rd1+12], %r4;\n"
    " st.global.u64 [%rd1+16], %rd3;\n"
    " st.global.u64 [%rd1+24], %rd4;\n"
    " ret;\n}\n";

static void test_param_loads_extend_to_the_register(void **state)
{
    (void)state;
    static const uint32_t values[] = {0x1f0, 0x7f, 0x80, 0xffff8001u, 0x12345678, 0x80000000u};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint32_t v = values[i], out[32 * 8];
        memset(out, 0xee, sizeof out);
        tctx t;
        if (!t_load(&t, param_loads_ptx, "param_loads.ptx")) fail_msg("%s", t.err.msg);
        uint64_t d = t_alloc(&t, out, sizeof out);
        t_p64(&t, d);
        t_p32(&t, v);
        if (!t_run(&t, "k", D3(1, 1, 1), D3(32, 1, 1), 0, NULL, 0)) fail_msg("%s", t.err.msg);
        assert_true(ws_devmem_read(t.mem, d, out, sizeof out));
        t_free(&t);
        for (int lane = 0; lane < 32; lane++) {
            const uint32_t *o = out + 8 * lane;
            uint64_t s32, u32;
            memcpy(&s32, o + 4, 8);
            memcpy(&u32, o + 6, 8);
            assert_int_equal(o[0], (uint32_t)(int32_t)(int8_t)(uint8_t)v);
            assert_int_equal(o[1], v & 0xff);
            assert_int_equal(o[2], (uint32_t)(int32_t)(int16_t)(uint16_t)v);
            assert_int_equal(o[3], (uint16_t)(int16_t)(int8_t)(uint8_t)v);
            assert_int_equal(s32, (uint64_t)(int64_t)(int32_t)v);
            assert_int_equal(u32, (uint64_t)v);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cvt_extends_to_the_register),
        cmocka_unit_test(test_param_loads_extend_to_the_register),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
