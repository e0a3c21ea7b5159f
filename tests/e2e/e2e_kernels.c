/* End-to-end tests: every kernel of kernels/ through `warpsim run`.
 *
 * For each case (one row of the table at the bottom) the driver writes the
 * inputs as raw little-endian files into a temporary directory, runs
 *
 *     warpsim run LAB.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z [--smem N]
 *                 --arg SPEC ... --dump I=PATH ...
 *
 * as a subprocess, reads the dumped buffers back and compares them with a
 * reference computed here on the CPU.  Comparisons are bit-exact where the
 * GPU's result is exactly defined: integer kernels, copies, and float kernels
 * whose per-element operation order is a plain loop (the reference then uses
 * fmaf where nvcc contracts `sum += a * b` into fma.rn.f32, and mirrors the
 * kernel's tree or shuffle order where it has one).  "Bit-exact" for floats
 * means equal bits, except that +0 and -0 compare equal: a tiled kernel adds
 * the zero padding of its last tile (sum + 0*0), which can turn a -0 into +0
 * and nothing else.  A tolerance is used only where the order of a float sum
 * is not defined (atomicAdd of per-block partials); each such case states it.
 *
 *     e2e_kernels --warpsim PATH --ptx-dir DIR --lab LAB [--kernel NAME]
 *                 [--size N] [--timeout SECONDS] [--keep] [--list]
 *
 * Exit status 0 when every case of the lab passes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- buffers, arguments and one launch ---------------------------------- */

typedef enum { T_I8, T_U8, T_I32, T_U32, T_I64, T_U64, T_F32, T_F64 } elem_type;

static const char *const type_name[] = {"i8", "u8", "i32", "u32", "i64", "u64", "f32", "f64"};
static const size_t type_size[] = {1, 1, 4, 4, 8, 8, 4, 8};

enum { CHECK_NONE, CHECK_EXACT, CHECK_CLOSE };

typedef struct arg {
    char spec[4200];        /* what follows --arg */
    int is_buffer;
    elem_type type;
    size_t count;
    int check;              /* CHECK_*: dump this buffer and compare it */
    const void *expect;     /* count elements of type */
    double tol;             /* CHECK_CLOSE: |got - expect| <= tol */
} arg;

#define MAX_ARGS 16
#define MAX_ALLOCS 64

typedef struct launch {
    const char *dir;        /* temporary directory */
    int case_no;
    unsigned grid[3], block[3];
    unsigned smem;
    int nargs;
    arg args[MAX_ARGS];
    void *allocs[MAX_ALLOCS];
    int nallocs;
    int bad;                /* the case itself is malformed */
} launch;

static void *xalloc(launch *L, size_t bytes)
{
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p) {
        fprintf(stderr, "e2e: out of memory\n");
        exit(2);
    }
    if (L->nallocs == MAX_ALLOCS) {
        fprintf(stderr, "e2e: too many allocations in one case\n");
        exit(2);
    }
    L->allocs[L->nallocs++] = p;
    return p;
}

#define NEW(L, T, n) ((T *)xalloc((L), sizeof(T) * (size_t)(n)))

static void set_grid(launch *L, unsigned x, unsigned y, unsigned z)
{
    L->grid[0] = x; L->grid[1] = y; L->grid[2] = z;
}

static void set_block(launch *L, unsigned x, unsigned y, unsigned z)
{
    L->block[0] = x; L->block[1] = y; L->block[2] = z;
}

