/* Parser: declarations, initializers, functions, calls, scopes, .loc. */
#include <stdint.h>
#include "ptx_test_util.h"

static const ptx_var *find_global(const ptx_module *m, const char *name)
{
    for (int32_t i = 0; i < m->nglobals; i++)
        if (!strcmp(m->globals[i].name, name))
            return &m->globals[i];
    fail_msg("no global %s", name);
    return NULL;
}

static void test_initializers(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".global .align 1 .b8 $str[6] = {104, 105, 33, 10, 0};\n"
        ".global .align 4 .u32 tab[2][3] = {{1, 2, 3}, {-1, 0x10, 0b11}};\n"
        ".global .f32 fv[3] = {0f3F800000, 0.1, -2};\n"
        ".global .align 8 .f64 dv = 0d3FE0000000000000;\n"
        ".global .f64 dv2 = 0.1;\n"
        ".const .align 4 .b8 mask[20];\n"
        ".global .align 8 .u64 ptrs[3] = {generic($str), generic(tab)+8, fv};\n"
        ".extern .shared .align 16 .b8 smem[];\n"
        ".global .s16 neg[] = {-2, 7};\n"
        ".shared .align 8 .v2 .f32 pairs[4];\n");
    assert_int_equal(m->nglobals, 10);
    const ptx_var *s = find_global(m, "$str");
    assert_int_equal(s->space, PTX_SPACE_GLOBAL);
    assert_int_equal(s->count, 6);
    assert_int_equal(s->align, 1);
    assert_int_equal(s->init_size, 6);
    assert_memory_equal(s->init, "hi!\n\0\0", 6);

    const ptx_var *t = find_global(m, "tab");
    assert_int_equal(t->count, 6);
    const uint32_t want_tab[6] = {1, 2, 3, 0xFFFFFFFFu, 16, 3};
    assert_int_equal(t->init_size, 24);
    assert_memory_equal(t->init, want_tab, 24);   /* the host is little-endian too */

    const ptx_var *fv = find_global(m, "fv");
    const float want_fv[3] = {1.0f, 0.1f, -2.0f};
    assert_memory_equal(fv->init, want_fv, 12);
    const double half = 0.5, tenth = 0.1;
    assert_memory_equal(find_global(m, "dv")->init, &half, 8);
    assert_memory_equal(find_global(m, "dv2")->init, &tenth, 8);

    const ptx_var *mask = find_global(m, "mask");
    assert_int_equal(mask->space, PTX_SPACE_CONST);
    assert_null(mask->init);
    assert_int_equal(mask->count, 20);

    const ptx_var *p = find_global(m, "ptrs");
    assert_non_null(p->init_syms);
    assert_string_equal(p->init_syms[0], "$str");
    assert_string_equal(p->init_syms[1], "tab");
    assert_string_equal(p->init_syms[2], "fv");
    const uint64_t want_off[3] = {0, 8, 0};
    assert_memory_equal(p->init, want_off, 24);

    const ptx_var *sm = find_global(m, "smem");
    assert_true(sm->is_extern);
    assert_int_equal(sm->count, 0);
    assert_int_equal(sm->space, PTX_SPACE_SHARED);
    assert_int_equal(sm->align, 16);

    const ptx_var *ng = find_global(m, "neg");
    assert_int_equal(ng->count, 2);
    const int16_t want_neg[2] = {-2, 7};
    assert_memory_equal(ng->init, want_neg, 4);
    assert_int_equal(find_global(m, "pairs")->vec, 2);
    ptx_module_free(m);
}

