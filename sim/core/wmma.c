/* wmma.load / wmma.store / wmma.mma for the m16n16k16 shape.
 *
 * Fragment layout.  Fragments are opaque to programs, but warpsim uses the
 * one an H200 (sm_90; sm_80 is the same) was seen to use, so that a kernel
 * that looks inside a fragment sees what it sees on the GPU (probe output in
 * tests/warpops/gpu_probe).  With g = lane / 4 and t = lane % 4:
 *   A (16 x 16, m x k), element i of 16, e = i % 8 (elements 8..15 repeat 0..7):
 *       row m = g + 8 * ((e >> 1) & 1),  col k = 2t + (e & 1) + 8 * (e >> 2)
 *   B (16 x 16, k x n), element i of 16, e = i % 8:
 *       row k = 2t + (e & 1) + 8 * ((e >> 1) & 1),  col n = g + 8 * (e >> 2)
 *   C, D (16 x 16, m x n), element i of 8: laid out as A's first 8.
 * f16 fragments pack two elements per register (element 2r in the low
 * half of register r); f32 accumulators hold one element per register.
 *
 * mma computes D = A * B + C with f32 accumulation: each product of two f16
 * is exact in f32, and the sum is accumulated k = 0..15 in order, starting
 * from C, each step rounded to nearest even (fmaf).  An f16 D is rounded
 * once from that f32 sum.  Tensor cores do not promise this order; results
 * that depend on it may differ from the GPU in the last bits. */
#include "warp_ops.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alu.h"

#define WMMA_N 16

enum wmma_matrix { MAT_A, MAT_B, MAT_C };

static void element_pos(enum wmma_matrix mat, uint32_t lane, uint32_t i, uint32_t *row, uint32_t *col)
{
    uint32_t g = lane >> 2, t = lane & 3u, e = i & 7u;
    if (mat == MAT_B) {
        *row = 2 * t + (e & 1u) + 8 * ((e >> 1) & 1u);
        *col = g + 8 * (e >> 2);
    } else {
        *row = g + 8 * ((e >> 1) & 1u);
        *col = 2 * t + (e & 1u) + 8 * (e >> 2);
    }
}

static bool is_half(ptx_type t) { return t == PTX_T_F16; }

/* Elements of a fragment per lane. */
static uint32_t frag_elems(enum wmma_matrix mat) { return mat == MAT_C ? 8 : 16; }

static uint64_t frag_get(uint64_t *const frag[], bool half, uint32_t lane, uint32_t i)
{
    if (!half) return frag[i][lane] & 0xFFFFFFFFu;
    return (frag[i / 2][lane] >> (16 * (i & 1u))) & 0xFFFFu;
}

static void frag_set(uint64_t *frag[], bool half, uint32_t lane, uint32_t i, uint64_t v)
{
    if (!half) { frag[i][lane] = v & 0xFFFFFFFFu; return; }
    uint64_t *r = &frag[i / 2][lane];
    uint32_t sh = 16 * (i & 1u);
    *r = (*r & ~((uint64_t)0xFFFF << sh) & 0xFFFFFFFFu) | ((v & 0xFFFFu) << sh);
}

static float half_to_float(uint64_t h)
{
    uint16_t u = (uint16_t)h;
    _Float16 f;
    memcpy(&f, &u, 2);
    return (float)f;
}

static uint64_t float_to_half(float x)
{
    if (isnan(x)) return 0x7FFFu;
    _Float16 f = (_Float16)x;   /* round to nearest even */
    uint16_t u;
    memcpy(&u, &f, 2);
    return u;
}

static float f32_of(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFFFFFu : u;
}

static bool check_form(const ptx_mods *m, char *why, size_t why_size)
{
    if (m->wmma_shape != 1) {
        snprintf(why, why_size, "wmma: only the .m16n16k16 shape is supported");
        return false;
    }
    return true;
}

static bool load_matrix(const ptx_mods *m, enum wmma_matrix *mat, ptx_type *t, char *why, size_t why_size)
{
    *t = m->ntypes ? m->types[0] : PTX_T_NONE;
    switch (m->subop) {
    case PTX_SUB_WMMA_LOAD_A: *mat = MAT_A; break;
    case PTX_SUB_WMMA_LOAD_B: *mat = MAT_B; break;
    case PTX_SUB_WMMA_LOAD_C: case PTX_SUB_WMMA_STORE_D: *mat = MAT_C; break;
    default:
        snprintf(why, why_size, "wmma: not a load or store");
        return false;
    }
    bool ok = *mat == MAT_C ? (*t == PTX_T_F16 || *t == PTX_T_F32) : *t == PTX_T_F16;
    if (!ok) {
        snprintf(why, why_size, "wmma: element type %s is not supported for this fragment",
                 ptx_type_name(*t));
        return false;
    }
    return true;
}