static unsigned cdiv(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

static arg *new_arg(launch *L)
{
    if (L->nargs == MAX_ARGS) {
        fprintf(stderr, "e2e: too many arguments in one case\n");
        exit(2);
    }
    arg *a = &L->args[L->nargs++];
    memset(a, 0, sizeof *a);
    return a;
}

static void arg_i32(launch *L, int32_t v)
{
    snprintf(new_arg(L)->spec, sizeof(((arg *)0)->spec), "i32:%d", (int)v);
}

/* A buffer initialised from a file of the host data; returns its index. */
static int arg_in(launch *L, elem_type t, const void *data, size_t count)
{
    int idx = L->nargs;
    arg *a = new_arg(L);
    char path[4096];
    snprintf(path, sizeof path, "%s/c%d_a%d.bin", L->dir, L->case_no, idx);
    FILE *f = fopen(path, "wb");
    if (!f || (count && fwrite(data, type_size[t], count, f) != count) || fclose(f) != 0) {
        fprintf(stderr, "e2e: cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
    a->is_buffer = 1;
    a->type = t;
    a->count = count;
    snprintf(a->spec, sizeof a->spec, "buf:%s:%zu:file=%s", type_name[t], count, path);
    return idx;
}

/* A zero-initialised buffer; returns its index. */
static int arg_zero(launch *L, elem_type t, size_t count)
{
    int idx = L->nargs;
    arg *a = new_arg(L);
    a->is_buffer = 1;
    a->type = t;
    a->count = count;
    snprintf(a->spec, sizeof a->spec, "buf:%s:%zu:zero", type_name[t], count);
    return idx;
}

static void expect_exact(launch *L, int idx, const void *ref)
{
    if (idx < 0 || idx >= L->nargs || !L->args[idx].is_buffer) {
        L->bad = 1;
        return;
    }
    L->args[idx].check = CHECK_EXACT;
    L->args[idx].expect = ref;
}

static void expect_close(launch *L, int idx, const float *ref, double tol)
{
    if (idx < 0 || idx >= L->nargs || L->args[idx].type != T_F32) {
        L->bad = 1;
        return;
    }
    L->args[idx].check = CHECK_CLOSE;
    L->args[idx].expect = ref;
    L->args[idx].tol = tol;
}

/* ---- deterministic input ------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t rng_next(rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}

/* Uniform in [-1, 1), 24 random bits. */
static float rng_float(rng *r)
{
    return (float)(rng_next(r) >> 7) / 8388608.0f - 1.0f;
}

static float *rand_floats(launch *L, size_t n, uint64_t seed)
{
    rng r = {seed * 0x9E3779B97F4A7C15ull + 1};
    float *p = NEW(L, float, n);
    for (size_t i = 0; i < n; i++)
        p[i] = rng_float(&r);
    return p;
}

/* ---- helpers for references ---------------------------------------------- */

/* What __shfl_down_sync(full mask, v, offset) does for offsets 16, 8, 4, 2, 1
 * followed by v += ...; returns lane 0's value.  A lane whose source lane is
 * past 31 gets its own value back. */
static float warp_reduce_down(const float lanes[32])
{
    float v[32], nv[32];
    memcpy(v, lanes, sizeof v);
    for (int off = 16; off > 0; off /= 2) {
        for (int l = 0; l < 32; l++)
            nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
        memcpy(v, nv, sizeof v);
    }
    return v[0];
}

/* ---- the labs: one function per kernel; each sets up one launch ---------- */

/* vector_add: vecAdd, vecAddGridStride, vecAddCoarsened(a, b, c, n) */
static void vector_add_common(launch *L, int n)
{
    float *a = rand_floats(L, n, 1), *b = rand_floats(L, n, 2);
    float *c = NEW(L, float, n);
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    arg_in(L, T_F32, a, n);
    arg_in(L, T_F32, b, n);
    expect_exact(L, arg_zero(L, T_F32, n), c);
    arg_i32(L, n);
}

static void case_vecAdd(launch *L, int n)
{
    set_grid(L, cdiv(n, 256), 1, 1);
    set_block(L, 256, 1, 1);
    vector_add_common(L, n);
}

static void case_vecAddGridStride(launch *L, int n)
{
    unsigned g = cdiv(n, 128);
    set_grid(L, g < 3 ? g : 3, 1, 1);   /* few blocks: the loop strides */
    set_block(L, 128, 1, 1);
    vector_add_common(L, n);
}

static void case_vecAddCoarsened(launch *L, int n)
{
    set_grid(L, cdiv(n, 256 * 4), 1, 1);   /* COARSEN 4 */
    set_block(L, 256, 1, 1);
    vector_add_common(L, n);
}

/* matrix_add: matAdd2D(A, B, C, rows, cols); size s -> s x (s + 3) */
static void case_matAdd2D(launch *L, int s)
{
    int rows = s, cols = s + 3, n = rows * cols;
    float *a = rand_floats(L, n, 3), *b = rand_floats(L, n, 4), *c = NEW(L, float, n);
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    set_grid(L, cdiv(cols, 16), cdiv(rows, 16), 1);
    set_block(L, 16, 16, 1);
    arg_in(L, T_F32, a, n);
    arg_in(L, T_F32, b, n);
    expect_exact(L, arg_zero(L, T_F32, n), c);
    arg_i32(L, rows);
    arg_i32(L, cols);
}

/* matmul: all five kernels (A, B, C, M, N, K); size s -> M = s, N = s + 1,
 * K = s + 2.  Every variant sums k in ascending order (the tiled ones tile by
 * tile, adding 0 * 0 for the padding), with one fma per term: bit-exact. */
static void matmul_reference(const float *a, const float *b, float *c, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum = fmaf(a[i * K + k], b[k * N + j], sum);
            c[i * N + j] = sum;
        }
}

static void matmul_common(launch *L, int s, unsigned block)
{
    int M = s, N = s + 1, K = s + 2;
    float *a = rand_floats(L, (size_t)M * K, 5), *b = rand_floats(L, (size_t)K * N, 6);
    float *c = NEW(L, float, (size_t)M * N);
    matmul_reference(a, b, c, M, N, K);
    set_grid(L, cdiv(N, block), cdiv(M, block), 1);
    set_block(L, block, block, 1);
    arg_in(L, T_F32, a, (size_t)M * K);
    arg_in(L, T_F32, b, (size_t)K * N);
    expect_exact(L, arg_zero(L, T_F32, (size_t)M * N), c);
    arg_i32(L, M);
    arg_i32(L, N);
    arg_i32(L, K);
}

static void case_matmul16(launch *L, int s) { matmul_common(L, s, 16); }
static void case_matmul32(launch *L, int s) { matmul_common(L, s, 32); }

/* transpose: all three (in, out, rows, cols); size s -> s x (s + 3) */
static void case_transpose(launch *L, int s)
{
    int rows = s, cols = s + 3;
    float *in = rand_floats(L, (size_t)rows * cols, 7), *out = NEW(L, float, (size_t)rows * cols);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[c * rows + r] = in[r * cols + c];
    set_grid(L, cdiv(cols, 32), cdiv(rows, 32), 1);
    set_block(L, 32, 32, 1);
    arg_in(L, T_F32, in, (size_t)rows * cols);
    expect_exact(L, arg_zero(L, T_F32, (size_t)rows * cols), out);
    arg_i32(L, rows);
    arg_i32(L, cols);
}

/* convolution: the kernels see the default masks of kernels/convolution.cu
 * (the initializers of c_mask1, c_mask2, c_mask3); keep these equal to them. */
static const float conv_mask1[7] = {0.1f, -0.2f, 0.3f, 0.4f, 0.3f, -0.2f, 0.1f};
static const float conv_mask2[25] = {
    -0.5f, 0.125f, -0.375f, 0.25f, -0.25f, 0.375f, -0.125f, 0.5f, 0.0f, -0.5f,
    0.125f, -0.375f, 0.25f, -0.25f, 0.375f, -0.125f, 0.5f, 0.0f, -0.5f, 0.125f,
    -0.375f, 0.25f, -0.25f, 0.375f, -0.125f};
static const float conv_mask3[27] = {
    -0.3125f, 0.125f, -0.125f, 0.3125f, 0.0625f, -0.1875f, 0.25f, 0.0f, -0.25f,
    0.1875f, -0.0625f, -0.3125f, 0.125f, -0.125f, 0.3125f, 0.0625f, -0.1875f, 0.25f,
    0.0f, -0.25f, 0.1875f, -0.0625f, -0.3125f, 0.125f, -0.125f, 0.3125f, 0.0625f};

/* d x h x w volume, mask (2r+1)^dims, ghost cells skipped (the tiled kernels
 * add mask * 0 for them, which changes nothing but the sign of a zero).  The
 * mask is walked z, y, x in ascending order, one fma per tap: bit-exact. */
static void conv_reference(const float *in, const float *mask, float *out, int d, int h, int w, int r,
                           int dims)
{
    int rz = dims == 3 ? r : 0, ry = dims >= 2 ? r : 0;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float sum = 0.0f;
                int mi = 0;
                for (int mz = -rz; mz <= rz; mz++)
                    for (int my = -ry; my <= ry; my++)
                        for (int mx = -r; mx <= r; mx++, mi++) {
                            int zz = z + mz, yy = y + my, xx = x + mx;
                            if (zz >= 0 && zz < d && yy >= 0 && yy < h && xx >= 0 && xx < w)
                                sum = fmaf(mask[mi], in[((size_t)zz * h + yy) * w + xx], sum);
                        }
                out[((size_t)z * h + y) * w + x] = sum;
            }
}

static void conv_common(launch *L, int d, int h, int w, int dims)
{
    size_t n = (size_t)d * h * w;
    float *in = rand_floats(L, n, 8), *out = NEW(L, float, n);
    const float *mask = dims == 1 ? conv_mask1 : dims == 2 ? conv_mask2 : conv_mask3;
    int r = dims == 1 ? 3 : dims == 2 ? 2 : 1;
    conv_reference(in, mask, out, d, h, w, r, dims);
    arg_in(L, T_F32, in, n);
    expect_exact(L, arg_zero(L, T_F32, n), out);
    if (dims == 3)
        arg_i32(L, d);
    if (dims >= 2)
        arg_i32(L, h);
    arg_i32(L, w);
}

static void case_conv1dNaive(launch *L, int n)
{
    set_grid(L, cdiv(n, 256), 1, 1);
    set_block(L, 256, 1, 1);
    conv_common(L, 1, 1, n, 1);
}

static void case_conv1dTiled(launch *L, int n)
{
    set_grid(L, cdiv(n, 128 - 6), 1, 1);   /* IN_TILE1 128, radius 3 */
    set_block(L, 128, 1, 1);
    conv_common(L, 1, 1, n, 1);
}

/* 2D: size s -> height s, width s + 2 */
static void case_conv2dNaive(launch *L, int s)
{
    set_grid(L, cdiv(s + 2, 16), cdiv(s, 16), 1);
    set_block(L, 16, 16, 1);
    conv_common(L, 1, s, s + 2, 2);
}

static void case_conv2dTiled(launch *L, int s)
{
    set_grid(L, cdiv(s + 2, 12), cdiv(s, 12), 1);   /* IN_TILE2 16, radius 2 */
    set_block(L, 16, 16, 1);
    conv_common(L, 1, s, s + 2, 2);
}

/* 3D: size s -> depth s, height s + 1, width s + 2 */
static void case_conv3dNaive(launch *L, int s)
{
    set_grid(L, cdiv(s + 2, 8), cdiv(s + 1, 8), cdiv(s, 8));
    set_block(L, 8, 8, 8);
    conv_common(L, s, s + 1, s + 2, 3);
}

static void case_conv3dTiled(launch *L, int s)
{
    set_grid(L, cdiv(s + 2, 6), cdiv(s + 1, 6), cdiv(s, 6));   /* IN_TILE3 8, radius 1 */
    set_block(L, 8, 8, 8);
    conv_common(L, s, s + 1, s + 2, 3);
}

/* reduction: (in, partial, n), blockDim 256, one partial sum per block. */
enum { RED_BLOCK = 256 };

static void block_values(const float *in, int n, int b, float *s)
{
    for (int t = 0; t < RED_BLOCK; t++) {
        int i = b * RED_BLOCK + t;
        s[t] = i < n ? in[i] : 0.0f;
    }
}

static float red_interleaved(float *s)
{
    for (int stride = 1; stride < RED_BLOCK; stride *= 2)
        for (int t = 0; t < RED_BLOCK; t += 2 * stride)
            s[t] += s[t + stride];
    return s[0];
}

static float red_sequential(float *s)
{
    for (int stride = RED_BLOCK / 2; stride >= 1; stride /= 2)
        for (int t = 0; t < stride; t++)
            s[t] += s[t + stride];
    return s[0];
}

static float red_shuffle(float *s)
{
    float sums[32] = {0};
    for (int w = 0; w < RED_BLOCK / 32; w++)
        sums[w] = warp_reduce_down(s + 32 * w);
    return warp_reduce_down(sums);
}

static void reduction_common(launch *L, int n, float (*tree)(float *))
{
    unsigned blocks = cdiv(n, RED_BLOCK);
    float *in = rand_floats(L, n, 9), *partial = NEW(L, float, blocks);
    float s[RED_BLOCK];
    for (unsigned b = 0; b < blocks; b++) {
        block_values(in, n, b, s);
        partial[b] = tree(s);
    }
    set_grid(L, blocks, 1, 1);
    set_block(L, RED_BLOCK, 1, 1);
    arg_in(L, T_F32, in, n);
    expect_exact(L, arg_zero(L, T_F32, blocks), partial);
    arg_i32(L, n);
}

static void case_reduceInterleaved(launch *L, int n) { reduction_common(L, n, red_interleaved); }
static void case_reduceSequential(launch *L, int n) { reduction_common(L, n, red_sequential); }
static void case_reduceWarpShuffle(launch *L, int n) { reduction_common(L, n, red_shuffle); }

/* reduceAtomic(in, total, n): 2 * 256 elements per block, atomicAdd of the
 * block sums into *total in an undefined order.  Tolerance: 1e-5 * sum |x|. */
static void case_reduceAtomic(launch *L, int n)
{
    unsigned blocks = cdiv(n, 2 * RED_BLOCK);
    float *in = rand_floats(L, n, 10), *total = NEW(L, float, 1);
    double abs_sum = 0.0, sum = 0.0;
    for (int i = 0; i < n; i++) {
        sum += in[i];
        abs_sum += fabs(in[i]);
    }
    total[0] = (float)sum;
    set_grid(L, blocks, 1, 1);
    set_block(L, RED_BLOCK, 1, 1);
    arg_in(L, T_F32, in, n);
    expect_close(L, arg_zero(L, T_F32, 1), total, 1e-5 * abs_sum + 1e-6);
    arg_i32(L, n);
}

/* scan (int32, exact).  Values are small; the reference wraps like the GPU. */
enum { SECTION = 256 };

static int32_t *rand_ints(launch *L, size_t n, uint64_t seed, int lo, int hi)
{
    rng r = {seed * 0x9E3779B97F4A7C15ull + 7};
    int32_t *p = NEW(L, int32_t, n);
    for (size_t i = 0; i < n; i++)
        p[i] = lo + (int32_t)(rng_next(&r) % (uint32_t)(hi - lo + 1));
    return p;
}

/* Inclusive scan restarting every `section` elements; totals[b] = sum of
 * section b (its padding counts as 0). */
static void scan_sections(const int32_t *in, int32_t *out, int32_t *totals, int n, int section)
{
    uint32_t run = 0;
    for (int i = 0; i < n; i++) {
        if (i % section == 0)
            run = 0;
        run += (uint32_t)in[i];
        out[i] = (int32_t)run;
        if (i % section == section - 1 || i == n - 1)
            totals[i / section] = (int32_t)run;
    }
}

static void scan_common(launch *L, int n, int section)
{
    unsigned blocks = cdiv(n, section);
    int32_t *in = rand_ints(L, n, 11, -1000, 1000);
    int32_t *out = NEW(L, int32_t, n), *totals = NEW(L, int32_t, blocks);
    scan_sections(in, out, totals, n, section);
    set_grid(L, blocks, 1, 1);
    set_block(L, SECTION, 1, 1);
    arg_in(L, T_I32, in, n);
    expect_exact(L, arg_zero(L, T_I32, n), out);
    expect_exact(L, arg_zero(L, T_I32, blocks), totals);
    arg_i32(L, n);
}

static void case_scanKoggeStone(launch *L, int n) { scan_common(L, n, SECTION); }
static void case_scanBrentKung(launch *L, int n) { scan_common(L, n, 2 * SECTION); }

/* scanBlockSums(sums, count): one block scans count sums in place. */
static void case_scanBlockSums(launch *L, int count)
{
    int32_t *sums = rand_ints(L, count, 12, -100000, 100000);
    int32_t *out = NEW(L, int32_t, count), *totals = NEW(L, int32_t, 1);
    scan_sections(sums, out, totals, count, count);
    set_grid(L, 1, 1, 1);
    set_block(L, SECTION, 1, 1);
    expect_exact(L, arg_in(L, T_I32, sums, count), out);
    arg_i32(L, count);
}

/* addBlockSums(out, scannedSums, n): block b > 0 adds scannedSums[b - 1]. */
static void case_addBlockSums(launch *L, int n)
{
    unsigned blocks = cdiv(n, SECTION);
    int32_t *out = rand_ints(L, n, 13, -100000, 100000);
    int32_t *sums = rand_ints(L, blocks, 14, -100000, 100000);
    int32_t *expect = NEW(L, int32_t, n);
    for (int i = 0; i < n; i++)
        expect[i] = (int32_t)((uint32_t)out[i] + (i >= SECTION ? (uint32_t)sums[i / SECTION - 1] : 0u));
    set_grid(L, blocks, 1, 1);
    set_block(L, SECTION, 1, 1);
    expect_exact(L, arg_in(L, T_I32, out, n), expect);
    arg_in(L, T_I32, sums, blocks);
    arg_i32(L, n);
}

/* histogram: (data, histo, n, binWidth); text of letters, spaces and digits. */
static void histogram_common(launch *L, int n, int privatized)
{
    int bin_width = n % 7 + 1;
    int bins = (26 + bin_width - 1) / bin_width;
    rng r = {(uint64_t)n * 31 + 15};
    uint8_t *text = NEW(L, uint8_t, n);
    uint32_t *histo = NEW(L, uint32_t, bins);
    for (int i = 0; i < n; i++) {
        uint32_t v = rng_next(&r) % 45;
        text[i] = (uint8_t)(v < 26 ? 'a' + v : v < 36 ? '0' + (v - 26) : v < 44 ? ' ' : 'z' + 1);
        if (text[i] >= 'a' && text[i] <= 'z')
            histo[(text[i] - 'a') / bin_width]++;
    }
    unsigned blocks = cdiv(n, 256);
    if (privatized) {
        set_grid(L, blocks < 4 ? blocks : 4, 1, 1);
        L->smem = (unsigned)bins * 4;
    } else {
        set_grid(L, blocks, 1, 1);
    }
    set_block(L, 256, 1, 1);
    arg_in(L, T_U8, text, n);
    expect_exact(L, arg_zero(L, T_U32, bins), histo);
    arg_i32(L, n);
    arg_i32(L, bin_width);
}

static void case_histogramGlobal(launch *L, int n) { histogram_common(L, n, 0); }
static void case_histogramPrivatized(launch *L, int n) { histogram_common(L, n, 1); }

/* spmv: a random rows x rows CSR matrix (empty rows, short rows, and some
 * rows longer than a warp), and its ELL and JDS forms. */
typedef struct csr {
    int rows, nnz, max_nnz;
    int32_t *row_ptr, *col;
    float *val, *x;
} csr;

static csr make_csr(launch *L, int rows)
{
    csr m;
    rng r = {(uint64_t)rows * 977 + 3};
    m.rows = rows;
    m.row_ptr = NEW(L, int32_t, rows + 1);
    m.max_nnz = 0;
    for (int i = 0; i < rows; i++) {
        int len = rng_next(&r) % 8 == 0 ? (int)(rng_next(&r) % 80) : (int)(rng_next(&r) % 6);
        m.row_ptr[i + 1] = m.row_ptr[i] + len;
        if (len > m.max_nnz)
            m.max_nnz = len;
    }
    m.nnz = m.row_ptr[rows];
    m.col = NEW(L, int32_t, m.nnz + 1);
    m.val = NEW(L, float, m.nnz + 1);
    for (int j = 0; j < m.nnz; j++) {
        m.col[j] = (int32_t)(rng_next(&r) % (uint32_t)rows);
        m.val[j] = rng_float(&r);
    }
    m.x = rand_floats(L, rows, 15);
    return m;
}

/* y[row] = sum over the row in CSR order, one fma per entry: bit-exact for
 * the scalar CSR, ELL (padding adds 0 * x[0]) and JDS kernels. */
static float *csr_reference(launch *L, const csr *m)
{
    float *y = NEW(L, float, m->rows);
    for (int i = 0; i < m->rows; i++) {
        float sum = 0.0f;
        for (int j = m->row_ptr[i]; j < m->row_ptr[i + 1]; j++)
            sum = fmaf(m->val[j], m->x[m->col[j]], sum);
        y[i] = sum;
    }
    return y;
}

static void spmv_csr_args(launch *L, const csr *m)
{
    arg_i32(L, m->rows);
    arg_in(L, T_I32, m->row_ptr, m->rows + 1);
    arg_in(L, T_I32, m->col, m->nnz ? m->nnz : 1);
    arg_in(L, T_F32, m->val, m->nnz ? m->nnz : 1);
    arg_in(L, T_F32, m->x, m->rows);
}

static void case_spmvCsrScalar(launch *L, int rows)
{
    csr m = make_csr(L, rows);
    set_grid(L, cdiv(rows, 128), 1, 1);
    set_block(L, 128, 1, 1);
    spmv_csr_args(L, &m);
    expect_exact(L, arg_zero(L, T_F32, rows), csr_reference(L, &m));
}

/* One warp per row: lane l sums entries l, l + 32, ... with fma, then the
 * shuffle tree; the reference follows the same order: bit-exact. */
static void case_spmvCsrWarp(launch *L, int rows)
{
    csr m = make_csr(L, rows);
    float *y = NEW(L, float, rows);
    for (int i = 0; i < rows; i++) {
        float lanes[32];
        for (int l = 0; l < 32; l++) {
            float sum = 0.0f;
            for (int j = m.row_ptr[i] + l; j < m.row_ptr[i + 1]; j += 32)
                sum = fmaf(m.val[j], m.x[m.col[j]], sum);
            lanes[l] = sum;
        }
        y[i] = warp_reduce_down(lanes);
    }
    set_grid(L, cdiv(rows * 32, 128), 1, 1);
    set_block(L, 128, 1, 1);
    spmv_csr_args(L, &m);
    expect_exact(L, arg_zero(L, T_F32, rows), y);
}

/* spmvEll(numRows, maxNnz, colIdx, val, x, y), column-major, padded. */
static void case_spmvEll(launch *L, int rows)
{
    csr m = make_csr(L, rows);
    size_t count = (size_t)m.max_nnz * rows;
    int32_t *col = NEW(L, int32_t, count + 1);
    float *val = NEW(L, float, count + 1);
    for (int i = 0; i < rows; i++)
        for (int j = m.row_ptr[i]; j < m.row_ptr[i + 1]; j++) {
            col[(size_t)(j - m.row_ptr[i]) * rows + i] = m.col[j];
            val[(size_t)(j - m.row_ptr[i]) * rows + i] = m.val[j];
        }
    set_grid(L, cdiv(rows, 128), 1, 1);
    set_block(L, 128, 1, 1);
    arg_i32(L, rows);
    arg_i32(L, m.max_nnz);
    arg_in(L, T_I32, col, count ? count : 1);
    arg_in(L, T_F32, val, count ? count : 1);
    arg_in(L, T_F32, m.x, rows);
    expect_exact(L, arg_zero(L, T_F32, rows), csr_reference(L, &m));
}

/* spmvJds(numRows, numDiags, perm, jdPtr, colIdx, val, x, y) */
static void case_spmvJds(launch *L, int rows)
{
    csr m = make_csr(L, rows);
    int32_t *perm = NEW(L, int32_t, rows), *jd_ptr = NEW(L, int32_t, m.max_nnz + 1);
    int32_t *col = NEW(L, int32_t, m.nnz + 1);
    float *val = NEW(L, float, m.nnz + 1);
    int k = 0;
    for (int len = m.max_nnz; len >= 0; len--)   /* stable sort by decreasing length */
        for (int i = 0; i < rows; i++)
            if (m.row_ptr[i + 1] - m.row_ptr[i] == len)
                perm[k++] = i;
    k = 0;
    for (int d = 0; d < m.max_nnz; d++) {
        jd_ptr[d] = k;
        for (int r = 0; r < rows && m.row_ptr[perm[r] + 1] - m.row_ptr[perm[r]] > d; r++) {
            col[k] = m.col[m.row_ptr[perm[r]] + d];
            val[k] = m.val[m.row_ptr[perm[r]] + d];
            k++;
        }
    }
    jd_ptr[m.max_nnz] = k;
    set_grid(L, cdiv(rows, 128), 1, 1);
    set_block(L, 128, 1, 1);
    arg_i32(L, rows);
    arg_i32(L, m.max_nnz);
    arg_in(L, T_I32, perm, rows);
    arg_in(L, T_I32, jd_ptr, m.max_nnz + 1);
    arg_in(L, T_I32, col, m.nnz ? m.nnz : 1);
    arg_in(L, T_F32, val, m.nnz ? m.nnz : 1);
    arg_in(L, T_F32, m.x, rows);
    expect_exact(L, arg_zero(L, T_F32, rows), csr_reference(L, &m));
}

/* wmma_matmul: wmmaMatmul(A half, B half, C float, M, N, K), multiples of 16.
 * Inputs are k/8 with |k| <= 8: every product and every partial sum is exact
 * in float, so the result does not depend on the tensor core's order:
 * bit-exact.  Half buffers are passed as bytes. */
static uint16_t half_bits(float v)   /* v exactly representable, normal or 0 */
{
    uint32_t b;
    memcpy(&b, &v, 4);
    uint16_t sign = (uint16_t)((b >> 16) & 0x8000u);
    if ((b & 0x7fffffffu) == 0)
        return sign;
    int e = (int)((b >> 23) & 0xff) - 127 + 15;
    return (uint16_t)(sign | (uint16_t)(e << 10) | (uint16_t)((b >> 13) & 0x3ffu));
}

static void case_wmmaMatmul(launch *L, int which)
{
    static const int dims[][3] = {{16, 16, 16}, {32, 48, 16}, {48, 32, 64}, {64, 80, 48}};
    int M = dims[which][0], N = dims[which][1], K = dims[which][2];
    rng r = {(uint64_t)which + 100};
    float *a = NEW(L, float, M * K), *b = NEW(L, float, K * N), *c = NEW(L, float, M * N);
    uint16_t *ah = NEW(L, uint16_t, M * K), *bh = NEW(L, uint16_t, K * N);
    for (int i = 0; i < M * K; i++) {
        a[i] = (float)((int)(rng_next(&r) % 17) - 8) / 8.0f;
        ah[i] = half_bits(a[i]);
    }
    for (int i = 0; i < K * N; i++) {
        b[i] = (float)((int)(rng_next(&r) % 17) - 8) / 8.0f;
        bh[i] = half_bits(b[i]);
    }
    matmul_reference(a, b, c, M, N, K);
    unsigned warps = (unsigned)(M / 16) * (unsigned)(N / 16);
    set_grid(L, cdiv(warps * 32, 128), 1, 1);
    set_block(L, 128, 1, 1);
    arg_in(L, T_U8, ah, (size_t)M * K * 2);
    arg_in(L, T_U8, bh, (size_t)K * N * 2);
    expect_exact(L, arg_zero(L, T_F32, (size_t)M * N), c);
    arg_i32(L, M);
    arg_i32(L, N);
    arg_i32(L, K);
}

/* cnn_conv: (X, W, Y, B, M, C, H, W, K); Y = valid convolution, sum over
 * c, p, q in that order with one fma per term: bit-exact. */
static const int cnn_shapes[][6] = {   /* B, M, C, H, W, K */
    {1, 1, 1, 1, 1, 1}, {1, 2, 3, 8, 9, 3}, {2, 3, 2, 20, 18, 5}, {1, 2, 3, 33, 31, 7}};

static void cnn_reference(const float *x, const float *w, float *y, const int *s)
{
    int B = s[0], M = s[1], C = s[2], H = s[3], W = s[4], K = s[5];
    int Ho = H - K + 1, Wo = W - K + 1;
    for (int b = 0; b < B; b++)
        for (int m = 0; m < M; m++)
            for (int h = 0; h < Ho; h++)
                for (int v = 0; v < Wo; v++) {
                    float sum = 0.0f;
                    for (int c = 0; c < C; c++)
                        for (int p = 0; p < K; p++)
                            for (int q = 0; q < K; q++)
                                sum = fmaf(x[((b * C + c) * H + h + p) * W + v + q],
                                           w[((m * C + c) * K + p) * K + q], sum);
                    y[((b * M + m) * Ho + h) * Wo + v] = sum;
                }
}

static void cnn_common(launch *L, int which, int tiled)
{
    const int *s = cnn_shapes[which];
    int B = s[0], M = s[1], C = s[2], H = s[3], W = s[4], K = s[5];
    int Ho = H - K + 1, Wo = W - K + 1;
    size_t nx = (size_t)B * C * H * W, nw = (size_t)M * C * K * K, ny = (size_t)B * M * Ho * Wo;
    float *x = rand_floats(L, nx, 16), *w = rand_floats(L, nw, 17), *y = NEW(L, float, ny);
    cnn_reference(x, w, y, s);
    set_grid(L, M, cdiv(Ho, 16) * cdiv(Wo, 16), B);
    set_block(L, 16, 16, 1);
    if (tiled)
        L->smem = (unsigned)(((16 + K - 1) * (16 + K - 1) + K * K) * 4);
    arg_in(L, T_F32, x, nx);
    arg_in(L, T_F32, w, nw);
    expect_exact(L, arg_zero(L, T_F32, ny), y);
    for (int i = 0; i < 6; i++)
        arg_i32(L, s[i]);
}

static void case_convLayerNaive(launch *L, int which) { cnn_common(L, which, 0); }
static void case_convLayerTiled(launch *L, int which) { cnn_common(L, which, 1); }

/* im2colUnroll(X, Xu, C, H, W, K): one image. */
static void case_im2colUnroll(launch *L, int which)
{
    const int *s = cnn_shapes[which];
    int C = s[2], H = s[3], W = s[4], K = s[5];
    int Ho = H - K + 1, Wo = W - K + 1, cols = Ho * Wo;
    float *x = rand_floats(L, (size_t)C * H * W, 18), *u = NEW(L, float, (size_t)C * K * K * cols);
    for (int c = 0; c < C; c++)
        for (int p = 0; p < K; p++)
            for (int q = 0; q < K; q++)
                for (int h = 0; h < Ho; h++)
                    for (int v = 0; v < Wo; v++)
                        u[((c * K + p) * K + q) * cols + h * Wo + v] = x[(c * H + h + p) * W + v + q];
    set_grid(L, cdiv(C * cols, 256), 1, 1);
    set_block(L, 256, 1, 1);
    arg_in(L, T_F32, x, (size_t)C * H * W);
    expect_exact(L, arg_zero(L, T_F32, (size_t)C * K * K * cols), u);
    arg_i32(L, C);
    arg_i32(L, H);
    arg_i32(L, W);
    arg_i32(L, K);
}

/* gemmTiled(A, B, C, M, N, K): the im2col matmul, tile 16. */
static void case_gemmTiled(launch *L, int s) { matmul_common(L, s, 16); }

/* microbench_coalescing: coalescingStride(in, out, n, stride) */
static void case_coalescingStride(launch *L, int which)
{
    static const int shapes[][2] = {{1, 1}, {31, 2}, {1000, 1}, {1025, 7}, {300, 32}};
    int n = shapes[which][0], stride = shapes[which][1];
    float *in = rand_floats(L, (size_t)n * stride, 19), *out = NEW(L, float, n);
    for (int i = 0; i < n; i++)
        out[i] = in[(size_t)i * stride];
    set_grid(L, cdiv(n, 256), 1, 1);
    set_block(L, 256, 1, 1);
    arg_in(L, T_F32, in, (size_t)n * stride);
    expect_exact(L, arg_zero(L, T_F32, n), out);
    arg_i32(L, n);
    arg_i32(L, stride);
}

/* microbench_bank_conflicts: bankConflictStride(out, stride, iters); the
 * values are integers below 2^24, so the float sums are exact. */
static void case_bankConflictStride(launch *L, int which)
{
    static const int shapes[][4] = {   /* blocks, threads, stride, iters */
        {1, 32, 1, 1}, {2, 64, 2, 3}, {1, 256, 32, 4}, {1, 96, 33, 5}, {3, 33, 16, 2}};
    int blocks = shapes[which][0], threads = shapes[which][1];
    int stride = shapes[which][2], iters = shapes[which][3];
    float *out = NEW(L, float, blocks * threads);
    for (int i = 0; i < blocks * threads; i++) {
        unsigned t = (unsigned)(i % threads);
        float sum = 0.0f;
        for (int it = 0; it < iters; it++)
            sum += (float)((t * (unsigned)stride + (unsigned)it * 32u) % 4096u);
        out[i] = sum;
    }
    set_grid(L, blocks, 1, 1);
    set_block(L, threads, 1, 1);
    expect_exact(L, arg_zero(L, T_F32, blocks * threads), out);
    arg_i32(L, stride);
    arg_i32(L, iters);
}

/* ---- the table ------------------------------------------------------------ */

#define MAX_SIZES 8

typedef struct test_case {
    const char *lab;        /* kernels/ptx/<arch>/<lab>.ptx */
    const char *kernel;     /* the name in the .cu; found mangled in the PTX */
    void (*setup)(launch *L, int size);
    int sizes[MAX_SIZES];   /* ended by 0; for shape tables, 1 + the row index */
} test_case;

/* Shape-table cases take 1 + their row number as the size. */
/* fc_layer: fcForward(X, W, bias, Y, batch, in, out), 16 x 16 tiles; size s
 * -> batch = s, in = s + 2, out = s + 1: the tiled matmul's sum (ascending
 * k, one fma per term, bit-exact), then the bias added. */
static void case_fcForward(launch *L, int s)
{
    int B = s, I = s + 2, O = s + 1;
    float *x = rand_floats(L, (size_t)B * I, 7), *w = rand_floats(L, (size_t)I * O, 8);
    float *bias = rand_floats(L, (size_t)O, 9), *y = NEW(L, float, (size_t)B * O);
    matmul_reference(x, w, y, B, O, I);
    for (int i = 0; i < B; i++)
        for (int j = 0; j < O; j++)
            y[i * O + j] += bias[j];
    set_grid(L, cdiv(O, 16), cdiv(B, 16), 1);
    set_block(L, 16, 16, 1);
    arg_in(L, T_F32, x, (size_t)B * I);
    arg_in(L, T_F32, w, (size_t)I * O);
    arg_in(L, T_F32, bias, (size_t)O);
    expect_exact(L, arg_zero(L, T_F32, (size_t)B * O), y);
    arg_i32(L, B);
    arg_i32(L, I);
    arg_i32(L, O);
}

#define ROWS4 {1, 2, 3, 4, 0}
#define ROWS5 {1, 2, 3, 4, 5, 0}
#define LINEAR {1, 31, 33, 1000, 1025, 0}

static void shape_wmma(launch *L, int s) { case_wmmaMatmul(L, s - 1); }
static void shape_convLayerNaive(launch *L, int s) { case_convLayerNaive(L, s - 1); }
static void shape_convLayerTiled(launch *L, int s) { case_convLayerTiled(L, s - 1); }
static void shape_im2col(launch *L, int s) { case_im2colUnroll(L, s - 1); }
static void shape_coalescing(launch *L, int s) { case_coalescingStride(L, s - 1); }
static void shape_bank(launch *L, int s) { case_bankConflictStride(L, s - 1); }

static const test_case cases[] = {
    {"vector_add", "vecAdd", case_vecAdd, LINEAR},
    {"vector_add", "vecAddGridStride", case_vecAddGridStride, LINEAR},
    {"vector_add", "vecAddCoarsened", case_vecAddCoarsened, LINEAR},
    {"matrix_add", "matAdd2D", case_matAdd2D, {1, 16, 31, 33, 70, 0}},
    {"matmul", "matmulNaive", case_matmul16, {1, 16, 31, 33, 70, 0}},
    {"matmul", "matmulTiled16", case_matmul16, {1, 15, 16, 31, 33, 70, 0}},
    {"matmul", "matmulTiled32", case_matmul32, {1, 31, 32, 33, 70, 0}},
    {"matmul", "matmulTiledTransposedB", case_matmul32, {1, 31, 33, 70, 0}},
    {"matmul", "matmulTiledTransposedBPadded", case_matmul32, {1, 31, 33, 70, 0}},
    {"transpose", "transposeNaive", case_transpose, {1, 29, 31, 33, 70, 0}},
    {"transpose", "transposeShared", case_transpose, {1, 29, 31, 33, 70, 0}},
    {"transpose", "transposeSharedPadded", case_transpose, {1, 29, 31, 33, 70, 0}},
    {"convolution", "conv1dNaive", case_conv1dNaive, LINEAR},
    {"convolution", "conv1dTiled", case_conv1dTiled, {1, 31, 33, 122, 123, 1000, 1025, 0}},
    {"convolution", "conv2dNaive", case_conv2dNaive, {1, 12, 13, 31, 33, 0}},
    {"convolution", "conv2dTiled", case_conv2dTiled, {1, 12, 13, 31, 33, 0}},
    {"convolution", "conv3dNaive", case_conv3dNaive, {1, 6, 7, 13, 0}},
    {"convolution", "conv3dTiled", case_conv3dTiled, {1, 6, 7, 13, 0}},
    {"reduction", "reduceInterleaved", case_reduceInterleaved, LINEAR},
    {"reduction", "reduceSequential", case_reduceSequential, LINEAR},
    {"reduction", "reduceWarpShuffle", case_reduceWarpShuffle, LINEAR},
    {"reduction", "reduceAtomic", case_reduceAtomic, {1, 31, 33, 1000, 1025, 5000, 0}},
    {"scan", "scanKoggeStone", case_scanKoggeStone, LINEAR},
    {"scan", "scanBrentKung", case_scanBrentKung, LINEAR},
    {"scan", "scanBlockSums", case_scanBlockSums, {1, 31, 256, 257, 1000, 0}},
    {"scan", "addBlockSums", case_addBlockSums, LINEAR},
    {"histogram", "histogramGlobal", case_histogramGlobal, LINEAR},
    {"histogram", "histogramPrivatized", case_histogramPrivatized, LINEAR},
    {"spmv", "spmvCsrScalar", case_spmvCsrScalar, {1, 31, 33, 300, 0}},
    {"spmv", "spmvCsrWarp", case_spmvCsrWarp, {1, 31, 33, 300, 0}},
    {"spmv", "spmvEll", case_spmvEll, {1, 31, 33, 300, 0}},
    {"spmv", "spmvJds", case_spmvJds, {1, 31, 33, 300, 0}},
    {"wmma_matmul", "wmmaMatmul", shape_wmma, ROWS4},
    {"cnn_conv", "convLayerNaive", shape_convLayerNaive, ROWS4},
    {"cnn_conv", "convLayerTiled", shape_convLayerTiled, ROWS4},
    {"cnn_conv", "im2colUnroll", shape_im2col, ROWS4},
    {"cnn_conv", "gemmTiled", case_gemmTiled, {1, 17, 33, 0}},
    {"microbench_coalescing", "coalescingStride", shape_coalescing, ROWS5},
    {"microbench_bank_conflicts", "bankConflictStride", shape_bank, ROWS5},
    {"fc_layer", "fcForward", case_fcForward, {1, 15, 16, 31, 33, 70, 0}},
};

/* ---- running warpsim -------------------------------------------------------- */

typedef struct options {
    const char *warpsim, *ptx_dir, *lab, *kernel;
    int size;               /* 0: every size of the case */
    int timeout_s;
    int keep;
} options;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap * 2 + 1);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* The kernel's name as the PTX spells it: the name itself (extern "C") or
 * its Itanium mangling _Z<length><name>...  Returns a malloc'd string. */
