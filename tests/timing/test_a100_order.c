/* The lab variants on the a100 config (kernels/ptx/sm_80, launched as
 * tests/e2e/e2e_kernels.c launches them): the simulated cycles order them
 * as a real GPU does.  Data are all zeros or simple patterns: only the
 * timing is checked here (the e2e tests check the results). */
#include "timing_util.h"

static void load_lab(tctx *t, const char *lab)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/ptx/sm_80/%s.ptx", WARPSIM_SOURCE_DIR, lab);
    ptx_error pe;
    memset(t, 0, sizeof *t);
    t->m = ptx_parse_file(path, &pe);
    if (!t->m) fail_msg("cannot parse %s", path);
    t->mem = ws_devmem_create();
    t->p = ws_program_load(t->m, t->mem, &t->err);
    if (!t->p) fail_msg("load failed: %s", t->err.msg);
}

static ws_gpu_config a100(void)
{
    ws_gpu_config g;
    tt_config(&g, "a100");
    return g;
}

static uint32_t cdiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

static uint64_t matmul(const char *kernel, uint32_t n, uint32_t tile)
{
    tctx t;
    load_lab(&t, "matmul");
    ws_gpu_config g = a100();
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * n * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * n * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * n * 4));
    t_p32(&t, n); t_p32(&t, n); t_p32(&t, n);
    ws_timing_stats ts;
    tt_run(&t, &g, kernel, D3(cdiv(n, tile), cdiv(n, tile), 1), D3(tile, tile, 1), 0, 32, &ts);
    t_free(&t);
    return ts.cycles;
}

static void test_matmul_tiled_beats_naive(void **state)
{
    (void)state;
    uint64_t naive = matmul("_Z11matmulNaivePKfS0_Pfiii", 256, 16);
    uint64_t tiled = matmul("_Z13matmulTiled16PKfS0_Pfiii", 256, 16);
    print_message("matmul 256: naive %llu, tiled16 %llu cycles\n", (unsigned long long)naive,
                  (unsigned long long)tiled);
    assert_true(tiled < naive);
}

static uint64_t transpose(const char *kernel, uint32_t n, ws_timing_stats *ts)
{
    tctx t;
    load_lab(&t, "transpose");
    ws_gpu_config g = a100();
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * n * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * n * 4));
    t_p32(&t, n); t_p32(&t, n);
    tt_run(&t, &g, kernel, D3(cdiv(n, 32), cdiv(n, 32), 1), D3(32, 32, 1), 0, 24, ts);
    t_free(&t);
    return ts->cycles;
}

static void test_transpose_padding(void **state)
{
    (void)state;
    ws_timing_stats a, b;
    uint64_t unpadded = transpose("_Z15transposeSharedPKfPfii", 512, &a);
    uint64_t padded = transpose("_Z21transposeSharedPaddedPKfPfii", 512, &b);
    print_message("transpose 512: shared %llu, padded %llu cycles\n", (unsigned long long)unpadded,
                  (unsigned long long)padded);
    assert_true(padded < unpadded);
    /* the column read of the unpadded tile is 32-way: 32 wavefronts a request */
    assert_true(a.l1_wavefronts > b.l1_wavefronts + 16 * (uint64_t)(512 * 512 / 32));
}

static uint64_t reduction(const char *kernel, uint32_t n)
{
    tctx t;
    load_lab(&t, "reduction");
    ws_gpu_config g = a100();
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)cdiv(n, 256) * 4));
    t_p32(&t, n);
    ws_timing_stats ts;
    tt_run(&t, &g, kernel, D3(cdiv(n, 256), 1, 1), D3(256, 1, 1), 0, 16, &ts);
    t_free(&t);
    return ts.cycles;
}

static void test_reduction_order(void **state)
{
    (void)state;
    enum { N = 1 << 18 };
    uint64_t inter = reduction("_Z17reduceInterleavedPKfPfi", N);
    uint64_t seq = reduction("_Z16reduceSequentialPKfPfi", N);
    uint64_t shfl = reduction("_Z17reduceWarpShufflePKfPfi", N);
    print_message("reduction 2^18: interleaved %llu, sequential %llu, shuffle %llu cycles\n",
                  (unsigned long long)inter, (unsigned long long)seq, (unsigned long long)shfl);
    assert_true(inter > seq);
    assert_true(seq > shfl);
}

static uint64_t histogram(bool privatized, uint32_t n)
{
    tctx t;
    load_lab(&t, "histogram");
    ws_gpu_config g = a100();
    uint8_t *text = malloc(n);
    for (uint32_t i = 0; i < n; i++) text[i] = (uint8_t)('a' + i % 26);
    t_p64(&t, t_alloc(&t, text, n));
    free(text);
    uint32_t bins = 26;
    t_p64(&t, t_alloc(&t, NULL, bins * 4));
    t_p32(&t, n);
    t_p32(&t, 1);
    ws_timing_stats ts;
    uint32_t blocks = cdiv(n, 256);
    if (privatized)
        tt_run(&t, &g, "_Z19histogramPrivatizedPKhPjii", D3(blocks < 216 ? blocks : 216, 1, 1),
               D3(256, 1, 1), bins * 4, 16, &ts);
    else
        tt_run(&t, &g, "_Z15histogramGlobalPKhPjii", D3(blocks, 1, 1), D3(256, 1, 1), 0, 16, &ts);
    t_free(&t);
    return ts.cycles;
}

