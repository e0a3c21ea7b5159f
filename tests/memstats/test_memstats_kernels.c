/* Memory statistics end to end: the course's kernels (PTX as nvcc emits
 * it) through the executor, against counts worked out by hand from each
 * kernel's access pattern. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "frontend/ptx/ptx_parse.h"
#include "sim/core/sim.h"

typedef struct kctx {
    ptx_module *m;
    ws_devmem *mem;
    ws_program *p;
    ws_error err;
    ws_launch_stats st;
    uint8_t params[64];
    size_t nparams;
} kctx;

static void k_load(kctx *t, const char *text, const char *file)
{
    ptx_error pe;
    memset(t, 0, sizeof *t);
    if (text) {
        t->m = ptx_parse(text, strlen(text), file, &pe);
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/kernels/ptx/sm_80/%s", WARPSIM_SOURCE_DIR, file);
        t->m = ptx_parse_file(path, &pe);
    }
    if (!t->m) {
        char buf[1024];
        ptx_error_format(&pe, buf, sizeof buf);
        fail_msg("parse failed: %s", buf);
    }
    t->mem = ws_devmem_create();
    t->p = ws_program_load(t->m, t->mem, &t->err);
    if (!t->p) fail_msg("load failed: %s", t->err.msg);
}

static void k_free(kctx *t)
{
    ws_program_free(t->p);
    ws_devmem_destroy(t->mem);
    ptx_module_free(t->m);
}

static void k_param(kctx *t, const void *v, size_t size)
{
    t->nparams = (t->nparams + size - 1) / size * size;
    memcpy(t->params + t->nparams, v, size);
    t->nparams += size;
}
static void k_p64(kctx *t, uint64_t v) { k_param(t, &v, 8); }
static void k_p32(kctx *t, uint32_t v) { k_param(t, &v, 4); }

static uint64_t k_alloc(kctx *t, size_t size)
{
    uint64_t a = ws_devmem_alloc(t->mem, size);
    assert_true(a != 0);
    return a;
}

static void k_run(kctx *t, const char *name, ws_dim3 grid, ws_dim3 block)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    if (!k) fail_msg("no kernel %s", name);
    ws_launch l = {grid, block, 0, t->params, t->nparams, NULL, 0, NULL, 0};
    if (!ws_launch_kernel(t->p, k, &l, &t->st, &t->err)) fail_msg("launch failed: %s", t->err.msg);
}

#define D3(x, y, z) ((ws_dim3){(x), (y), (z)})

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) { uint32_t r = a % b; a = b; b = r; }
    return a;
}

/* bankConflictStride(out, stride, iters), 2 blocks of 256 threads (8 warps).
 * Fill: smem[j] = j for j = tid, tid+256, ..: 16 stores a thread, 32
 * consecutive words a warp: one wavefront each.  Sweep: lane t reads word
 * (t*s + it*32) % 4096; its bank is t*s % 32.  Over 32 consecutive t,
 * t*s mod 32 takes 32/g values, g = gcd(s, 32), each g times, always on
 * distinct words (a warp spans 31*s < 4096 words): g passes a read. */
