/* Real nvcc output: the modules in tests/ptx/data (generated from the .cu
 * files in tests/ptx/data/src by nvcc 13 -O3 for sm_80 and sm_90) and every
 * course kernel under kernels/ptx parse, and the instructions the parser
 * builds are the ones a plain text scan of the file finds. */
#include <ctype.h>
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>
#include "frontend/ptx/ptx_query.h"
#include "ptx_test_util.h"

static char *read_text(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    buf[n] = '\0';
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* The reference: counts instruction statements per opcode name by text
 * alone.  Comments, .loc/.file lines and .section blocks are dropped; the
 * rest is split at ';'; leading braces and labels are stripped; what
 * starts with '.' is a directive, the rest an instruction whose first
 * dotted word (after any @guard) is the opcode. */
static void scan_counts(const char *text, int counts[PTX_OP_COUNT], int *total)
{
    size_t n = strlen(text);
    char *clean = calloc(n + 1, 1);
    assert_non_null(clean);
    size_t k = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *q = p;
        while (q < p + len && isspace((unsigned char)*q))
            q++;
        if (!strncmp(q, ".section", 8)) {          /* skip to the closing brace */
            const char *end = strchr(q, '}');
            p = end ? end + 1 : p + strlen(p);
            continue;
        }
        if (strncmp(q, ".loc", 4) && strncmp(q, ".file", 5)) {
            for (const char *c = p; c < p + len; c++) {
                if (c[0] == '/' && c[1] == '/')
                    break;
                clean[k++] = *c;
            }
            clean[k++] = '\n';
        }
        p += len + (eol ? 1 : 0);
    }
    memset(counts, 0, sizeof(int) * PTX_OP_COUNT);
    *total = 0;
    char *save = NULL;
    for (char *st = strtok_r(clean, ";", &save); st; st = strtok_r(NULL, ";", &save)) {
        for (;;) {
            while (isspace((unsigned char)*st) || *st == '{' || *st == '}')
                st++;
            /* a label: identifier, optional blanks, ':' */
            char *c = st;
            while (isalnum((unsigned char)*c) || *c == '_' || *c == '$')
                c++;
            char *d = c;
            while (*d == ' ' || *d == '\t')
                d++;
            if (c > st && *d == ':') {
                st = d + 1;
                continue;
            }
            break;
        }
        if (!*st || *st == '.')
            continue;
        if (*st == '@') {
            while (*st && !isspace((unsigned char)*st))
                st++;
            while (isspace((unsigned char)*st))
                st++;
        }
        char word[32];
        size_t w = 0;
        while (w < sizeof word - 1 && (isalnum((unsigned char)st[w]) || st[w] == '_'))
            word[w] = st[w], w++;
        word[w] = '\0';
        int op = -1;
        for (int i = 0; i < PTX_OP_COUNT; i++)
            if (!strcmp(ptx_opcode_name((ptx_opcode)i), word))
                op = i;
        if (op < 0)
            fail_msg("text scan found an unknown instruction '%s'", word);
        counts[op]++;
        (*total)++;
    }
    free(clean);
}

static ptx_module *parse_checked(const char *path)
{
    size_t len;
    char *text = read_text(path, &len);
    ptx_error err;
    ptx_module *m = ptx_parse(text, len, path, &err);
    if (!m) {
        char msg[1024];
        ptx_error_format(&err, msg, sizeof msg);
        free(text);
        fail_msg("%s", msg);
    }
    int want[PTX_OP_COUNT], got[PTX_OP_COUNT] = {0}, total;
    scan_counts(text, want, &total);
    int ninsns = 0;
    for (int32_t i = 0; i < m->nfuncs; i++) {
        ninsns += m->funcs[i].ninsns;
        for (int32_t j = 0; j < m->funcs[i].ninsns; j++)
            got[m->funcs[i].insns[j].m.op]++;
    }
    if (ninsns != total)
        fail_msg("%s: parser built %d instructions, the text has %d", path, ninsns, total);
    for (int i = 0; i < PTX_OP_COUNT; i++)
        if (want[i] != got[i])
            fail_msg("%s: %d '%s' instructions parsed, %d in the text", path, got[i],
                     ptx_opcode_name((ptx_opcode)i), want[i]);
    free(text);
    return m;
}

static ptx_module *parse_data(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", WARPSIM_TEST_DATA, name);
    return parse_checked(path);
}

