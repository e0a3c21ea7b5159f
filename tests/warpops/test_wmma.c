/* wmma m16n16k16: the fragment layout against an H200's (probe lines
 * "wmma ..."), and load -> mma -> store against a CPU matrix product. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "sim/core/warp_ops.h"

/* A flat device memory: bytes [BASE, BASE + size). */
#define BASE 0x10000u
typedef struct mem { uint8_t bytes[8192]; uint32_t size; } mem;

static bool rd(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    mem *m = ctx;
    if (addr < BASE || addr - BASE + size > m->size) return false;
    memcpy(dst, m->bytes + (addr - BASE), size);
    return true;
}

static bool wr(void *ctx, uint64_t addr, const void *src, uint32_t size)
{
    mem *m = ctx;
    if (addr < BASE || addr - BASE + size > m->size) return false;
    memcpy(m->bytes + (addr - BASE), src, size);
    return true;
}

static uint16_t h(float x) { _Float16 f = (_Float16)x; uint16_t u; memcpy(&u, &f, 2); return u; }
static float hf(uint16_t u) { _Float16 f; memcpy(&f, &u, 2); return (float)f; }
static float ff(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }

static ptx_mods mods(ptx_subop op, ptx_type t0, ptx_type t1, uint32_t flags)
{
    ptx_mods m;
    memset(&m, 0, sizeof m);
    m.op = PTX_OP_WMMA;
    m.subop = (uint8_t)op;
    m.types[0] = t0;
    m.types[1] = t1;
    m.ntypes = t1 ? 2 : 1;
    m.wmma_shape = 1;
    m.space = PTX_SPACE_GLOBAL;
    m.flags = PTX_F_SYNC | PTX_F_ALIGNED | flags;
    return m;
}

typedef struct frag { uint64_t r[8][32]; uint64_t *rows[8]; } frag;
static void frag_init(frag *f) { memset(f->r, 0, sizeof f->r); for (int i = 0; i < 8; i++) f->rows[i] = f->r[i]; }

/* Fragment element i of lane (f16: halves of the registers). */
static float elem(const frag *f, bool half, int lane, int i)
{
    if (!half) return ff(f->r[i][lane]);
    return hf((uint16_t)(f->r[i / 2][lane] >> (16 * (i & 1))));
}

static void test_regs(void **state)
{
    (void)state;
    ptx_mods a = mods(PTX_SUB_WMMA_LOAD_A, PTX_T_F16, 0, PTX_F_ROW_A);
    ptx_mods c32 = mods(PTX_SUB_WMMA_LOAD_C, PTX_T_F32, 0, 0);
    ptx_mods c16 = mods(PTX_SUB_WMMA_STORE_D, PTX_T_F16, 0, 0);
    ptx_mods mma = mods(PTX_SUB_WMMA_MMA, PTX_T_F16, PTX_T_F32, PTX_F_ROW_A);
    assert_int_equal(ws_wmma_fragment_regs(&a), 8);
    assert_int_equal(ws_wmma_fragment_regs(&c32), 8);
    assert_int_equal(ws_wmma_fragment_regs(&c16), 4);
    assert_int_equal(ws_wmma_mma_regs(&mma, 0), 4);
    assert_int_equal(ws_wmma_mma_regs(&mma, 1), 8);
    assert_int_equal(ws_wmma_mma_regs(&mma, 2), 8);
    assert_int_equal(ws_wmma_mma_regs(&mma, 3), 8);
}

/* The probe loaded matrices whose element at linear index i holds i, and
 * printed each lane's fragment elements; the same loads here must give the
 * same elements. */