static void test_params_and_perf(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry _Z3fooPfi(\n"
        "  .param .u64 .ptr .global .align 4 _Z3fooPfi_param_0,\n"
        "  .param .u32 _Z3fooPfi_param_1,\n"
        "  .param .align 8 .b8 _Z3fooPfi_param_2[24]\n)\n"
        ".maxntid 256, 1, 1\n.minnctapersm 2\n{\n  ret;\n}\n"
        ".visible .entry bar() .reqntid 128 .maxnreg 32\n{\n  ret;\n}\n");
    const ptx_function *f = tp_func(m, "_Z3fooPfi");
    assert_int_equal(f->nparams, 3);
    assert_true(f->params[0].ptr_attr);
    assert_int_equal(f->params[0].type, PTX_T_U64);
    assert_int_equal(f->params[0].align, 0);   /* the .align after .ptr is the pointee's */
    assert_int_equal(f->params[0].space, PTX_SPACE_PARAM);
    assert_int_equal(f->params[1].type, PTX_T_U32);
    assert_int_equal(f->params[2].count, 24);
    assert_int_equal(f->params[2].align, 8);
    assert_int_equal(f->maxntid[0], 256);
    assert_int_equal(f->maxntid[1], 1);
    assert_int_equal(f->minnctapersm, 2);
    const ptx_function *b = tp_func(m, "bar");
    assert_int_equal(b->reqntid[0], 128);
    assert_int_equal(b->reqntid[2], 1);
    assert_int_equal(b->maxnreg, 32);
    ptx_module_free(m);
}

static void test_calls_and_prototypes(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".extern .func (.param .b32 func_retval0) vprintf\n(\n  .param .b64 vprintf_param_0,\n  .param .b64 vprintf_param_1\n)\n;\n"
        ".func (.param .b32 func_retval0) _Z3addi(.param .b32 _Z3addi_param_0);\n"
        ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
        ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
        "  mov.u64 %rd1, $str;\n"
        "  { // callseq 0, 0\n  .reg .b32 temp_param_reg;\n  .param .b64 param0;\n"
        "  st.param.b64 [param0+0], %rd1;\n  .param .b64 param1;\n  st.param.b64 [param1+0], %rd2;\n"
        "  .param .b32 retval0;\n  call.uni (retval0), \n  vprintf, \n  (\n  param0, \n  param1\n  );\n"
        "  ld.param.b32 %r1, [retval0+0];\n  } // callseq 0\n"
        "  { // callseq 1, 0\n  .reg .b32 temp_param_reg;\n  .param .b32 param0;\n"
        "  st.param.b32 [param0+0], %r1;\n  .param .b32 retval0;\n"
        "  prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "  call (retval0), %rd3, (param0), prototype_1;\n"
        "  ld.param.b32 %r2, [retval0+0];\n  }\n"
        "  call.uni _Z3addi;\n"
        "  ret;\n}\n"
        ".func (.param .b32 func_retval0) _Z3addi(.param .b32 _Z3addi_param_0)\n{\n"
        "  .reg .b32 %r<3>;\n  ld.param.u32 %r1, [_Z3addi_param_0];\n  add.s32 %r2, %r1, 1;\n"
        "  st.param.b32 [func_retval0+0], %r2;\n  ret;\n}\n");
    assert_int_equal(m->nfuncs, 3);
    const ptx_function *vp = tp_func(m, "vprintf");
    assert_true(vp->is_extern);
    assert_true(vp->is_decl);
    assert_int_equal(vp->nrets, 1);
    assert_int_equal(vp->nparams, 2);
    const ptx_function *add = tp_func(m, "_Z3addi");
    assert_false(add->is_decl);        /* the definition replaced the declaration */
    assert_int_equal(add->ninsns, 4);
    assert_string_equal(add->rets[0].name, "func_retval0");

    const ptx_function *k = tp_func(m, "k");
    const ptx_insn *c0 = NULL, *c1 = NULL, *c2 = NULL;
    for (int32_t i = 0; i < k->ninsns; i++)
        if (k->insns[i].m.op == PTX_OP_CALL)
            (!c0 ? &c0 : !c1 ? &c1 : &c2)[0] = &k->insns[i];
    assert_non_null(c2);
    assert_true(c0->m.flags & PTX_F_UNI);
    assert_int_equal(c0->nops, 3);
    assert_int_equal(c0->ops[0].kind, PTX_OPND_VEC);
    assert_int_equal(c0->ops[0].nelems, 1);
    assert_string_equal(c0->ops[0].elems[0].name, "retval0");
    assert_int_equal(c0->ops[1].kind, PTX_OPND_SYMBOL);
    assert_string_equal(c0->ops[1].name, "vprintf");
    assert_int_equal(c0->ops[2].nelems, 2);
    assert_string_equal(c0->ops[2].elems[0].name, "param0");
    assert_string_equal(c0->ops[2].elems[1].name, "param1");

    /* the second call sequence redeclares param0/retval0/temp_param_reg:
     * fresh names, and its instructions use them */
    assert_int_equal(c1->nops, 4);
    assert_int_equal(c1->ops[1].kind, PTX_OPND_REG);
    assert_string_equal(c1->ops[3].name, "prototype_1");
    const char *p0b = c1->ops[2].elems[0].name;
    const char *r0b = c1->ops[0].elems[0].name;
    assert_string_not_equal(p0b, "param0");
    assert_string_not_equal(r0b, "retval0");
    const ptx_insn *st = c1 - 1;
    assert_int_equal(st->m.op, PTX_OP_ST);
    assert_string_equal(st->ops[0].name, p0b);
    assert_string_equal((c1 + 1)->ops[1].name, r0b);
    int nlocals_param0 = 0, ntemp = 0;
    for (int32_t i = 0; i < k->nlocals; i++)
        nlocals_param0 += !strncmp(k->locals[i].name, "param0", 6);
    for (int32_t i = 0; i < k->nregs; i++)
        ntemp += !strncmp(k->regs[i].name, "temp_param_reg", 14);
    assert_int_equal(nlocals_param0, 2);
    assert_int_equal(ntemp, 2);

    assert_int_equal(c2->ops[0].nelems, 0);
    assert_int_equal(c2->ops[2].nelems, 0);
    assert_string_equal(c2->ops[1].name, "_Z3addi");
    ptx_module_free(m);
}