static int count_op(const ptx_function *f, ptx_opcode op, int subop)
{
    int n = 0;
    for (int32_t i = 0; i < f->ninsns; i++)
        n += f->insns[i].m.op == op && (subop < 0 || f->insns[i].m.subop == subop);
    return n;
}

static const char *const archs[] = {"sm80", "sm90"};

static void test_vecadd(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        char name[64];
        snprintf(name, sizeof name, "vecadd_%s.ptx", archs[a]);
        ptx_module *m = parse_data(name);
        assert_string_equal(m->target, a ? "sm_90" : "sm_80");
        const ptx_function *k = ptx_find_kernel(m, "vecAdd");
        assert_non_null(k);
        assert_string_equal(k->name, "_Z6vecAddPKfS0_Pfi");
        assert_int_equal(k->nparams, 4);            /* a, b, c, n */
        assert_int_equal(ptx_var_size(&k->params[0]), 8);
        assert_int_equal(ptx_var_size(&k->params[3]), 4);
        assert_int_equal(count_op(k, PTX_OP_ST, -1), 1);   /* c[i] = ... */
        assert_int_equal(count_op(k, PTX_OP_ADD, -1) > 0, 1);
        ptx_module_free(m);
    }
}

static void test_matmul_tiled(void **state)
{
    (void)state;
    const char *files[] = {"matmul_tiled_sm80.ptx", "matmul_tiled_sm90.ptx", "matmul_tiled_lineinfo_sm80.ptx"};
    for (int a = 0; a < 3; a++) {
        ptx_module *m = parse_data(files[a]);
        const ptx_function *k = ptx_find_kernel(m, "matmulTiled(float const*, float const*, float*, int)");
        assert_non_null(k);
        assert_int_equal(k->nparams, 4);
        assert_int_equal(count_op(k, PTX_OP_BAR, PTX_SUB_BAR_SYNC), 2);   /* two __syncthreads */
        if (a == 2) {
            int with_line = 0;
            for (int32_t i = 0; i < k->ninsns; i++)
                with_line += k->insns[i].loc.cu_file == 1 && k->insns[i].loc.cu_line > 0;
            assert_true(with_line > k->ninsns / 2);
            assert_true(m->nfiles >= 2);
            assert_non_null(strstr(m->files[1], "matmul_tiled.cu"));
        }
        ptx_module_free(m);
    }
}

static void test_reduce(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        char name[64];
        snprintf(name, sizeof name, "reduce_shfl_%s.ptx", archs[a]);
        ptx_module *m = parse_data(name);
        const ptx_function *k = ptx_find_kernel(m, "reduceShfl");
        assert_non_null(k);
        assert_int_equal(k->nparams, 3);
        /* the offset loop 16, 8, 4, 2, 1 unrolls into five shuffles */
        assert_int_equal(count_op(k, PTX_OP_SHFL, PTX_SUB_SHFL_DOWN), 5);
        assert_int_equal(count_op(k, PTX_OP_ATOM, PTX_SUB_ATOM_ADD), 1);
        for (int32_t i = 0; i < k->ninsns; i++)
            if (k->insns[i].m.op == PTX_OP_SHFL)
                assert_true(k->insns[i].ops[0].reg2 >= 0);   /* d|p */
        const ptx_function *d = ptx_find_kernel(m, "reduceDyn");
        assert_non_null(d);
        assert_int_equal(count_op(d, PTX_OP_VOTE, PTX_SUB_VOTE_BALLOT), 1);
        int ext = 0;
        for (int32_t g = 0; g < m->nglobals; g++)
            ext += m->globals[g].is_extern && m->globals[g].space == PTX_SPACE_SHARED;
        assert_int_equal(ext, 1);
        ptx_module_free(m);
    }
}

