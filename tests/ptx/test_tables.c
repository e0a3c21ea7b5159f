/* Opcode and type tables; the kernel-name demangler against c++filt. */
#include <stdint.h>
#include <stdlib.h>
#include "frontend/ptx/ptx_demangle.h"
#include "frontend/ptx/ptx_pstate.h"
#include "ptx_test_util.h"

static void test_opcode_table(void **state)
{
    (void)state;
    assert_string_equal(ptx_opcode_name(PTX_OP_LD), "ld");
    assert_string_equal(ptx_opcode_name(PTX_OP_MUL24), "mul24");
    assert_string_equal(ptx_opcode_name(PTX_OP_XOR), "xor");
    assert_int_equal(ptx_opcode_pipe(PTX_OP_FMA), PTX_PIPE_FP32);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_WMMA), PTX_PIPE_TENSOR);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_ST), PTX_PIPE_LSU);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_BRA), PTX_PIPE_BRANCH);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_SIN), PTX_PIPE_SFU);
    /* warp-wide exchanges and reductions run where shfl runs; the copies
     * and barriers that touch shared memory go through the LSU */
    assert_int_equal(ptx_opcode_pipe(PTX_OP_REDUX), ptx_opcode_pipe(PTX_OP_SHFL));
    assert_int_equal(ptx_opcode_pipe(PTX_OP_MATCH), ptx_opcode_pipe(PTX_OP_SHFL));
    assert_int_equal(ptx_opcode_pipe(PTX_OP_FNS), PTX_PIPE_INT);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_BMSK), PTX_PIPE_INT);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_CP), PTX_PIPE_LSU);
    assert_int_equal(ptx_opcode_pipe(PTX_OP_MBARRIER), PTX_PIPE_LSU);
    /* every mnemonic is distinct and non-empty */
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        assert_true(ptx_opcode_name((ptx_opcode)i)[0] != '\0');
        for (int j = 0; j < i; j++)
            assert_string_not_equal(ptx_opcode_name((ptx_opcode)i), ptx_opcode_name((ptx_opcode)j));
    }
}

/* The instructions refused by name are PTX instructions warpsim does not
 * execute: none is also in the opcode table, and the parser says why. */
static void test_unsupported_table(void **state)
{
    (void)state;
    assert_true(ptx_unsupported_count() > 40);
    for (size_t i = 0; i < ptx_unsupported_count(); i++) {
        const char *name = ptx_unsupported_name(i);
        for (int op = 0; op < PTX_OP_COUNT; op++)
            if (!strcmp(name, ptx_opcode_name((ptx_opcode)op)))
                fail_msg("'%s' is both executed (ptx_opcodes.def) and refused (ptx_unsupported.def)", name);
        assert_non_null(ptx_unsupported_why(name));
    }
    assert_null(ptx_unsupported_why("add"));
    assert_null(ptx_unsupported_why("frobnicate"));
    ptx_error err;
    const char *src = PTX_HEADER ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
                      "  suld.b.2d.b32.trap {%r1}, [%r2, {%r1, %r1}];\n  ret;\n}\n";
    assert_null(ptx_parse(src, strlen(src), "s.ptx", &err));
    char msg[512];
    ptx_error_format(&err, msg, sizeof msg);
    assert_non_null(strstr(msg, "s.ptx:7:3: error: unsupported instruction 'suld.b.2d.b32.trap': surface "
                                "instructions (suld, sust, sured, suq) are not supported by warpsim"));
}

/* The name of every opcode is an instruction the mnemonic decoder knows. */
static void test_every_opcode_decodes(void **state)
{
    (void)state;
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        ptx_mods m;
        char msg[256] = "";
        if (!ptx_mnemonic_decode(ptx_opcode_name((ptx_opcode)i), &m, msg, sizeof msg))
            fail_msg("%s: %s", ptx_opcode_name((ptx_opcode)i), msg);
        assert_int_equal(m.op, i);
    }
}