static void test_bank_conflict_sweep(void **state)
{
    (void)state;
    const uint32_t blocks = 2, warps = 8, iters = 5;
    static const uint32_t strides[] = {1, 2, 4, 8, 16, 32, 3, 6, 24, 33};
    for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
        uint32_t s = strides[i], g = gcd(s, 32);
        kctx t;
        k_load(&t, NULL, "microbench_bank_conflicts.ptx");
        k_p64(&t, k_alloc(&t, blocks * 256 * 4));
        k_p32(&t, s);
        k_p32(&t, iters);
        k_run(&t, "_Z18bankConflictStridePfii", D3(blocks, 1, 1), D3(256, 1, 1));
        const ws_launch_stats *st = &t.st;
        uint64_t reads = (uint64_t)blocks * warps * iters;
        assert_int_equal(st->shared_ld.requests, reads);
        if (st->shared_ld.wavefronts != reads * g)
            fail_msg("stride %u: %llu load wavefronts for %llu reads; want %u-way", s,
                     (unsigned long long)st->shared_ld.wavefronts, (unsigned long long)reads, g);
        assert_int_equal(st->shared_ld.bank_conflicts, reads * (g - 1));
        assert_int_equal(st->shared_st.requests, blocks * warps * 16);
        assert_int_equal(st->shared_st.wavefronts, blocks * warps * 16);
        assert_int_equal(st->shared_st.bank_conflicts, 0);
        /* out[block*256 + tid]: 128 aligned bytes a warp */
        assert_int_equal(st->global_st.requests, blocks * warps);
        assert_int_equal(st->global_st.sectors, blocks * warps * 4);
        assert_int_equal(st->global_st.lines, blocks * warps);
        assert_int_equal(st->global_ld.requests, 0);
        k_free(&t);
    }
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Distinct values of addr/granule over a list. */
static uint64_t distinct(uint64_t *v, size_t n, uint64_t granule)
{
    for (size_t i = 0; i < n; i++) v[i] /= granule;
    qsort(v, n, sizeof v[0], cmp_u64);
    uint64_t d = 0;
    for (size_t i = 0; i < n; i++) d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* coalescingStride(in, out, n, stride): thread i reads in[i*stride] when
 * i < n.  The reference lists each warp's active lanes' addresses and
 * counts distinct sectors and lines by sorting; for n a multiple of 32 it
 * is also the closed form 4*s sectors and s lines per request (s <= 8). */
static void test_coalescing_sweep(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1024, 1000};
    for (int z = 0; z < 2; z++) {
        uint32_t n = sizes[z], threads = 1024;
        for (uint32_t s = 1; s <= 8; s++) {
            kctx t;
            k_load(&t, NULL, "microbench_coalescing.ptx");
            uint64_t in = k_alloc(&t, (size_t)n * s * 4), out = k_alloc(&t, (size_t)n * 4);
            k_p64(&t, in);
            k_p64(&t, out);
            k_p32(&t, n);
            k_p32(&t, s);
            k_run(&t, "_Z16coalescingStridePKfPfii", D3(threads / 256, 1, 1), D3(256, 1, 1));
            uint64_t req = 0, sec = 0, lin = 0, ssec = 0, slin = 0;
            for (uint32_t w = 0; w < threads / 32; w++) {
                uint64_t a[32], b[32], c[32], d[32];
                size_t k = 0;
                for (uint32_t l = 0; l < 32; l++) {
                    uint64_t i = (uint64_t)w * 32 + l;
                    if (i >= n) continue;
                    a[k] = b[k] = in + 4 * i * s;
                    c[k] = d[k] = out + 4 * i;
                    k++;
                }
                if (!k) continue;
                req++;
                sec += distinct(a, k, 32);
                lin += distinct(b, k, 128);
                ssec += distinct(c, k, 32);
                slin += distinct(d, k, 128);
            }
            const ws_launch_stats *st = &t.st;
            assert_int_equal(st->global_ld.requests, req);
            assert_int_equal(st->global_ld.sectors, sec);
            assert_int_equal(st->global_ld.lines, lin);
            assert_int_equal(st->global_st.requests, req);
            assert_int_equal(st->global_st.sectors, ssec);
            assert_int_equal(st->global_st.lines, slin);
            if (n % 32 == 0) {
                assert_int_equal(st->global_ld.sectors, req * 4 * s);
                assert_int_equal(st->global_ld.lines, req * s);
            }
            assert_int_equal(st->shared_ld.requests + st->shared_st.requests, 0);
            k_free(&t);
        }
    }
}

/* matmulTiledTransposedB[Padded] with M = N = K = 32 * tiles; blocks of
 * (32, 32): warp = ty, lane = tx.  Per block and phase (TILE 32):
 *   As[ty][tx] = ..  32 consecutive words: 1 wavefront
 *   BsT[tx][ty] = .. words tx*(32+PAD) + ty: PAD 0 puts every lane in one
 *                    bank (32 wavefronts), PAD 1 in 32 banks (1)
 *   for k < 32: As[ty][k] (one word, broadcast: 1) and BsT[tx][k] (as the
 *                    store: 32 or 1)
 * so per warp a phase stores 1 + (32 | 1) and loads 32 * (1 + (32 | 1))
 * wavefronts.  Global: A and B tile rows are 32 aligned floats (4 sectors,
 * 1 line) per warp and phase; C likewise once per warp. */
static void transposed(uint32_t tiles, int pad)
{
    uint32_t size = 32 * tiles, nblocks = tiles * tiles, phases = tiles, warps = 32;
    kctx t;
    k_load(&t, NULL, "matmul.ptx");
    size_t bytes = (size_t)size * size * 4;
    k_p64(&t, k_alloc(&t, bytes));
    k_p64(&t, k_alloc(&t, bytes));
    k_p64(&t, k_alloc(&t, bytes));
    k_p32(&t, size);
    k_p32(&t, size);
    k_p32(&t, size);
    k_run(&t, pad ? "_Z28matmulTiledTransposedBPaddedPKfS0_Pfiii" : "_Z22matmulTiledTransposedBPKfS0_Pfiii",
          D3(tiles, tiles, 1), D3(32, 32, 1));
    uint64_t bst = pad ? 1 : 32;
    uint64_t wp = (uint64_t)nblocks * phases * warps;      /* warp-phases */
    const ws_launch_stats *st = &t.st;
    assert_int_equal(st->shared_st.requests, wp * 2);
    assert_int_equal(st->shared_st.wavefronts, wp * (1 + bst));
    assert_int_equal(st->shared_st.bank_conflicts, wp * (bst - 1));
    assert_int_equal(st->shared_ld.requests, wp * 64);
    assert_int_equal(st->shared_ld.wavefronts, wp * 32 * (1 + bst));
    assert_int_equal(st->shared_ld.bank_conflicts, wp * 32 * (bst - 1));
    assert_int_equal(st->global_ld.requests, wp * 2);
    assert_int_equal(st->global_ld.sectors, wp * 2 * 4);
    assert_int_equal(st->global_ld.lines, wp * 2);
    assert_int_equal(st->global_st.requests, nblocks * warps);
    assert_int_equal(st->global_st.sectors, nblocks * warps * 4);
    assert_int_equal(st->global_st.lines, nblocks * warps);
    k_free(&t);
}