static void test_printf_and_calls(void **state)
{
    (void)state;
    const char *files[] = {"printf_kernel_sm80.ptx", "printf_kernel_sm90.ptx", "printf_lineinfo_sm90.ptx"};
    for (int a = 0; a < 3; a++) {
        ptx_module *m = parse_data(files[a]);
        const ptx_function *k = ptx_find_kernel(m, "hello(int, double)");
        assert_non_null(k);
        assert_int_equal(k->nparams, 2);
        assert_int_equal(k->params[1].type, PTX_T_F64);
        assert_int_equal(count_op(k, PTX_OP_CALL, -1), 1);
        for (int32_t i = 0; i < k->ninsns; i++)
            if (k->insns[i].m.op == PTX_OP_CALL) {
                assert_string_equal(k->insns[i].ops[1].name, "vprintf");
                assert_int_equal(k->insns[i].ops[2].nelems, 2);
                assert_int_equal(k->insns[i].ops[0].nelems, 1);
            }
        int nlocal = 0;
        for (int32_t i = 0; i < k->nlocals; i++)
            nlocal += k->locals[i].space == PTX_SPACE_LOCAL;
        assert_int_equal(nlocal, 1);                 /* the vprintf argument buffer */
        const ptx_function *vp = NULL;
        for (int32_t i = 0; i < m->nfuncs; i++)
            if (!strcmp(m->funcs[i].name, "vprintf"))
                vp = &m->funcs[i];
        assert_non_null(vp);
        assert_true(vp->is_extern && vp->is_decl);
        ptx_module_free(m);
    }
    for (int a = 0; a < 2; a++) {
        char name[64];
        snprintf(name, sizeof name, "devfunc_%s.ptx", archs[a]);
        ptx_module *m = parse_data(name);
        const ptx_function *inc = ptx_find_kernel(m, "incAll");
        const ptx_function *sc = ptx_find_kernel(m, "lab::scaleAll");
        assert_non_null(inc);
        assert_non_null(sc);
        assert_int_equal(sc->nparams, 3);
        assert_null(ptx_find_kernel(m, "addOne"));   /* a .func is not a kernel */
        int defs = 0;
        for (int32_t i = 0; i < m->nfuncs; i++)
            defs += !m->funcs[i].is_entry && !m->funcs[i].is_decl;
        assert_int_equal(defs, 2);                   /* scale and addOne, each once */
        assert_int_equal(count_op(inc, PTX_OP_CALL, -1), 1);
        ptx_module_free(m);
    }
}

static void test_wmma_const_misc(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        char name[64];
        snprintf(name, sizeof name, "wmma_kernel_%s.ptx", archs[a]);
        ptx_module *m = parse_data(name);
        const ptx_function *k = ptx_find_kernel(m, "wmmaTile");
        assert_non_null(k);
        assert_int_equal(k->nparams, 6);
        assert_int_equal(count_op(k, PTX_OP_WMMA, PTX_SUB_WMMA_LOAD_A), 1);
        assert_int_equal(count_op(k, PTX_OP_WMMA, PTX_SUB_WMMA_LOAD_B), 1);
        assert_int_equal(count_op(k, PTX_OP_WMMA, PTX_SUB_WMMA_MMA), 1);
        assert_int_equal(count_op(k, PTX_OP_WMMA, PTX_SUB_WMMA_STORE_D), 1);
        for (int32_t i = 0; i < k->ninsns; i++) {
            const ptx_insn *in = &k->insns[i];
            if (in->m.op != PTX_OP_WMMA)
                continue;
            assert_int_equal(in->m.wmma_shape, 1);
            if (in->m.subop == PTX_SUB_WMMA_MMA) {   /* row_major a, col_major b */
                assert_int_equal(in->m.flags & (PTX_F_ROW_A | PTX_F_ROW_B), PTX_F_ROW_A);
                assert_int_equal(in->ops[0].nelems, 8);
            }
        }
        ptx_module_free(m);

        snprintf(name, sizeof name, "conv_const_%s.ptx", archs[a]);
        m = parse_data(name);
        k = ptx_find_kernel(m, "conv1d");
        assert_non_null(k);
        int nconst = 0;
        for (int32_t g = 0; g < m->nglobals; g++) {
            const ptx_var *v = &m->globals[g];
            if (v->space == PTX_SPACE_CONST) {
                nconst++;
                assert_int_equal(ptx_var_size(v), 5 * 4);    /* __constant__ float mask[5] */
            }
            if (!strcmp(v->name, "lut")) {
                const int32_t want[4] = {1, -2, 3, 0x7fffffff};
                assert_int_equal(v->init_size, 16);
                assert_memory_equal(v->init, want, 16);
            }
            if (!strcmp(v->name, "dscale")) {
                const double half = 0.5;
                assert_memory_equal(v->init, &half, 8);
            }
        }
        assert_int_equal(nconst, 1);
        ptx_module_free(m);

        snprintf(name, sizeof name, "misc_ops_%s.ptx", archs[a]);
        m = parse_data(name);
        k = ptx_find_kernel(m, "miscOps");
        assert_non_null(k);
        assert_true(count_op(k, PTX_OP_SHF, PTX_SUB_SHF_L) >= 1);
        assert_true(count_op(k, PTX_OP_ACTIVEMASK, -1) == 1);
        int clock = 0, lanemask = 0;
        for (int32_t i = 0; i < k->ninsns; i++)
            for (int j = 0; j < k->insns[i].nops; j++) {
                const ptx_operand *o = &k->insns[i].ops[j];
                clock += o->kind == PTX_OPND_SREG && o->v.s.sreg == PTX_SREG_CLOCK64;
                lanemask += o->kind == PTX_OPND_SREG && o->v.s.sreg == PTX_SREG_LANEMASK_LT;
            }
        assert_int_equal(clock, 2);
        assert_int_equal(lanemask, 1);
        ptx_module_free(m);
    }
}

