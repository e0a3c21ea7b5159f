/* The course labs' kernels (kernels/ptx/sm_80) with inputs of the
 * timing tests that compare two ways of running them: a tiled matrix
 * multiply, a CSR sparse matrix-vector product whose rows hold 0 to 40
 * entries in scattered columns, and a text for a global-atomic
 * histogram; and the first line where two texts part. */
#ifndef WARPSIM_TEST_LAB_INPUTS_H
#define WARPSIM_TEST_LAB_INPUTS_H

#include "timing_util.h"

static inline void lab_load(tctx *t, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/kernels/ptx/sm_80/%s", WARPSIM_SOURCE_DIR, file);
    t_load_path(t, path);
}

static inline uint64_t lab_lcg(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return *seed >> 33;
}

#define LAB_MATMUL_TILED "_Z13matmulTiled16PKfS0_Pfiii"

/* matmul.ptx into t and matmulTiled16's parameters for n x n matrices:
 * its input A a_elems floats long, its output c_elems. */
static inline void lab_matmul(tctx *t, int n, uint32_t a_elems, uint32_t c_elems)
{
    lab_load(t, "matmul.ptx");
    float *a = malloc(sizeof *a * (size_t)(n * n));
    assert_non_null(a);
    for (int i = 0; i < n * n; i++) a[i] = (float)(i % 7) - 3.0f;
    uint64_t da = t_alloc(t, a, sizeof *a * a_elems), db = t_alloc(t, a, sizeof *a * (size_t)(n * n));
    uint64_t dc = t_alloc(t, NULL, sizeof *a * c_elems);
    free(a);
    t_p64(t, da);
    t_p64(t, db);
    t_p64(t, dc);
    t_p32(t, n);
    t_p32(t, n);
    t_p32(t, n);
}

#define LAB_SPMV_SCALAR "_Z13spmvCsrScalariPKiS0_PKfS2_Pf"
#define LAB_SPMV_WARP "_Z11spmvCsrWarpiPKiS0_PKfS2_Pf"

/* spmv.ptx into t and the CSR kernels' parameters: rows x cols, entries
 * from seed. */
static inline void lab_csr(tctx *t, int32_t rows, int32_t cols, uint64_t seed)
{
    lab_load(t, "spmv.ptx");
    int32_t *row = malloc(sizeof *row * (size_t)(rows + 1));
    assert_non_null(row);
    row[0] = 0;
    for (int32_t i = 0; i < rows; i++) row[i + 1] = row[i] + (int32_t)(lab_lcg(&seed) % 41);
    int32_t nnz = row[rows], *col = malloc(sizeof *col * (size_t)(nnz ? nnz : 1));
    float *val = malloc(sizeof *val * (size_t)(nnz ? nnz : 1)), *x = malloc(sizeof *x * (size_t)cols);
    assert_non_null(col);
    assert_non_null(val);
    assert_non_null(x);
    for (int32_t j = 0; j < nnz; j++) {
        col[j] = (int32_t)(lab_lcg(&seed) % (uint64_t)cols);
        val[j] = (float)(lab_lcg(&seed) % 9) - 4.0f;
    }
    for (int32_t i = 0; i < cols; i++) x[i] = (float)(i % 5);
    t_p32(t, (uint32_t)rows);
    t_p64(t, t_alloc(t, row, sizeof *row * (size_t)(rows + 1)));
    t_p64(t, t_alloc(t, col, sizeof *col * (size_t)nnz));
    t_p64(t, t_alloc(t, val, sizeof *val * (size_t)nnz));
    t_p64(t, t_alloc(t, x, sizeof *x * (size_t)cols));
    t_p64(t, t_alloc(t, NULL, sizeof(float) * (size_t)rows));
    free(row);
    free(col);
    free(val);
    free(x);
}

#define LAB_HISTOGRAM_GLOBAL "_Z15histogramGlobalPKhPjii"

/* histogram.ptx into t and histogramGlobal's parameters over n characters
 * (letters and spaces from seed) into seven bins, which lie at the address
 * returned (for the caller to zero before each run). */
static inline uint64_t lab_histogram(tctx *t, uint32_t n, uint64_t seed)
{
    lab_load(t, "histogram.ptx");
    unsigned char *text = malloc(n);
    assert_non_null(text);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = (uint32_t)(lab_lcg(&seed) % 40);
        text[i] = (unsigned char)(r < 26 ? 'a' + r : ' ');
    }
    uint64_t bins = t_alloc(t, NULL, 7 * sizeof(uint32_t));
    t_p64(t, t_alloc(t, text, n));
    t_p64(t, bins);
    t_p32(t, n);
    t_p32(t, 4);
    free(text);
    return bins;
}

/* Zeroes the seven bins at *(uint64_t *)bins (lab_histogram's), as the
 * reset of a test's runs. */
static inline void lab_zero_bins(tctx *t, void *bins)
{
    uint32_t zero[7] = {0};
    assert_true(ws_devmem_write(t->mem, *(const uint64_t *)bins, zero, sizeof zero));
}

/* Fails unless text b (blen bytes) is text a: with the first line where
 * they part, a named ref and b what. */
static inline void lab_same_text(const char *a, size_t alen, const char *b, size_t blen, const char *ref,
                                 const char *what)
{
    if (alen == blen && memcmp(a, b, alen) == 0) return;
    size_t line = 1, start = 0;
    for (size_t i = 0; i < alen && i < blen && a[i] == b[i]; i++)
        if (a[i] == '\n') {
            line++;
            start = i + 1;
        }
    fail_msg("%s: differs from %s at line %zu:\n  %s: %.300s\n  %s: %.300s", what, ref, line, ref, a + start, what,
             b + start);
}

#endif