static void test_fragment_layout_matches_gpu(void **state)
{
    (void)state;
    static mem m;
    m.size = 256 * 2 + 256 * 4;
    for (int i = 0; i < 256; i++) {
        uint16_t x = h((float)i);
        float y = (float)i;
        memcpy(m.bytes + 2 * i, &x, 2);
        memcpy(m.bytes + 512 + 4 * i, &y, 4);
    }
    struct { const char *name; ptx_subop op; ptx_type t; uint32_t flags; uint64_t addr; int n; } kinds[] = {
        { "a_row", PTX_SUB_WMMA_LOAD_A, PTX_T_F16, PTX_F_ROW_A, BASE, 16 },
        { "a_col", PTX_SUB_WMMA_LOAD_A, PTX_T_F16, 0, BASE, 16 },
        { "b_row", PTX_SUB_WMMA_LOAD_B, PTX_T_F16, PTX_F_ROW_B, BASE, 16 },
        { "b_col", PTX_SUB_WMMA_LOAD_B, PTX_T_F16, 0, BASE, 16 },
        { "c_f32_row", PTX_SUB_WMMA_LOAD_C, PTX_T_F32, PTX_F_ROW_A, BASE + 512, 8 },
        { "c_f32_col", PTX_SUB_WMMA_LOAD_C, PTX_T_F32, 0, BASE + 512, 8 },
        { "c_f16_row", PTX_SUB_WMMA_LOAD_C, PTX_T_F16, PTX_F_ROW_A, BASE, 8 },
    };
    FILE *fp = fopen(WARPSIM_TEST_DATA "/gpu_probe_sm90.txt", "r");
    assert_non_null(fp);
    char line[1024];
    int checked = 0;
    while (fgets(line, sizeof line, fp)) {
        char name[32];
        int lane, n;
        if (sscanf(line, "wmma %31s lane %d:%n", name, &lane, &n) != 2) continue;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            if (strcmp(kinds[k].name, name) != 0) continue;
            ptx_mods md = mods(kinds[k].op, kinds[k].t, 0, kinds[k].flags);
            frag f;
            frag_init(&f);
            char why[128];
            assert_true(ws_wmma_load(&md, kinds[k].addr, 16, NULL, rd, &m, f.rows, why, sizeof why));
            const char *s = line + n;
            for (int i = 0; i < kinds[k].n; i++) {
                float want;
                int used;
                assert_int_equal(sscanf(s, " %f%n", &want, &used), 1);
                s += used;
                float got = elem(&f, kinds[k].t == PTX_T_F16, lane, i);
                if (got != want) fail_msg("%s lane %d element %d: got %g, GPU %g", name, lane, i, got, want);
            }
            checked++;
        }
    }
    fclose(fp);
    assert_int_equal(checked, 7 * 32);
}

/* Places a 16 x 16 matrix at byte offset off with leading dimension ld. */
static void put(mem *m, uint32_t off, bool half, bool row_major, uint32_t ld, const float x[16][16])
{
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            uint32_t idx = row_major ? (uint32_t)r * ld + (uint32_t)c : (uint32_t)c * ld + (uint32_t)r;
            if (half) { uint16_t u = h(x[r][c]); memcpy(m->bytes + off + 2 * idx, &u, 2); }
            else memcpy(m->bytes + off + 4 * idx, &x[r][c], 4);
        }
}

static float get(const mem *m, uint32_t off, bool half, bool row_major, uint32_t ld, int r, int c)
{
    uint32_t idx = row_major ? (uint32_t)r * ld + (uint32_t)c : (uint32_t)c * ld + (uint32_t)r;
    if (half) { uint16_t u; memcpy(&u, m->bytes + off + 2 * idx, 2); return hf(u); }
    float f;
    memcpy(&f, m->bytes + off + 4 * idx, 4);
    return f;
}

/* The matrices' places in memory: 32-byte aligned, room for ld <= 32. */
enum { OFF_A = 0, OFF_B = 2048, OFF_C = 4096, OFF_D = 6144 };

/* Places A, B and C in m, then load A, B, C -> mma -> store D (at OFF_D)
 * through the interface. */