static void test_features(void **state)
{
    (void)state;
    for (int a = 0; a < 2; a++) {
        char name[64];
        snprintf(name, sizeof name, "features_%s.ptx", archs[a]);
        ptx_module *m = parse_data(name);
        const ptx_function *k = ptx_find_kernel(m, "stress");
        assert_non_null(k);
        assert_int_equal(k->nparams, 7);
        assert_int_equal(ptx_var_size(&k->params[0]), 16);     /* struct P by value */
        int indirect = 0, barred = 0, popc = 0;
        for (int32_t i = 0; i < k->ninsns; i++) {
            const ptx_insn *in = &k->insns[i];
            if (in->m.op == PTX_OP_CALL && in->ops[1].kind == PTX_OPND_REG) {
                indirect++;
                assert_int_equal(in->nops, 4);
                assert_int_equal(in->ops[3].kind, PTX_OPND_SYMBOL);
                assert_int_equal(in->ops[0].nelems, 1);
                assert_int_equal(in->ops[2].nelems, 1);
            }
            if (in->m.op == PTX_OP_BAR && in->m.subop == PTX_SUB_BAR_RED) {
                barred++;
                popc += in->m.boolop == PTX_BOOL_NONE && in->m.types[0] == PTX_T_U32;
            }
        }
        assert_int_equal(indirect, 1);      /* f(t) through a function pointer */
        assert_int_equal(barred, 2);        /* __syncthreads_count, __syncthreads_or */
        assert_int_equal(popc, 1);
        /* const char *names[] = {"a", "bb"}: two generic pointers to strings */
        const ptx_var *names = NULL;
        for (int32_t g = 0; g < m->nglobals; g++)
            if (!strcmp(m->globals[g].name, "names"))
                names = &m->globals[g];
        assert_non_null(names);
        assert_non_null(names->init_syms);
        for (int i = 0; i < 2; i++) {
            const ptx_var *str = NULL;
            for (int32_t g = 0; g < m->nglobals; g++)
                if (!strcmp(m->globals[g].name, names->init_syms[i]))
                    str = &m->globals[g];
            assert_non_null(str);
            assert_string_equal((const char *)str->init, i == 0 ? "a" : "bb");
        }
        int inlined = 0;                    /* .loc with inlined_at names a header file */
        for (int32_t i = 0; i < k->ninsns; i++)
            inlined += k->insns[i].loc.cu_file > 1;
        assert_true(inlined > 0);
        ptx_module_free(m);
    }
}

/* Every course kernel, both architectures. */
static void test_course_kernels(void **state)
{
    (void)state;
    glob_t g;
    int rc = glob(WARPSIM_SOURCE_DIR "/kernels/ptx/*/*.ptx", 0, NULL, &g);
    assert_int_equal(rc, 0);
    assert_true(g.gl_pathc > 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        ptx_module *m = parse_checked(g.gl_pathv[i]);
        int kernels = 0;
        for (int32_t f = 0; f < m->nfuncs; f++)
            kernels += m->funcs[f].is_entry;
        if (kernels == 0)
            fail_msg("%s has no kernel", g.gl_pathv[i]);
        ptx_module_free(m);
    }
    globfree(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd),
        cmocka_unit_test(test_matmul_tiled),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_printf_and_calls),
        cmocka_unit_test(test_wmma_const_misc),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_course_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