static void test_nested_scope_shadowing(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
        "  mov.u32 %r1, 1;\n"
        "  {\n  .reg .b32 %r1;\n  .reg .pred p;\n  mov.u32 %r1, 2;\n  setp.eq.u32 p, %r1, 2;\n"
        "  @p mov.u32 %r2, %r1;\n  }\n"
        "  mov.u32 %r2, %r1;\n"
        "  { .reg .u32 tmp; mov.u32 tmp, %lanemask_lt; mov.u32 %r2, tmp; }\n"
        "  { .reg .u32 tmp; mov.u32 tmp, 5; }\n"
        "  ret;\n}\n");
    const ptx_function *f = tp_func(m, "k");
    const ptx_insn *in = f->insns;
    int32_t outer = tp_reg(f, "%r1");
    int32_t inner = in[1].ops[0].reg;
    assert_int_equal(in[0].ops[0].reg, outer);
    assert_int_not_equal(inner, outer);
    assert_string_not_equal(f->regs[inner].name, "%r1");
    assert_int_equal(in[2].ops[1].reg, inner);
    assert_int_equal(in[3].guard, in[2].ops[0].reg);
    assert_int_equal(f->regs[in[3].guard].type, PTX_T_PRED);
    assert_int_equal(in[3].ops[1].reg, inner);
    assert_int_equal(in[4].ops[1].reg, outer);     /* the shadow ended with its scope */
    assert_int_equal(in[5].ops[1].kind, PTX_OPND_SREG);
    assert_int_equal(in[6].ops[1].reg, in[5].ops[0].reg);
    assert_int_not_equal(in[7].ops[0].reg, in[5].ops[0].reg);   /* a second tmp */
    assert_int_equal(f->nregs, 3 + 1 + 1 + 2);
    ptx_module_free(m);
}