static void mma_in_memory(mem *m, bool a_row, bool b_row, bool c_half, bool d_half, bool c_row, bool d_row,
                          uint32_t ld, const float A[16][16], const float B[16][16], const float C[16][16])
{
    put(m, OFF_A, true, a_row, ld, A);
    put(m, OFF_B, true, b_row, ld, B);
    put(m, OFF_C, c_half, c_row, ld, C);
    ptx_type ct = c_half ? PTX_T_F16 : PTX_T_F32, dt = d_half ? PTX_T_F16 : PTX_T_F32;
    ptx_mods la = mods(PTX_SUB_WMMA_LOAD_A, PTX_T_F16, 0, a_row ? PTX_F_ROW_A : 0);
    ptx_mods lb = mods(PTX_SUB_WMMA_LOAD_B, PTX_T_F16, 0, b_row ? PTX_F_ROW_B : 0);
    ptx_mods lc = mods(PTX_SUB_WMMA_LOAD_C, ct, 0, c_row ? PTX_F_ROW_A : 0);
    ptx_mods mm = mods(PTX_SUB_WMMA_MMA, dt, ct, (a_row ? PTX_F_ROW_A : 0) | (b_row ? PTX_F_ROW_B : 0));
    ptx_mods sd = mods(PTX_SUB_WMMA_STORE_D, dt, 0, d_row ? PTX_F_ROW_A : 0);
    frag fa, fb, fc, fd;
    frag_init(&fa); frag_init(&fb); frag_init(&fc); frag_init(&fd);
    char why[128];
    assert_true(ws_wmma_load(&la, BASE + OFF_A, ld, NULL, rd, m, fa.rows, why, sizeof why));
    assert_true(ws_wmma_load(&lb, BASE + OFF_B, ld, NULL, rd, m, fb.rows, why, sizeof why));
    assert_true(ws_wmma_load(&lc, BASE + OFF_C, ld, NULL, rd, m, fc.rows, why, sizeof why));
    ws_wmma_mma(&mm, fd.rows, fa.rows, fb.rows, fc.rows);
    assert_true(ws_wmma_store(&sd, BASE + OFF_D, ld, wr, m, fd.rows, why, sizeof why));
}

/* Runs load A, B, C -> mma -> store D through the interface and checks D
 * against a CPU product in double: exactly when exact is set (all values
 * small integers, so every order of summation gives the same float),
 * else within tol. */
static void run_case(bool a_row, bool b_row, bool c_half, bool d_half, bool c_row, bool d_row,
                     uint32_t ld, const float A[16][16], const float B[16][16], const float C[16][16],
                     bool exact, double tol)
{
    static mem m;
    memset(&m, 0, sizeof m);
    m.size = sizeof m.bytes;
    mma_in_memory(&m, a_row, b_row, c_half, d_half, c_row, d_row, ld, A, B, C);

    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            double want = (double)hf(h(C[r][c]));
            if (!c_half) want = C[r][c];
            for (int k = 0; k < 16; k++) want += (double)hf(h(A[r][k])) * (double)hf(h(B[k][c]));
            if (d_half) want = (double)hf(h((float)want));
            double got = get(&m, OFF_D, d_half, d_row, ld, r, c);
            if (exact ? got != want : fabs(got - want) > tol)
                fail_msg("D[%d][%d] = %.9g, CPU %.9g", r, c, got, want);
        }
}

static void small_ints(float A[16][16], float B[16][16], float C[16][16])
{
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            A[r][c] = (float)((r * 7 + c * 3) % 9 - 4);
            B[r][c] = (float)((r * 5 + c * 11) % 7 - 3);
            C[r][c] = (float)((r + 2 * c) % 5 - 2);
        }
}

/* The tensor-core lab's form: A row, B col, f32 accumulator, D row. */
static void test_mma_row_col_f32(void **state)
{
    (void)state;
    float A[16][16], B[16][16], C[16][16];
    small_ints(A, B, C);
    run_case(true, false, false, false, true, true, 16, A, B, C, true, 0);
}

static void test_mma_col_row_f16(void **state)
{
    (void)state;
    float A[16][16], B[16][16], C[16][16];
    small_ints(A, B, C);
    run_case(false, true, true, true, false, false, 16, A, B, C, true, 0);
    run_case(true, true, true, false, true, false, 24, A, B, C, true, 0);    /* ld > 16 */
    run_case(false, false, false, true, false, true, 32, A, B, C, true, 0);
}

/* Fractions in [-1, 1): the order of summation may change the last bit of
 * an f32 sum of 17 terms; 1e-5 is far above that and far below any wrong
 * element mapping. */