static char *find_entry(const char *ptx, const char *name)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "_Z%zu%s", strlen(name), name);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 1, ".entry")) {
        const char *s = p + strlen(".entry");
        while (*s == ' ' || *s == '\t')
            s++;
        size_t len = strcspn(s, " \t\r\n(");
        if ((len == strlen(name) && !strncmp(s, name, len)) ||
            (len > strlen(prefix) && !strncmp(s, prefix, strlen(prefix))))
            return strndup(s, len);
    }
    return NULL;
}

static void print_command(char *const argv[])
{
    printf("  $");
    for (int i = 0; argv[i]; i++)
        printf(" %s", argv[i]);
    printf("\n");
    fflush(stdout);
}

static void print_log(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return;
    const char *start = len > 4000 ? text + len - 4000 : text;
    printf("  --- warpsim output%s ---\n%s%s  ---\n", len > 4000 ? " (last 4000 bytes)" : "", start,
           len && text[len - 1] != '\n' ? "\n" : "");
    free(text);
}

/* Runs argv with stdout and stderr into log; returns the exit status, or -1
 * for a crash or a timeout (reported). */
static int run_process(char *const argv[], const char *log, int timeout_s)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        printf("  fork failed: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execv(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    struct timespec nap = {0, 5 * 1000 * 1000};
    long waited_ms = 0;
    int status;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            printf("  waitpid failed: %s\n", strerror(errno));
            return -1;
        }
        if (waited_ms >= (long)timeout_s * 1000) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            printf("  TIMEOUT after %d s\n", timeout_s);
            return -1;
        }
        nanosleep(&nap, NULL);
        waited_ms += 5;
    }
    if (WIFSIGNALED(status)) {
        printf("  warpsim died of signal %d\n", WTERMSIG(status));
        return -1;
    }
    return WEXITSTATUS(status);
}