static void test_transposed_tile(void **state)
{
    (void)state;
    transposed(1, 0);
    transposed(1, 1);
    transposed(2, 0);
    transposed(2, 1);
}

/* Generic addresses, vectors, atomics, constants and an all-off guard in
 * one warp of 32 threads. */
static const char mixed_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".const .align 4 .b8 cdata[64];\n"
    ".visible .entry mixed(.param .u64 p_out)\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<8>;\n"
    "\t.shared .align 16 .b8 sm[4096];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    /* generic load from shared, lane t at word 2t: 2-way */
    "\tmov.u64 %rd1, sm;\n"
    "\tcvta.shared.u64 %rd2, %rd1;\n"
    "\tmul.wide.u32 %rd3, %r1, 8;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n"
    "\tld.f32 %f1, [%rd4];\n"
    /* v4 load, lane t at bytes 16t: 4 wavefronts, no conflict */
    "\tmul.wide.u32 %rd5, %r1, 16;\n"
    "\tadd.s64 %rd6, %rd1, %rd5;\n"
    "\tld.shared.v4.f32 {%f2, %f3, %f4, %f5}, [%rd6];\n"
    /* v2 store of 8 bytes, lane t at bytes 256t: each half 16 lanes on banks 0-1 */
    "\tmul.wide.u32 %rd7, %r1, 256;\n"
    "\tadd.s64 %rd8, %rd1, %rd7;\n"
    "\tand.b64 %rd8, %rd8, 4095;\n"
    "\tst.shared.v2.f32 [%rd8], {%f1, %f2};\n"
    /* atomic on one word: the bank rule sees one word */
    "\tatom.shared.add.u32 %r2, [sm], 1;\n"
    /* no lane passes the guard: no request */
    "\tsetp.gt.u32 %p1, %r1, 100;\n"
    "\t@%p1 st.shared.u32 [sm], %r1;\n"
    /* constant: lane t reads cdata[t % 4]: 4 addresses */
    "\tand.b32 %r3, %r1, 3;\n"
    "\tmul.wide.u32 %rd9, %r3, 4;\n"
    "\tmov.u64 %rd10, cdata;\n"
    "\tadd.s64 %rd11, %rd10, %rd9;\n"
    "\tld.const.u32 %r4, [%rd11];\n"
    /* generic store to global: 128 aligned bytes */
    "\tld.param.u64 %rd12, [p_out];\n"
    "\tmul.wide.u32 %rd13, %r1, 4;\n"
    "\tadd.s64 %rd14, %rd12, %rd13;\n"
    "\tst.u32 [%rd14], %r4;\n"
    /* global atomic, lanes on 2 words 128 bytes apart: 2 sectors, 2 lines */
    "\tand.b32 %r5, %r1, 1;\n"
    "\tmul.wide.u32 %rd15, %r5, 128;\n"
    "\tadd.s64 %rd15, %rd12, %rd15;\n"
    "\tred.global.add.u32 [%rd15], 1;\n"
    "\tret;\n}\n";

static void test_mixed_spaces(void **state)
{
    (void)state;
    kctx t;
    k_load(&t, mixed_ptx, "mixed.ptx");
    k_p64(&t, k_alloc(&t, 256));
    k_run(&t, "mixed", D3(1, 1, 1), D3(32, 1, 1));
    const ws_launch_stats *st = &t.st;
    assert_int_equal(st->shared_ld.requests, 2);
    assert_int_equal(st->shared_ld.wavefronts, 2 + 4);
    assert_int_equal(st->shared_ld.bank_conflicts, 1);
    assert_int_equal(st->shared_st.requests, 1);
    assert_int_equal(st->shared_st.wavefronts, 32);
    assert_int_equal(st->shared_st.bank_conflicts, 30);
    assert_int_equal(st->shared_atom.requests, 1);
    assert_int_equal(st->shared_atom.wavefronts, 1);
    assert_int_equal(st->shared_atom.bank_conflicts, 0);
    assert_int_equal(st->const_requests, 1);
    assert_int_equal(st->const_addresses, 4);
    assert_int_equal(st->global_ld.requests, 0);        /* ld.param and ld.const are not global */
    assert_int_equal(st->global_st.requests, 1);
    assert_int_equal(st->global_st.sectors, 4);
    assert_int_equal(st->global_st.lines, 1);
    assert_int_equal(st->global_atom.requests, 1);
    assert_int_equal(st->global_atom.sectors, 2);
    assert_int_equal(st->global_atom.lines, 2);
    k_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bank_conflict_sweep),
        cmocka_unit_test(test_coalescing_sweep),
        cmocka_unit_test(test_transposed_tile),
        cmocka_unit_test(test_mixed_spaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
