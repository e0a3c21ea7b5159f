/* Rows of register storage (sim/core/reg_rows.c): registers whose values
 * are never live at once share a row, and the kernels still compute what a
 * CPU computes for them: a long chain of temporaries, values that live in
 * the lanes of one side of a branch while the other side writes its own,
 * a guarded write that keeps the old value in the other lanes, a loop.  And
 * for every course kernel: registers sharing a row have one width, and no
 * instruction writes a row another of its operands is read from. */
#include "core_util.h"

#include "sim/core/insn_deps.h"

enum { CHAIN = 48, THREADS = 64 };

static char src[16384];

static void put(size_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(src + *n, sizeof src - *n, fmt, ap);
    va_end(ap);
    assert_true(k > 0 && (size_t)k < sizeof src - *n);
    *n += (size_t)k;
}

/* chain: out[t] = v_CHAIN with v_1 = t, v_k+1 = v_k * 3 + k, each in its own
 * register; diverge: odd lanes and even lanes each run a chain of their
 * own, from values computed before the branch (each side's value is dead
 * on the other side), and both use x, computed before and read after;
 * guarded: %r1 keeps t in even lanes, under a guarded write, while
 * temporaries come and go beside it;
 * loop: a sum over a loop with temporaries in its body. */
static const char *module(void)
{
    size_t n = 0;
    put(&n, ".version 7.0\n.target sm_80\n.address_size 64\n");
    put(&n, ".visible .entry chain(.param .u64 pout)\n{\n"
            " .reg .b32 %%r<%d>;\n .reg .b64 %%rd<4>;\n"
            " ld.param.u64 %%rd1, [pout];\n mov.u32 %%r1, %%tid.x;\n", CHAIN + 2);
    for (int k = 1; k < CHAIN; k++) put(&n, " mad.lo.u32 %%r%d, %%r%d, 3, %d;\n", k + 1, k, k);
    put(&n, " mov.u32 %%r%d, %%tid.x;\n mul.wide.u32 %%rd2, %%r%d, 4;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
            " st.global.u32 [%%rd3], %%r%d;\n ret;\n}\n", CHAIN + 1, CHAIN + 1, CHAIN);
    put(&n, ".visible .entry diverge(.param .u64 pout)\n{\n"
            " .reg .b32 %%r<40>;\n .reg .b64 %%rd<4>;\n .reg .pred %%p<2>;\n"
            " ld.param.u64 %%rd1, [pout];\n mov.u32 %%r1, %%tid.x;\n"
            " mul.lo.u32 %%r2, %%r1, 7;\n"      /* odd side's start */
            " mul.lo.u32 %%r3, %%r1, 5;\n"      /* even side's start */
            " add.u32 %%r4, %%r1, 1000;\n"      /* x */
            " and.b32 %%r5, %%r1, 1;\n setp.eq.u32 %%p1, %%r5, 0;\n"
            " @%%p1 bra EVEN;\n");
    for (int k = 0; k < 8; k++) put(&n, " xor.b32 %%r%d, %%r%d, %d;\n", 11 + k, k ? 10 + k : 2, 3 * k + 1);
    put(&n, " mov.u32 %%r30, %%r18;\n bra.uni JOIN;\nEVEN:\n");
    for (int k = 0; k < 8; k++) put(&n, " add.u32 %%r%d, %%r%d, %d;\n", 21 + k, k ? 20 + k : 3, 5 * k + 2);
    put(&n, " mov.u32 %%r30, %%r28;\nJOIN:\n"
            " add.u32 %%r31, %%r30, %%r4;\n"
            " mul.wide.u32 %%rd2, %%r1, 4;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
            " st.global.u32 [%%rd3], %%r31;\n ret;\n}\n");
    put(&n, ".visible .entry guarded(.param .u64 pout)\n{\n"
            " .reg .b32 %%r<8>;\n .reg .b64 %%rd<4>;\n .reg .pred %%p<2>;\n"
            " ld.param.u64 %%rd1, [pout];\n mov.u32 %%r1, %%tid.x;\n"
            " and.b32 %%r2, %%r1, 1;\n setp.eq.u32 %%p1, %%r2, 1;\n"
            " add.u32 %%r3, %%r1, 5;\n mul.lo.u32 %%r5, %%r3, 2;\n add.u32 %%r6, %%r5, 100;\n"
            " @%%p1 mov.u32 %%r1, %%r6;\n"
            " mov.u32 %%r4, %%tid.x;\n mul.wide.u32 %%rd2, %%r4, 4;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
            " st.global.u32 [%%rd3], %%r1;\n ret;\n}\n");
    put(&n, ".visible .entry loop(.param .u64 pout)\n{\n"
            " .reg .b32 %%r<12>;\n .reg .b64 %%rd<4>;\n .reg .pred %%p<2>;\n"
            " ld.param.u64 %%rd1, [pout];\n mov.u32 %%r1, %%tid.x;\n"
            " mov.u32 %%r2, 0;\n mov.u32 %%r3, 0;\n"
            "LOOP:\n"
            " mul.lo.u32 %%r4, %%r3, %%r1;\n xor.b32 %%r5, %%r4, 3;\n add.u32 %%r6, %%r5, %%r3;\n"
            " add.u32 %%r2, %%r2, %%r6;\n add.u32 %%r3, %%r3, 1;\n"
            " setp.lt.u32 %%p1, %%r3, 10;\n @%%p1 bra LOOP;\n"
            " mul.wide.u32 %%rd2, %%r1, 4;\n add.u64 %%rd3, %%rd1, %%rd2;\n"
            " st.global.u32 [%%rd3], %%r2;\n ret;\n}\n");
    return src;
}