static void test_type_table(void **state)
{
    (void)state;
    assert_int_equal(ptx_type_size(PTX_T_U8), sizeof(uint8_t));
    assert_int_equal(ptx_type_size(PTX_T_S16), sizeof(int16_t));
    assert_int_equal(ptx_type_size(PTX_T_B32), sizeof(uint32_t));
    assert_int_equal(ptx_type_size(PTX_T_S64), sizeof(int64_t));
    assert_int_equal(ptx_type_size(PTX_T_F32), sizeof(float));
    assert_int_equal(ptx_type_size(PTX_T_F64), sizeof(double));
    assert_int_equal(ptx_type_size(PTX_T_F16), 2);
    assert_int_equal(ptx_type_size(PTX_T_F16X2), 4);
    assert_int_equal(ptx_type_size(PTX_T_B128), 16);
    assert_int_equal(ptx_type_size(PTX_T_PRED), 1);
    assert_string_equal(ptx_type_name(PTX_T_F32), ".f32");
    assert_string_equal(ptx_type_name(PTX_T_BF16X2), ".bf16x2");
    assert_true(ptx_type_is_float(PTX_T_F16));
    assert_true(ptx_type_is_float(PTX_T_F64));
    assert_false(ptx_type_is_float(PTX_T_B32));
    assert_true(ptx_type_is_signed(PTX_T_S8));
    assert_false(ptx_type_is_signed(PTX_T_U64));
    assert_false(ptx_type_is_signed(PTX_T_F32));
    /* the name of every type is itself a type modifier the parser takes */
    for (int t = 1; t < PTX_T_COUNT; t++) {
        char text[256];
        snprintf(text, sizeof text, PTX_HEADER ".global %s v;\n", ptx_type_name((ptx_type)t));
        ptx_module *m = tp_parse(text);
        assert_int_equal(m->globals[0].type, t);
        ptx_module_free(m);
    }
}

/* c++filt's output for each name, recorded from binutils 2.40. */
static const struct { const char *mangled, *sig; } demangled[] = {
    {"_Z3foov", "foo()"},
    {"_Z3fooPPf", "foo(float**)"},
    {"_Z3fooPKPf", "foo(float* const*)"},
    {"_Z3fooRKi", "foo(int const&)"},
    {"_Z3fooPVj", "foo(unsigned int volatile*)"},
    {"_Z1fP6float2S0_", "f(float2*, float2*)"},
    {"_Z4scanPjS_S_y", "scan(unsigned int*, unsigned int*, unsigned int*, unsigned long long)"},
    {"_Z1fcahstlmxyb", "f(char, signed char, unsigned char, short, unsigned short, long, unsigned long, long long, unsigned long long, bool)"},
    {"_Z3fooPKcS0_", "foo(char const*, char const*)"},
    {"_ZN5outer5inner4kernEPfS0_", "outer::inner::kern(float*, outer::inner)"},
    {"_Z11matmulTiledPKfS0_Pfi", "matmulTiled(float const*, float const*, float*, int)"},
    {"_Z8wmmaTilePK6__halfS1_Pfiii", "wmmaTile(__half const*, __half const*, float*, int, int, int)"},
};

static void test_demangle(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof demangled / sizeof demangled[0]; i++) {
        char name[256], sig[512];
        if (!ptx_demangle(demangled[i].mangled, name, sizeof name, sig, sizeof sig))
            fail_msg("could not demangle %s", demangled[i].mangled);
        assert_string_equal(sig, demangled[i].sig);
        size_t n = strcspn(demangled[i].sig, "(");
        assert_int_equal(strlen(name), n);
        assert_memory_equal(name, demangled[i].sig, n);
    }
    char name[64];
    assert_false(ptx_demangle("vecAdd", name, sizeof name, NULL, 0));
    assert_false(ptx_demangle("_Z5tmplIiEvT_", name, sizeof name, NULL, 0));   /* templates: not handled */
    assert_false(ptx_demangle("_Z3fooPS_", name, sizeof name, NULL, 0));       /* no such substitution */
    assert_false(ptx_demangle("_Z99x", name, sizeof name, NULL, 0));
}

/* Where binutils is installed, c++filt itself is the oracle. */
static void test_demangle_matches_cxxfilt(void **state)
{
    (void)state;
    if (system("c++filt --version > /dev/null 2>&1") != 0)
        skip();
    for (size_t i = 0; i < sizeof demangled / sizeof demangled[0]; i++) {
        char cmd[256], out[512] = "";
        snprintf(cmd, sizeof cmd, "c++filt '%s'", demangled[i].mangled);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        if (!fgets(out, sizeof out, p))
            out[0] = '\0';
        pclose(p);
        out[strcspn(out, "\n")] = '\0';
        char sig[512];
        assert_true(ptx_demangle(demangled[i].mangled, NULL, 0, sig, sizeof sig));
        assert_string_equal(sig, out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opcode_table),
        cmocka_unit_test(test_every_opcode_decodes),
        cmocka_unit_test(test_type_table),
        cmocka_unit_test(test_unsupported_table),
        cmocka_unit_test(test_demangle),
        cmocka_unit_test(test_demangle_matches_cxxfilt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