static void test_mma_random(void **state)
{
    (void)state;
    float A[16][16], B[16][16], C[16][16];
    uint32_t s = 12345;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            s = s * 1664525u + 1013904223u; A[r][c] = (float)(s >> 8) / 8388608.0f - 1.0f;
            s = s * 1664525u + 1013904223u; B[r][c] = (float)(s >> 8) / 8388608.0f - 1.0f;
            s = s * 1664525u + 1013904223u; C[r][c] = (float)(s >> 8) / 8388608.0f - 1.0f;
        }
    run_case(true, false, false, false, true, true, 16, A, B, C, false, 1e-5);
    run_case(false, true, false, false, false, true, 16, A, B, C, false, 1e-5);
}

/* f16 values over their whole range (subnormals, both signs, up to
 * 65504) and f32 accumulators of many magnitudes: D is C plus the 16
 * products in order k = 0..15, each step rounded once to f32 (fmaf), bit
 * for bit, as wmma.c documents. */
static void test_mma_rounds_each_step_once(void **state)
{
    (void)state;
    static mem m;
    m.size = sizeof m.bytes;
    uint32_t s = 777;
    for (int round = 0; round < 20; round++) {
        float A[16][16], B[16][16], C[16][16];
        for (int r = 0; r < 16; r++)
            for (int c = 0; c < 16; c++) {
                uint16_t ha, hb;
                do { s = s * 1664525u + 1013904223u; ha = (uint16_t)(s >> 16); } while ((ha & 0x7C00u) == 0x7C00u);
                do { s = s * 1664525u + 1013904223u; hb = (uint16_t)(s >> 16); } while ((hb & 0x7C00u) == 0x7C00u);
                A[r][c] = hf(ha);
                B[r][c] = hf(hb);
                s = s * 1664525u + 1013904223u;
                C[r][c] = ldexpf((float)(s >> 8) / 8388608.0f - 1.0f, (int)(s % 40) - 20);
            }
        /* A row-major, B column-major, f32 C and D row-major */
        mma_in_memory(&m, true, false, false, false, true, true, 16, A, B, C);
        for (int r = 0; r < 16; r++)
            for (int c = 0; c < 16; c++) {
                float want = C[r][c];
                for (int k = 0; k < 16; k++) want = fmaf(A[r][k], B[k][c], want);
                float got = get(&m, OFF_D, false, true, 16, r, c);
                uint32_t wb, gb;
                memcpy(&wb, &want, 4);
                memcpy(&gb, &got, 4);
                if (wb != gb) fail_msg("round %d D[%d][%d] = %a, fmaf steps %a", round, r, c, got, want);
            }
    }
}

/* A run reader that declines the run at decline (a count of calls
 * down to it; -1: none) and counts the runs it read. */
typedef struct run_ctx { mem *m; int decline; int runs; } run_ctx;

static bool rd_run(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    run_ctx *c = ctx;
    if (c->decline == 0) return false;
    if (c->decline > 0) c->decline--;
    if (!rd(c->m, addr, dst, size)) return false;
    c->runs++;
    return true;
}

static bool rd_elem(void *ctx, uint64_t addr, void *dst, uint32_t size)
{
    run_ctx *c = ctx;
    return rd(c->m, addr, dst, size);
}

/* A load read a run of the tile at a time gives the fragment the same
 * load gives element by element, for each matrix, layout and type and
 * leading dimensions above 16; where the run reader declines a run (its
 * first, its ninth, or one past the memory's end) the elements are read
 * one by one and the fragment is again the same. */