static int same_float_bits(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y || (a == 0.0f && b == 0.0f);
}

static int same_double_bits(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x == y || (a == 0.0 && b == 0.0);
}

static void print_element(elem_type t, const void *base, size_t i)
{
    const char *p = (const char *)base + i * type_size[t];
    switch (t) {
    case T_I8: printf("%d", *(const int8_t *)p); break;
    case T_U8: printf("%u", *(const uint8_t *)p); break;
    case T_I32: { int32_t v; memcpy(&v, p, 4); printf("%d", (int)v); break; }
    case T_U32: { uint32_t v; memcpy(&v, p, 4); printf("%u", (unsigned)v); break; }
    case T_I64: { int64_t v; memcpy(&v, p, 8); printf("%lld", (long long)v); break; }
    case T_U64: { uint64_t v; memcpy(&v, p, 8); printf("%llu", (unsigned long long)v); break; }
    case T_F32: { float v; uint32_t b; memcpy(&v, p, 4); memcpy(&b, p, 4);
                  printf("%.9g (0x%08x)", v, (unsigned)b); break; }
    case T_F64: { double v; memcpy(&v, p, 8); printf("%.17g", v); break; }
    }
}

/* Compares one dumped buffer; prints the first difference. */
static int compare_buffer(const arg *a, int idx, const char *path)
{
    size_t len;
    char *got = read_file(path, &len);
    size_t want = a->count * type_size[a->type];
    if (!got) {
        printf("  FAIL: argument %d: no dump at %s\n", idx, path);
        return 0;
    }
    if (len != want) {
        printf("  FAIL: argument %d: dump has %zu bytes, expected %zu\n", idx, len, want);
        free(got);
        return 0;
    }
    size_t bad = a->count, mismatches = 0;
    for (size_t i = 0; i < a->count; i++) {
        const char *g = got + i * type_size[a->type];
        const char *e = (const char *)a->expect + i * type_size[a->type];
        int ok;
        if (a->check == CHECK_CLOSE) {
            float gv, ev;
            memcpy(&gv, g, 4);
            memcpy(&ev, e, 4);
            ok = fabs((double)gv - (double)ev) <= a->tol;
        } else if (a->type == T_F32) {
            float gv, ev;
            memcpy(&gv, g, 4);
            memcpy(&ev, e, 4);
            ok = same_float_bits(gv, ev);
        } else if (a->type == T_F64) {
            double gv, ev;
            memcpy(&gv, g, 8);
            memcpy(&ev, e, 8);
            ok = same_double_bits(gv, ev);
        } else {
            ok = !memcmp(g, e, type_size[a->type]);
        }
        if (!ok) {
            if (bad == a->count)
                bad = i;
            mismatches++;
        }
    }
    if (mismatches) {
        printf("  FAIL: argument %d, %zu of %zu elements differ; first at index %zu: expected ", idx,
               mismatches, a->count, bad);
        print_element(a->type, a->expect, bad);
        printf(", got ");
        print_element(a->type, got, bad);
        if (a->check == CHECK_CLOSE)
            printf(" (tolerance %g)", a->tol);
        printf("\n");
    }
    free(got);
    return mismatches == 0;
}