static uint32_t expect(const char *kernel, uint32_t t)
{
    if (!strcmp(kernel, "chain")) {
        uint32_t v = t;
        for (uint32_t k = 1; k < CHAIN; k++) v = v * 3 + k;
        return v;
    }
    if (!strcmp(kernel, "diverge")) {
        uint32_t v;
        if (t & 1) {
            v = t * 7;
            for (uint32_t k = 0; k < 8; k++) v ^= 3 * k + 1;
        } else {
            v = t * 5;
            for (uint32_t k = 0; k < 8; k++) v += 5 * k + 2;
        }
        return v + t + 1000;
    }
    if (!strcmp(kernel, "guarded")) return t & 1 ? (t + 5) * 2 + 100 : t;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 10; i++) sum += ((i * t) ^ 3) + i;
    return sum;
}

static void run_and_check(tctx *t, const char *kernel)
{
    uint32_t out[THREADS];
    uint64_t a = t_alloc(t, NULL, sizeof out);
    t->nparams = 0;
    t_p64(t, a);
    if (!t_run(t, kernel, D3(1, 1, 1), D3(THREADS, 1, 1), 0, NULL, 0)) fail_msg("%s: %s", kernel, t->err.msg);
    assert_true(ws_devmem_read(t->mem, a, out, sizeof out));
    for (uint32_t i = 0; i < THREADS; i++)
        if (out[i] != expect(kernel, i)) fail_msg("%s thread %u: %u, expected %u", kernel, i, out[i], expect(kernel, i));
}

static void test_values(void **state)
{
    (void)state;
    tctx t;
    if (!t_load(&t, module(), "reg_rows.ptx")) fail_msg("load: %s", t.err.msg);
    const char *kernels[] = {"chain", "diverge", "guarded", "loop"};
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) run_and_check(&t, kernels[i]);
    /* the chain's 51 registers: one .b32 value live at a time (two where an
     * instruction reads one and writes the next), a row of one 128-byte
     * unit each, and three .b64, of two units each */
    const ws_kernel *k = ws_program_kernel(t.p, "chain");
    assert_int_equal(ws_kernel_reg_rows(k), CHAIN + 2 + 4);
    assert_true(ws_kernel_rows(k) <= 2 + 3 * 2);
    t_free(&t);
}

/* A row's units of storage: one for registers of 32 bits or fewer, two
 * for 64-bit ones (reg_rows.c). */
static int32_t units(const ws_program *p, int32_t reg)
{
    return p->reg_width[reg] > 4 ? 2 : 1;
}

/* Rows lie apart: no unit belongs to two rows (a 64-bit row's second
 * unit is no other row's), and each operand knows its row's width. */
static void check_layout(const ws_program *p, const char *path)
{
    int32_t nunits = 0;
    for (int32_t r = 0; r < p->nregs; r++)
        if (p->row_of[r] >= 0 && p->row_of[r] + units(p, r) > nunits) nunits = p->row_of[r] + units(p, r);
    int32_t *owner = malloc(sizeof *owner * (size_t)(nunits + 1));
    assert_non_null(owner);
    for (int32_t u = 0; u < nunits; u++) owner[u] = -1;
    for (int32_t r = 0; r < p->nregs; r++)
        for (int32_t u = p->row_of[r]; u >= 0 && u < p->row_of[r] + units(p, r); u++) {
            if (owner[u] >= 0 && owner[u] != p->row_of[r])
                fail_msg("%s: register %d's row at unit %d overlaps the row at unit %d", path, r, p->row_of[r], owner[u]);
            owner[u] = p->row_of[r];
        }
    free(owner);
    for (int32_t pc = 0; pc < p->ncode; pc++) {
        const ws_insn *in = &p->code[pc];
        bool all_narrow = true;
        for (int i = 0; i < in->nops; i++) {
            const ws_opnd *o = &in->ops[i];
            if (o->reg >= 0 && o->narrow != (p->reg_width[o->reg] <= 4))
                fail_msg("%s pc %d: operand %d's narrow flag against its width %u", path, pc, i, p->reg_width[o->reg]);
            if (o->kind == WS_OK_REG && i <= 3 && !o->narrow) all_narrow = false;
        }
        if ((in->flags & WS_IF_NARROW) && !(in->fast && all_narrow))
            fail_msg("%s pc %d: 4-byte handler with an operand of 8-byte lanes", path, pc);
    }
}

