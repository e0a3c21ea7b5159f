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
    /* template kernels as nvcc 13.0 names them (and c++filt of binutils 2.40 spells them) */
    {"_Z11reduceStageILi256ELi0EEvPfi", "void reduceStage<256, 0>(float*, int)"},
    {"_Z4axpyIfEvT_PKS0_PS0_", "void axpy<float>(float, float const*, float*)"},
    {"_Z8variadicIJiPfEEvDpT_", "void variadic<int, float*>(int, float*)"},
    {"_Z8variadicIJEEvDpT_", "void variadic<>()"},
    {"_Z5modedIL4Mode1EEvP6__halfPK7__half2", "void moded<(Mode)1>(__half*, __half2 const*)"},
    {"_Z3volIhEvPVT_PVKS0_PS0_",
     "void vol<unsigned char>(unsigned char volatile*, unsigned char const volatile*, unsigned char*)"},
    {"_Z4flagILb0EEvPb", "void flag<false>(bool*)"},
    {"_Z3twoIN3lab6detail4PairENS1_3BoxIiEEEvT_T0_S5_S6_",
     "void two<lab::detail::Pair, lab::detail::Box<int> >(lab::detail::Pair, lab::detail::Box<int>, "
     "lab::detail::Pair, lab::detail::Box<int>)"},
    {"_ZN3lab6detail4tileIiLj4ELb1EEEvPT_PS3_", "void lab::detail::tile<int, 4u, true>(int*, int**)"},
    {"_ZN3lab6detail5boxedIlEEvPNS0_3BoxIT_EEPNS2_IS4_EENS0_4PairE",
     "void lab::detail::boxed<long>(lab::detail::Box<long>*, lab::detail::Box<lab::detail::Box<long> >*, "
     "lab::detail::Pair)"},
    {"_ZN36_GLOBAL__N__9b54b229_4_t_cu_d32d73286hiddenEPi", "(anonymous namespace)::hidden(int*)"},
    {"_ZN36_GLOBAL__N__9b54b229_4_t_cu_d32d73284litsILsn3ELc65ELm7ELxn9ELy11EEEvPi",
     "void (anonymous namespace)::lits<(short)-3, (char)65, 7ul, -9ll, 11ull>(int*)"},
    {"_ZL6staticPi", "static(int*)"},
    /* a CUB kernel of thrust::sort (CCCL 3.0): enums, nested templates, long */
    {"_ZN3cub17CUB_300001_SM_8006detail10radix_sort31DeviceRadixSortSingleTileKernelINS1_5radix10policy_hubIiNS0_"
     "8NullTypeEyE10Policy1000ELNS0_9SortOrderE0EiS6_yNS1_21identity_decomposer_tEEEvPKT1_PSB_PKT2_PSF_T3_iiT4_",
     "void cub::CUB_300001_SM_800::detail::radix_sort::DeviceRadixSortSingleTileKernel<cub::CUB_300001_SM_800::"
     "detail::radix::policy_hub<int, cub::CUB_300001_SM_800::NullType, unsigned long long>::Policy1000, "
     "(cub::CUB_300001_SM_800::SortOrder)0, int, cub::CUB_300001_SM_800::NullType, unsigned long long, "
     "cub::CUB_300001_SM_800::detail::identity_decomposer_t>(int const*, int*, cub::CUB_300001_SM_800::NullType "
     "const*, cub::CUB_300001_SM_800::NullType*, unsigned long long, int, int, "
     "cub::CUB_300001_SM_800::detail::identity_decomposer_t)"},
};

/* name, base and short_base of template and namespaced kernels */
static void test_demangle_parts(void **state)
{
    (void)state;
    ptx_demangled d;
    assert_true(ptx_demangle_parts("_ZN3lab6detail4tileIiLj4ELb1EEEvPT_PS3_", &d));
    assert_string_equal(d.name, "lab::detail::tile<int, 4u, true>");
    assert_string_equal(d.base, "lab::detail::tile");
    assert_string_equal(d.short_base, "tile");
    assert_true(ptx_demangle_parts("_Z3twoIN3lab6detail4PairENS1_3BoxIiEEEvT_T0_S5_S6_", &d));
    assert_string_equal(d.name, "two<lab::detail::Pair, lab::detail::Box<int> >");
    assert_string_equal(d.base, "two");
    assert_true(ptx_demangle_parts("_ZN3lab8scaleAllEPffi", &d));
    assert_string_equal(d.name, "lab::scaleAll");
    assert_string_equal(d.base, "lab::scaleAll");
    assert_string_equal(d.short_base, "scaleAll");
    assert_false(ptx_demangle_parts("_Z3arrIfLi3EEvPAT0__T_", &d));     /* arrays: not handled */
    assert_string_equal(d.sig, "");
}

static void test_demangle(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof demangled / sizeof demangled[0]; i++) {
        char name[1024], sig[2048];
        if (!ptx_demangle(demangled[i].mangled, name, sizeof name, sig, sizeof sig))
            fail_msg("could not demangle %s", demangled[i].mangled);
        assert_string_equal(sig, demangled[i].sig);
        /* the signature is [return type ] name(parameters) */
        size_t skip = strncmp(sig, "void ", 5) ? 0 : 5;
        assert_memory_equal(sig + skip, name, strlen(name));
        assert_int_equal(sig[skip + strlen(name)], '(');
    }
    char name[64];
    assert_false(ptx_demangle("vecAdd", name, sizeof name, NULL, 0));
    assert_false(ptx_demangle("_Z5tmplIiEvT0_", name, sizeof name, NULL, 0));  /* no second template argument */
    assert_false(ptx_demangle("_Z3fooUlvE_", name, sizeof name, NULL, 0));     /* lambdas: not handled */
    assert_false(ptx_demangle("_Z3fooILi", name, sizeof name, NULL, 0));       /* cut short */
    assert_false(ptx_demangle("_Z3fooILin", name, sizeof name, NULL, 0));
    assert_false(ptx_demangle("_Z3fooIiE", name, sizeof name, NULL, 0));       /* no return type */
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
        char cmd[1024], out[2048] = "";
        snprintf(cmd, sizeof cmd, "c++filt '%s'", demangled[i].mangled);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        if (!fgets(out, sizeof out, p))
            out[0] = '\0';
        pclose(p);
        out[strcspn(out, "\n")] = '\0';
        char sig[2048];
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
        cmocka_unit_test(test_demangle_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