static void free_launch(launch *L)
{
    for (int i = 0; i < L->nallocs; i++)
        free(L->allocs[i]);
    L->nallocs = 0;
}

/* Runs one case at one size; returns 1 when it passes. */
static int run_case(const options *o, const test_case *tc, const char *ptx_path, const char *entry,
                    int size, const char *dir, int case_no)
{
    launch L;
    memset(&L, 0, sizeof L);
    L.dir = dir;
    L.case_no = case_no;
    set_grid(&L, 1, 1, 1);
    set_block(&L, 1, 1, 1);
    tc->setup(&L, size);
    printf("%s/%s size %d\n", tc->lab, tc->kernel, size);
    if (L.bad) {
        printf("  FAIL: the case is malformed (bad expect index)\n");
        free_launch(&L);
        return 0;
    }

    char grid[64], block[64], smem[32], log[4096];
    char dumps[MAX_ARGS][4200], dump_paths[MAX_ARGS][4096];
    char *argv[16 + 4 * MAX_ARGS];
    int n = 0;
    snprintf(grid, sizeof grid, "%u,%u,%u", L.grid[0], L.grid[1], L.grid[2]);
    snprintf(block, sizeof block, "%u,%u,%u", L.block[0], L.block[1], L.block[2]);
    snprintf(smem, sizeof smem, "%u", L.smem);
    snprintf(log, sizeof log, "%s/c%d.log", dir, case_no);
    argv[n++] = (char *)o->warpsim;
    argv[n++] = "run";
    argv[n++] = (char *)ptx_path;
    argv[n++] = "--kernel";
    argv[n++] = (char *)entry;
    argv[n++] = "--grid";
    argv[n++] = grid;
    argv[n++] = "--block";
    argv[n++] = block;
    if (L.smem) {
        argv[n++] = "--smem";
        argv[n++] = smem;
    }
    for (int i = 0; i < L.nargs; i++) {
        argv[n++] = "--arg";
        argv[n++] = L.args[i].spec;
    }
    for (int i = 0; i < L.nargs; i++) {
        if (!L.args[i].check)
            continue;
        snprintf(dump_paths[i], sizeof dump_paths[i], "%s/c%d_d%d.bin", dir, case_no, i);
        unlink(dump_paths[i]);
        snprintf(dumps[i], sizeof dumps[i], "%d=%s", i, dump_paths[i]);
        argv[n++] = "--dump";
        argv[n++] = dumps[i];
    }
    argv[n] = NULL;
    print_command(argv);

    int rc = run_process(argv, log, o->timeout_s);
    int ok = rc == 0;
    if (rc > 0)
        printf("  FAIL: warpsim exited with status %d\n", rc);
    for (int i = 0; ok && i < L.nargs; i++)
        if (L.args[i].check && !compare_buffer(&L.args[i], i, dump_paths[i]))
            ok = 0;
    if (!ok)
        print_log(log);
    else
        printf("  ok\n");
    free_launch(&L);
    return ok;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: e2e_kernels --warpsim PATH --ptx-dir DIR --lab LAB [--kernel NAME]\n"
            "                   [--size N] [--timeout SECONDS] [--keep]\n"
            "       e2e_kernels --list\n");
}