/* The units the timing model asks for ahead of an instruction (d->units):
 * those of the rows of the registers it reads and writes, by each
 * register's row and width, each once, all of them where they fit. */
static void check_units(const ws_program *p, const ws_insn_deps *d, const char *path, int32_t pc)
{
    int32_t want[4 * WS_DEPS_MAX];
    int nwant = 0;
    for (int side = 0; side < 2; side++)
        for (uint8_t i = 0; i < (side ? d->nsrc : d->ndst); i++) {
            int32_t r = side ? d->src[i] : d->dst[i];
            for (int32_t u = p->row_of[r]; u >= 0 && u < p->row_of[r] + units(p, r); u++) {
                bool seen = false;
                for (int j = 0; j < nwant; j++) seen |= want[j] == u;
                if (!seen) want[nwant++] = u;
            }
        }
    int expect = nwant < WS_DEPS_UNITS ? nwant : WS_DEPS_UNITS;
    if (d->nunits != expect) fail_msg("%s pc %d: %u units asked for, %d expected", path, pc, d->nunits, expect);
    for (uint8_t i = 0; i < d->nunits; i++) {
        bool found = false;
        for (int j = 0; j < nwant; j++) found |= want[j] == d->units[i];
        for (uint8_t j = 0; j < i; j++)
            if (d->units[j] == d->units[i]) fail_msg("%s pc %d: unit %d asked for twice", path, pc, d->units[i]);
        if (!found) fail_msg("%s pc %d: unit %d is no register's of the instruction", path, pc, d->units[i]);
    }
}

/* The properties the executor relies on, over every kernel of one loaded
 * program: a row holds registers of one width, rows do not overlap, an
 * instruction's destinations have rows of their own among its operands,
 * and a global atomic's destination (written at a window's end) shares
 * its row with no register at all. */
static void check_program(const ws_program *p, const char *path)
{
    check_layout(p, path);
    for (int32_t a = 0; a < p->nregs; a++)
        for (int32_t b = a + 1; b < p->nregs; b++)
            if (p->row_of[a] >= 0 && p->row_of[a] == p->row_of[b] && p->reg_width[a] != p->reg_width[b])
                fail_msg("%s: registers %d and %d of widths %u and %u share row %d", path, a, b,
                         p->reg_width[a], p->reg_width[b], p->row_of[a]);
    for (int32_t pc = 0; pc < p->ncode; pc++) {
        const ws_insn *in = &p->code[pc];
        if (in->cls == WS_I_ATOM && in->space == WS_SP_GLOBAL && in->m.op != PTX_OP_RED && in->ops[0].kind == WS_OK_REG)
            for (int32_t r = 0; r < p->nregs; r++)
                if (r != in->ops[0].reg && p->row_of[r] == in->ops[0].row)
                    fail_msg("%s pc %d: the atomic's destination shares its row with register %d", path, pc, r);
        ws_insn_deps d;
        ws_insn_deps_of(p, &p->code[pc], &d);
        check_units(p, &d, path, pc);
        for (uint8_t i = 0; i < d.ndst; i++) {
            for (uint8_t j = 0; j < d.ndst; j++)
                if (i != j && p->row_of[d.dst[i]] == p->row_of[d.dst[j]])
                    fail_msg("%s pc %d: two destinations share a row", path, pc);
            for (uint8_t j = 0; j < d.nsrc; j++)
                if (d.src[j] != d.dst[i] && p->row_of[d.src[j]] == p->row_of[d.dst[i]])
                    fail_msg("%s pc %d: a destination shares a source's row", path, pc);
        }
    }
}

static void test_course_kernels(void **state)
{
    (void)state;
    const char *files[] = {"cnn_conv", "convolution", "fc_layer", "histogram", "matmul", "matrix_add",
                           "microbench_bank_conflicts", "microbench_coalescing", "reduction", "scan",
                           "spmv", "transpose", "vector_add", "wmma_matmul"};
    int32_t regs = 0, rows = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/kernels/ptx/sm_80/%s.ptx", WARPSIM_SOURCE_DIR, files[i]);
        tctx t;
        t_load_path(&t, path);
        check_program(t.p, path);
        for (int32_t k = 0; k < t.p->nkernels; k++) {
            regs += ws_kernel_reg_rows(&t.p->kernels[k]);
            rows += ws_kernel_rows(&t.p->kernels[k]);
        }
        t_free(&t);
    }
    assert_true(regs > 0);
    assert_true(rows < regs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_course_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