int ws_wmma_fragment_regs(const ptx_mods *m)
{
    ptx_type t = m->ntypes ? m->types[0] : PTX_T_NONE;
    switch (m->subop) {
    case PTX_SUB_WMMA_LOAD_A: case PTX_SUB_WMMA_LOAD_B:
        return t == PTX_T_F16 ? 8 : -1;
    case PTX_SUB_WMMA_LOAD_C: case PTX_SUB_WMMA_STORE_D: case PTX_SUB_WMMA_MMA:
        return t == PTX_T_F32 ? 8 : t == PTX_T_F16 ? 4 : -1;
    default:
        return -1;
    }
}

int ws_wmma_mma_regs(const ptx_mods *m, int operand)
{
    if (m->subop != PTX_SUB_WMMA_MMA || operand < 0 || operand > 3) return -1;
    if (operand == 1 || operand == 2) return 8;
    ptx_type t = m->types[operand == 0 ? 0 : 1];
    if (m->ntypes < 2) return -1;
    return t == PTX_T_F32 ? 8 : t == PTX_T_F16 ? 4 : -1;
}

/* Byte offset of element (row, col) of a 16 x 16 matrix. */
static uint64_t elem_offset(bool row_major, uint32_t row, uint32_t col, uint32_t stride, uint32_t esize)
{
    uint64_t idx = row_major ? (uint64_t)row * stride + col : (uint64_t)col * stride + row;
    return idx * esize;
}

/* Loads and stores carry one layout modifier; accept it in either flag. */
static bool row_layout(const ptx_mods *m) { return (m->flags & (PTX_F_ROW_A | PTX_F_ROW_B)) != 0; }

/* The 16 x 16 tile of a load at base into tile (tile[row][col]: the
 * element's bits), a run of 16 elements along the layout's major
 * dimension at a time through rd_run.  False (nothing said) when rd_run
 * declines a run. */
static bool read_tile(ws_read_fn rd_run, void *ctx, uint64_t base, uint32_t stride, bool half, bool rowm,
                      uint32_t tile[WMMA_N][WMMA_N])
{
    uint32_t esize = half ? 2 : 4;
    uint8_t run[WMMA_N * 4];
    for (uint32_t r = 0; r < WMMA_N; r++) {
        if (!rd_run(ctx, base + (uint64_t)r * stride * esize, run, WMMA_N * esize)) return false;
        for (uint32_t j = 0; j < WMMA_N; j++) {
            uint32_t v;
            if (half) {
                uint16_t h;
                memcpy(&h, run + 2 * j, 2);
                v = h;
            } else {
                memcpy(&v, run + 4 * j, 4);
            }
            if (rowm) tile[r][j] = v;
            else tile[j][r] = v;
        }
    }
    return true;
}

/* A fragment's registers from its tile: an f16 register holds elements 2r
 * (low half) and 2r + 1, an f32 register element r. */
static void frag_of_tile(enum wmma_matrix mat, bool half, uint32_t nregs, uint32_t tile[WMMA_N][WMMA_N],
                         uint64_t *frag[])
{
    for (uint32_t r = 0; r < nregs; r++)
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) {
            uint32_t row, col;
            element_pos(mat, lane, half ? 2 * r : r, &row, &col);
            uint64_t v = tile[row][col];
            if (half) {
                element_pos(mat, lane, 2 * r + 1, &row, &col);
                v |= (uint64_t)tile[row][col] << 16;
            }
            frag[r][lane] = v;
        }
}

bool ws_wmma_load(const ptx_mods *m, uint64_t base, uint32_t stride, ws_read_fn rd_run,
                  ws_read_fn rd, void *ctx, uint64_t *frag[], char *why, size_t why_size)
{
    enum wmma_matrix mat;
    ptx_type t;
    if (!check_form(m, why, why_size) || !load_matrix(m, &mat, &t, why, why_size)) return false;
    if (m->subop == PTX_SUB_WMMA_STORE_D) {
        snprintf(why, why_size, "wmma: store passed to load");
        return false;
    }
    bool half = is_half(t), rowm = row_layout(m);
    uint32_t esize = half ? 2 : 4;
    if (base % 32 != 0) {   /* the ISA requires 256-bit alignment */
        snprintf(why, why_size, "wmma.load: misaligned address 0x%" PRIx64 " (needs 32-byte alignment)", base);
        return false;
    }
    uint32_t nregs = (uint32_t)ws_wmma_fragment_regs(m);
    /* every element of the tile is some lane's: 16 runs of 16, read whole,
     * are the bytes the lanes read element by element */
    uint32_t tile[WMMA_N][WMMA_N];
    if (rd_run && read_tile(rd_run, ctx, base, stride, half, rowm, tile)) {
        frag_of_tile(mat, half, nregs, tile, frag);
        return true;
    }
    for (uint32_t r = 0; r < nregs; r++)
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) frag[r][lane] = 0;
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) {
        for (uint32_t i = 0; i < frag_elems(mat); i++) {
            uint32_t row, col;
            element_pos(mat, lane, i, &row, &col);
            uint64_t addr = base + elem_offset(rowm, row, col, stride, esize);
            uint32_t v = 0;
            if (!rd(ctx, addr, &v, esize)) {
                snprintf(why, why_size, "wmma.load: cannot read %u bytes at 0x%" PRIx64, esize, addr);
                return false;
            }
            frag_set(frag, half, lane, i, v);
        }
    }
    return true;
}