/* Removes the temporary directory and the files this driver put in it. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[4400];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

int main(int argc, char **argv)
{
    options o = {0};
    o.timeout_s = 300;
    size_t ncases = sizeof cases / sizeof cases[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--list")) {
            for (size_t c = 0; c < ncases; c++)
                printf("%s %s\n", cases[c].lab, cases[c].kernel);
            return 0;
        } else if (!strcmp(a, "--keep")) {
            o.keep = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!v) {
            usage(stderr);
            return 2;
        } else if (!strcmp(a, "--warpsim")) {
            o.warpsim = v, i++;
        } else if (!strcmp(a, "--ptx-dir")) {
            o.ptx_dir = v, i++;
        } else if (!strcmp(a, "--lab")) {
            o.lab = v, i++;
        } else if (!strcmp(a, "--kernel")) {
            o.kernel = v, i++;
        } else if (!strcmp(a, "--size")) {
            o.size = atoi(v), i++;
        } else if (!strcmp(a, "--timeout")) {
            o.timeout_s = atoi(v), i++;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!o.warpsim || !o.ptx_dir || !o.lab) {
        usage(stderr);
        return 2;
    }

    char ptx_path[4096];
    snprintf(ptx_path, sizeof ptx_path, "%s/%s.ptx", o.ptx_dir, o.lab);
    char *ptx = read_file(ptx_path, NULL);
    if (!ptx) {
        fprintf(stderr, "e2e: cannot read %s: %s\n", ptx_path, strerror(errno));
        return 2;
    }
    char dir[] = "/tmp/warpsim-e2e-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "e2e: cannot make a temporary directory: %s\n", strerror(errno));
        return 2;
    }

    int run = 0, failed = 0, case_no = 0;
    for (size_t c = 0; c < ncases; c++) {
        const test_case *tc = &cases[c];
        if (strcmp(tc->lab, o.lab) || (o.kernel && strcmp(tc->kernel, o.kernel)))
            continue;
        char *entry = find_entry(ptx, tc->kernel);
        if (!entry) {
            printf("%s/%s: FAIL: no .entry for it in %s\n", tc->lab, tc->kernel, ptx_path);
            run++;
            failed++;
            continue;
        }
        for (int s = 0; s < MAX_SIZES && tc->sizes[s]; s++) {
            if (o.size && tc->sizes[s] != o.size)
                continue;
            run++;
            if (!run_case(&o, tc, ptx_path, entry, tc->sizes[s], dir, case_no++))
                failed++;
        }
        free(entry);
    }
    free(ptx);
    if (o.keep)
        printf("inputs, dumps and logs kept in %s\n", dir);
    else
        remove_dir(dir);
    if (run == 0) {
        fprintf(stderr, "e2e: no case matches lab '%s'%s%s\n", o.lab, o.kernel ? " kernel " : "",
                o.kernel ? o.kernel : "");
        return 2;
    }
    printf("%s: %d of %d cases passed\n", o.lab, run - failed, run);
    return failed ? 1 : 0;
}