/* CUB's inline asm: registers declared without '%' as the d|p pair of
 * shfl (nvcc's thrust::sort emits this). */
static void test_inline_asm_pair(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
        "  { .reg .u32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, %r1, 1, 0, -1;\n"
        "    @p add.u32 r0, r0, %r1; mov.u32 %r2, r0; }\n"
        "  ret;\n}\n");
    const ptx_function *f = tp_func(m, "k");
    const ptx_insn *in = f->insns;
    int32_t r0 = in[0].ops[0].reg, p = in[0].ops[0].reg2;
    assert_int_equal(in[0].ops[0].kind, PTX_OPND_REG);
    assert_true(r0 >= 0 && p >= 0 && r0 != p);
    assert_int_equal(f->regs[r0].type, PTX_T_U32);
    assert_int_equal(f->regs[p].type, PTX_T_PRED);
    assert_int_equal(in[1].guard, p);
    assert_int_equal(in[2].ops[1].reg, r0);
    ptx_module_free(m);
}

static void test_loc_and_pragma(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
        "  mov.u32 %r1, 1;\n"
        "  .loc 1 7 5\n  mov.u32 %r1, 2;\n$L1:\n  .pragma \"nounroll\";\n"
        "  .loc 2 12 3, function_name $L__info_string0, inlined_at 1 9 1\n  add.u32 %r1, %r1, 1;\n"
        "  ret;\n}\n"
        ".file 1 \"/src/k.cu\"\n.file 2 \"/src/h.cuh\", 1700000000, 1234\n"
        ".section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n}\n");
    const ptx_function *f = tp_func(m, "k");
    assert_int_equal(f->insns[0].loc.cu_line, 0);
    assert_int_equal(f->insns[0].loc.line, 7);
    assert_int_equal(f->insns[0].loc.col, 3);
    assert_int_equal(f->insns[1].loc.cu_file, 1);
    assert_int_equal(f->insns[1].loc.cu_line, 7);
    assert_int_equal(f->insns[2].loc.cu_file, 2);
    assert_int_equal(f->insns[2].loc.cu_line, 12);
    assert_int_equal(f->insns[3].loc.cu_line, 12);
    assert_int_equal(m->nfiles, 3);
    assert_string_equal(m->files[1], "/src/k.cu");
    assert_string_equal(m->files[2], "/src/h.cuh");
    ptx_module_free(m);
}

static void test_find_kernel(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry _Z6vecAddPKfS0_Pfi(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n{\n  ret;\n}\n"
        ".visible .entry _ZN3lab8scaleAllEPffi(.param .u64 a, .param .f32 b, .param .u32 c)\n{\n  ret;\n}\n"
        ".visible .entry _Z4dupli(.param .u32 a)\n{\n  ret;\n}\n"
        ".visible .entry _Z4duplf(.param .f32 a)\n{\n  ret;\n}\n"
        ".visible .entry plain()\n{\n  ret;\n}\n");
    const ptx_function *v = tp_func(m, "_Z6vecAddPKfS0_Pfi");
    assert_ptr_equal(ptx_find_kernel(m, "_Z6vecAddPKfS0_Pfi"), v);
    assert_ptr_equal(ptx_find_kernel(m, "vecAdd"), v);
    /* c++filt's spelling of the signature, blanks aside */
    assert_ptr_equal(ptx_find_kernel(m, "vecAdd(float const*, float const*, float*, int)"), v);
    assert_ptr_equal(ptx_find_kernel(m, "vecAdd(float const *, float const *, float *, int)"), v);
    assert_ptr_equal(ptx_find_kernel(m, "lab::scaleAll"), tp_func(m, "_ZN3lab8scaleAllEPffi"));
    /* the name without its scope, as Nsight Compute's "function" kernel-name base */
    assert_ptr_equal(ptx_find_kernel(m, "scaleAll"), tp_func(m, "_ZN3lab8scaleAllEPffi"));
    assert_null(ptx_find_kernel(m, "dupl"));          /* overloaded: ambiguous */
    assert_ptr_equal(ptx_find_kernel(m, "dupl(float)"), tp_func(m, "_Z4duplf"));
    assert_ptr_equal(ptx_find_kernel(m, "plain"), tp_func(m, "plain"));
    assert_null(ptx_find_kernel(m, "nothere"));
    const ptx_function *found[4];
    assert_int_equal(ptx_match_kernels(m, "dupl", found, 4), 2);
    assert_ptr_equal(found[0], tp_func(m, "_Z4dupli"));
    assert_ptr_equal(found[1], tp_func(m, "_Z4duplf"));
    assert_int_equal(ptx_match_kernels(m, "_Z4dupli", found, 4), 1);
    assert_int_equal(ptx_match_kernels(m, "nothere", found, 4), 0);
    ptx_module_free(m);
}