static void test_runs_same_as_elements(void **state)
{
    (void)state;
    static mem m;
    m.size = sizeof m.bytes;
    for (uint32_t i = 0; i < m.size; i++) m.bytes[i] = (uint8_t)(i * 37u + (i >> 8) * 11u);
    static const struct { ptx_subop op; ptx_type t; uint32_t flags; } k[] = {
        {PTX_SUB_WMMA_LOAD_A, PTX_T_F16, PTX_F_ROW_A}, {PTX_SUB_WMMA_LOAD_A, PTX_T_F16, 0},
        {PTX_SUB_WMMA_LOAD_B, PTX_T_F16, PTX_F_ROW_B}, {PTX_SUB_WMMA_LOAD_B, PTX_T_F16, 0},
        {PTX_SUB_WMMA_LOAD_C, PTX_T_F32, PTX_F_ROW_A}, {PTX_SUB_WMMA_LOAD_C, PTX_T_F32, 0},
        {PTX_SUB_WMMA_LOAD_C, PTX_T_F16, PTX_F_ROW_A}, {PTX_SUB_WMMA_LOAD_C, PTX_T_F16, 0},
    };
    const uint32_t lds[] = {16, 24, 40, 64};
    const int declines[] = {-1, 0, 8};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        for (size_t j = 0; j < sizeof lds / sizeof lds[0]; j++)
            for (size_t d = 0; d < sizeof declines / sizeof declines[0]; d++) {
                ptx_mods md = mods(k[i].op, k[i].t, 0, k[i].flags);
                frag want, got;
                frag_init(&want);
                frag_init(&got);
                char why[128];
                run_ctx c = {&m, declines[d], 0};
                assert_true(ws_wmma_load(&md, BASE + 64, lds[j], NULL, rd_elem, &c, want.rows, why, sizeof why));
                assert_true(ws_wmma_load(&md, BASE + 64, lds[j], rd_run, rd_elem, &c, got.rows, why, sizeof why));
                assert_memory_equal(want.r, got.r, sizeof want.r);
                assert_int_equal(c.runs, declines[d] < 0 ? 16 : declines[d]);
            }
    /* the tile's last run past the memory's end: declined, and the
     * element that lies there is reported */
    ptx_mods la = mods(PTX_SUB_WMMA_LOAD_A, PTX_T_F16, 0, PTX_F_ROW_A);
    frag f;
    frag_init(&f);
    char why[128] = "";
    run_ctx c = {&m, -1, 0};
    m.size = sizeof m.bytes - 16;
    uint64_t base = BASE + m.size - 15 * 16 * 2 - 16;     /* 16 bytes of the last row fit */
    assert_false(ws_wmma_load(&la, base, 16, rd_run, rd_elem, &c, f.rows, why, sizeof why));
    assert_int_equal(c.runs, 15);
    assert_non_null(strstr(why, "cannot read 2 bytes"));
}

static void test_faults(void **state)
{
    (void)state;
    static mem m;
    m.size = 256;   /* too small for a 16 x 16 f16 matrix */
    frag f;
    frag_init(&f);
    char why[128] = "";
    ptx_mods la = mods(PTX_SUB_WMMA_LOAD_A, PTX_T_F16, 0, PTX_F_ROW_A);
    assert_false(ws_wmma_load(&la, BASE, 16, NULL, rd, &m, f.rows, why, sizeof why));
    assert_non_null(strstr(why, "cannot read"));
    m.size = sizeof m.bytes;
    assert_false(ws_wmma_load(&la, BASE + 16, 16, NULL, rd, &m, f.rows, why, sizeof why));
    assert_non_null(strstr(why, "misaligned"));
    ptx_mods sd = mods(PTX_SUB_WMMA_STORE_D, PTX_T_F32, 0, PTX_F_ROW_A);
    assert_false(ws_wmma_store(&sd, BASE + 8192, 16, wr, &m, f.rows, why, sizeof why));
    assert_non_null(strstr(why, "cannot write"));
    la.wmma_shape = 2;   /* m32n8k16 */
    assert_false(ws_wmma_load(&la, BASE, 16, NULL, rd, &m, f.rows, why, sizeof why));
    assert_non_null(strstr(why, "m16n16k16"));
}

/* The bytes lane reads of a 16 x 16 matrix at offset 0 with leading
 * dimension ld, by the layout wmma.c documents (the H200's): element e
 * (0..7) of A is (g + 8((e>>1)&1), 2t + (e&1) + 8(e>>2)), of B (2t + (e&1)
 * + 8((e>>1)&1), g + 8(e>>2)), of C as A's; g = lane/4, t = lane%4. */