bool ws_wmma_store(const ptx_mods *m, uint64_t base, uint32_t stride,
                   ws_write_fn wr, void *ctx, uint64_t *const frag[], char *why, size_t why_size)
{
    enum wmma_matrix mat;
    ptx_type t;
    if (!check_form(m, why, why_size) || !load_matrix(m, &mat, &t, why, why_size)) return false;
    if (m->subop != PTX_SUB_WMMA_STORE_D) {
        snprintf(why, why_size, "wmma: load passed to store");
        return false;
    }
    bool half = is_half(t), rowm = row_layout(m);
    uint32_t esize = half ? 2 : 4;
    if (base % 32 != 0) {
        snprintf(why, why_size, "wmma.store: misaligned address 0x%" PRIx64 " (needs 32-byte alignment)", base);
        return false;
    }
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++) {
        for (uint32_t i = 0; i < 8; i++) {
            uint32_t row, col;
            element_pos(MAT_C, lane, i, &row, &col);
            uint64_t addr = base + elem_offset(rowm, row, col, stride, esize);
            uint32_t v = (uint32_t)frag_get(frag, half, lane, i);
            if (!wr(ctx, addr, &v, esize)) {
                snprintf(why, why_size, "wmma.store: cannot write %u bytes at 0x%" PRIx64, esize, addr);
                return false;
            }
        }
    }
    return true;
}

int ws_wmma_accesses(const ptx_mods *m, uint32_t stride, uint64_t *off,
                     uint32_t *size)
{
    enum wmma_matrix mat;
    ptx_type t;
    char why[160];
    if (!check_form(m, why, sizeof why) || !load_matrix(m, &mat, &t, why, sizeof why)) return 0;
    bool rowm = row_layout(m);
    uint32_t esize = is_half(t) ? 2 : 4;
    /* elements 0..7 are each lane's distinct ones (A's and B's 8..15 repeat them) */
    uint64_t e[8][WS_WARP_SIZE];
    bool pairs = true;
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
        for (uint32_t i = 0; i < 8; i++) {
            uint32_t row, col;
            element_pos(mat, lane, i, &row, &col);
            e[i][lane] = elem_offset(rowm, row, col, stride, esize);
            if (i % 2 == 1)
                pairs = pairs && e[i][lane] == e[i - 1][lane] + esize && e[i - 1][lane] % (2 * esize) == 0;
        }
    uint32_t step = pairs ? 2 : 1;
    *size = step * esize;
    for (uint32_t k = 0; k < 8 / step; k++)
        for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
            off[k * WS_WARP_SIZE + lane] = e[k * step][lane];
    return (int)(8 / step);
}

/* Gathers a whole matrix, as floats, from the lanes' fragments. */
static void gather(enum wmma_matrix mat, bool half, uint64_t *const frag[], float out[WMMA_N][WMMA_N])
{
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
        for (uint32_t i = 0; i < 8; i++) {   /* elements 8..15 of A and B are copies */
            uint32_t row, col;
            element_pos(mat, lane, i, &row, &col);
            uint64_t v = frag_get(frag, half, lane, i);
            out[row][col] = half ? half_to_float(v) : f32_of(v);
        }
}

void ws_wmma_mma(const ptx_mods *m, uint64_t *d[], uint64_t *const a[],
                 uint64_t *const b[], uint64_t *const c[])
{
    bool d_half = m->types[0] == PTX_T_F16;
    bool c_half = m->ntypes > 1 && m->types[1] == PTX_T_F16;
    float A[WMMA_N][WMMA_N], B[WMMA_N][WMMA_N], C[WMMA_N][WMMA_N];
    gather(MAT_A, true, a, A);
    gather(MAT_B, true, b, B);
    gather(MAT_C, c_half, c, C);
    /* All of C is read before any of D is written: d and c may be the
     * same registers. */
    for (uint32_t lane = 0; lane < WS_WARP_SIZE; lane++)
        for (uint32_t i = 0; i < 8; i++) {
            uint32_t row, col;
            element_pos(MAT_C, lane, i, &row, &col);
            float acc = C[row][col];
            /* a product of two f16 values is exact in f32 (22 bits of
             * significand, and no f16 product leaves f32's normal range), so
             * acc + a * b rounds once, exactly as fmaf would */
            for (uint32_t k = 0; k < WMMA_N; k++) acc += A[row][k] * B[k][col];
            frag_set(d, d_half, lane, i, d_half ? float_to_half(acc) : f32_bits(acc));
        }
}