/* Template kernels (names as nvcc 13 emits them; c++filt's spellings):
 * by the signature, the name with its template arguments, the bare name
 * when only one instantiation has it, in a namespace with or without it. */
static void test_find_template_kernel(void **state)
{
    (void)state;
    ptx_module *m = tp_parse(PTX_HEADER
        ".visible .entry _Z11reduceStageILi256ELi0EEvPfi(.param .u64 a, .param .u32 n)\n{\n  ret;\n}\n"
        ".visible .entry _Z11reduceStageILi128ELi1EEvPfi(.param .u64 a, .param .u32 n)\n{\n  ret;\n}\n"
        ".visible .entry _ZN3lab6detail4tileIiLj4ELb1EEEvPT_PS3_(.param .u64 a, .param .u64 b)\n{\n  ret;\n}\n"
        ".visible .entry _Z4axpyIfEvT_PKS0_PS0_(.param .f32 a, .param .u64 x, .param .u64 y)\n{\n  ret;\n}\n");
    const ptx_function *r256 = tp_func(m, "_Z11reduceStageILi256ELi0EEvPfi");
    const ptx_function *tile = tp_func(m, "_ZN3lab6detail4tileIiLj4ELb1EEEvPT_PS3_");
    assert_ptr_equal(ptx_find_kernel(m, "void reduceStage<256, 0>(float*, int)"), r256);
    assert_ptr_equal(ptx_find_kernel(m, "reduceStage<256, 0>"), r256);
    assert_ptr_equal(ptx_find_kernel(m, "reduceStage<256,0>"), r256);
    assert_ptr_equal(ptx_find_kernel(m, "_Z11reduceStageILi256ELi0EEvPfi"), r256);
    assert_null(ptx_find_kernel(m, "reduceStage"));   /* two instantiations */
    const ptx_function *found[4];
    assert_int_equal(ptx_match_kernels(m, "reduceStage", found, 4), 2);
    assert_ptr_equal(ptx_find_kernel(m, "tile"), tile);
    assert_ptr_equal(ptx_find_kernel(m, "lab::detail::tile"), tile);
    assert_ptr_equal(ptx_find_kernel(m, "lab::detail::tile<int, 4u, true>"), tile);
    assert_ptr_equal(ptx_find_kernel(m, "axpy"), tp_func(m, "_Z4axpyIfEvT_PKS0_PS0_"));
    assert_null(ptx_find_kernel(m, "reduceStage<64, 0>"));
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initializers),
        cmocka_unit_test(test_params_and_perf),
        cmocka_unit_test(test_calls_and_prototypes),
        cmocka_unit_test(test_nested_scope_shadowing),
        cmocka_unit_test(test_inline_asm_pair),
        cmocka_unit_test(test_loc_and_pragma),
        cmocka_unit_test(test_find_kernel),
        cmocka_unit_test(test_find_template_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