static void layout_bytes(char mat, bool row_major, uint32_t ld, uint32_t esize, int lane, bool bytes[4096])
{
    memset(bytes, 0, 4096);
    int g = lane / 4, t = lane % 4;
    for (int e = 0; e < 8; e++) {
        int r, c;
        if (mat == 'B') { r = 2 * t + (e & 1) + 8 * ((e >> 1) & 1); c = g + 8 * (e >> 2); }
        else { r = g + 8 * ((e >> 1) & 1); c = 2 * t + (e & 1) + 8 * (e >> 2); }
        uint32_t idx = row_major ? (uint32_t)r * ld + (uint32_t)c : (uint32_t)c * ld + (uint32_t)r;
        for (uint32_t k = 0; k < esize; k++) bytes[idx * esize + k] = true;
    }
}

/* wmma.load/store as memory accesses: together they cover exactly the
 * bytes the layout gives each lane, once; two elements adjacent in memory
 * (a row-major A's register, a column-major B's, a row-major f32 C's
 * pair) make one access of twice the size. */
static void test_accesses(void **state)
{
    (void)state;
    static const struct { ptx_subop op; char mat; ptx_type t; bool row; int n; uint32_t size; } c[] = {
        {PTX_SUB_WMMA_LOAD_A, 'A', PTX_T_F16, true, 4, 4},
        {PTX_SUB_WMMA_LOAD_A, 'A', PTX_T_F16, false, 8, 2},
        {PTX_SUB_WMMA_LOAD_B, 'B', PTX_T_F16, true, 8, 2},
        {PTX_SUB_WMMA_LOAD_B, 'B', PTX_T_F16, false, 4, 4},
        {PTX_SUB_WMMA_LOAD_C, 'C', PTX_T_F32, true, 4, 8},
        {PTX_SUB_WMMA_LOAD_C, 'C', PTX_T_F32, false, 8, 4},
        {PTX_SUB_WMMA_LOAD_C, 'C', PTX_T_F16, true, 4, 4},
        {PTX_SUB_WMMA_STORE_D, 'C', PTX_T_F32, true, 4, 8},
        {PTX_SUB_WMMA_STORE_D, 'C', PTX_T_F16, false, 8, 2},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        for (uint32_t ld = 16; ld <= 48; ld += 16) {
            uint32_t flags = !c[i].row ? 0 : c[i].mat == 'B' ? PTX_F_ROW_B : PTX_F_ROW_A;
            ptx_mods m = mods(c[i].op, c[i].t, 0, flags);
            uint64_t off[WS_WMMA_MAX_ACCESSES * 32];
            uint32_t size = 0;
            int n = ws_wmma_accesses(&m, ld, off, &size);
            assert_int_equal(n, c[i].n);
            assert_int_equal(size, c[i].size);
            uint32_t esize = c[i].t == PTX_T_F16 ? 2 : 4;
            for (int lane = 0; lane < 32; lane++) {
                bool want[4096], got[4096] = {false};
                layout_bytes(c[i].mat, c[i].row, ld, esize, lane, want);
                for (int k = 0; k < n; k++) {
                    uint64_t a = off[k * 32 + lane];
                    assert_int_equal(a % size, 0);
                    for (uint32_t b = 0; b < size; b++) {
                        assert_true(a + b < 4096);
                        assert_false(got[a + b]);
                        got[a + b] = true;
                    }
                }
                assert_memory_equal(got, want, sizeof want);
            }
        }
    ptx_mods mma = mods(PTX_SUB_WMMA_MMA, PTX_T_F32, PTX_T_F32, 0);
    uint64_t off[WS_WMMA_MAX_ACCESSES * 32];
    uint32_t size;
    assert_int_equal(ws_wmma_accesses(&mma, 16, off, &size), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regs),
        cmocka_unit_test(test_fragment_layout_matches_gpu),
        cmocka_unit_test(test_mma_row_col_f32),
        cmocka_unit_test(test_mma_col_row_f16),
        cmocka_unit_test(test_mma_random),
        cmocka_unit_test(test_mma_rounds_each_step_once),
        cmocka_unit_test(test_runs_same_as_elements),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_accesses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