static void test_histogram_privatized(void **state)
{
    (void)state;
    uint64_t global = histogram(false, 1 << 18), priv = histogram(true, 1 << 18);
    print_message("histogram 2^18: global atomics %llu, privatized %llu cycles\n",
                  (unsigned long long)global, (unsigned long long)priv);
    assert_true(priv < global);
}

static uint64_t coalescing(uint32_t stride, uint32_t n, ws_timing_stats *ts)
{
    tctx t;
    load_lab(&t, "microbench_coalescing");
    ws_gpu_config g = a100();
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * stride * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)n * 4));
    t_p32(&t, n);
    t_p32(&t, stride);
    tt_run(&t, &g, "_Z16coalescingStridePKfPfii", D3(cdiv(n, 256), 1, 1), D3(256, 1, 1), 0, 16, ts);
    t_free(&t);
    return ts->cycles;
}

/* Bandwidth-bound: the DRAM reads follow the load sectors (4 per request
 * at stride 1, 4s up to 32 from stride 8 on; the stores stay in the
 * write-back L2), and the cycles grow in proportion to them. */
static void test_stride_in_proportion_to_sectors(void **state)
{
    (void)state;
    enum { N = 1 << 20 };
    ws_timing_stats ts;
    uint64_t prev = 0;
    double c1 = 0;
    for (uint32_t s = 1; s <= 32; s *= 2) {
        uint64_t c = coalescing(s, N, &ts);
        double sectors = s >= 8 ? 32.0 : 4.0 * s;
        if (s == 1) c1 = (double)c;
        double ratio = (double)c / c1, expect = sectors / 4.0;
        print_message("stride %2u: %llu cycles (x%.2f; sectors x%.2f)\n", s, (unsigned long long)c,
                      ratio, expect);
        assert_true(c >= prev);
        assert_int_equal(ts.dram_bytes_read, (uint64_t)(N / 32) * (uint64_t)sectors * 32);
        if (s <= 8) assert_true(ratio > expect * 0.75 && ratio < expect * 1.1);
        prev = c;
    }
}

static void spmv_csr(bool warp, uint32_t rows, uint32_t len, ws_timing_stats *ts)
{
    tctx t;
    load_lab(&t, "spmv");
    ws_gpu_config g = a100();
    uint32_t nnz = rows * len;
    int32_t *ptr = malloc((rows + 1) * sizeof *ptr), *col = malloc(nnz * sizeof *col);
    for (uint32_t i = 0; i <= rows; i++) ptr[i] = (int32_t)(i * len);
    for (uint32_t j = 0; j < nnz; j++) col[j] = (int32_t)((j * 7) % rows);
    t_p32(&t, rows);
    t_p64(&t, t_alloc(&t, ptr, (rows + 1) * sizeof *ptr));
    t_p64(&t, t_alloc(&t, col, nnz * sizeof *col));
    t_p64(&t, t_alloc(&t, NULL, (size_t)nnz * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)rows * 4));
    t_p64(&t, t_alloc(&t, NULL, (size_t)rows * 4));
    free(ptr);
    free(col);
    if (warp)
        tt_run(&t, &g, "_Z11spmvCsrWarpiPKiS0_PKfS2_Pf", D3(cdiv(rows * 32, 128), 1, 1), D3(128, 1, 1), 0, 32, ts);
    else
        tt_run(&t, &g, "_Z13spmvCsrScalariPKiS0_PKfS2_Pf", D3(cdiv(rows, 128), 1, 1), D3(128, 1, 1), 0, 32, ts);
    t_free(&t);
}

static void test_spmv_warp_per_row_on_long_rows(void **state)
{
    (void)state;
    ws_timing_stats scalar, warp;
    spmv_csr(false, 4096, 256, &scalar);
    spmv_csr(true, 4096, 256, &warp);
    print_message("spmv 4096 rows x 256: scalar %llu, warp per row %llu cycles\n",
                  (unsigned long long)scalar.cycles, (unsigned long long)warp.cycles);
    assert_true(warp.cycles < scalar.cycles);
    /* the scalar kernel's lanes walk rows 1 KB apart: a sector per lane for
     * the column indices and values, where a warp on one row reads 4 */
    print_message("L1 sectors: scalar %llu, warp %llu\n", (unsigned long long)scalar.l1_sectors,
                  (unsigned long long)warp.l1_sectors);
    assert_true(scalar.l1_sectors > 2 * warp.l1_sectors);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matmul_tiled_beats_naive),
        cmocka_unit_test(test_transpose_padding),
        cmocka_unit_test(test_reduction_order),
        cmocka_unit_test(test_histogram_privatized),
        cmocka_unit_test(test_stride_in_proportion_to_sectors),
        cmocka_unit_test(test_spmv_warp_per_row_on_long_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
