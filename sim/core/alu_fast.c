/* Handlers of the commonest ALU forms: each a straight loop over the 32
 * lanes the compiler can vectorize, chosen once per instruction at decode
 * (ws_alu_fast_of), so the hot loop neither switches on opcode, type and
 * modifiers nor builds an alu_call.
 *
 * Each handler computes exactly what the general path (alu_int.c,
 * alu_float.c, alu_cmp.c, alu_cvt.c) computes for the same form, for any
 * 64-bit inputs, canonical or not: the expressions below are theirs, and
 * tests/alu/test_alu_fast.c compares the two on random inputs and masks. */
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "alu_impl.h"

#define M32 UINT64_C(0xFFFFFFFF)
#define M16 UINT64_C(0xFFFF)
#define M8 UINT64_C(0xFF)

/* Keeps r for the lanes in mask.  A part of a warp (a branch's side)
 * without a branch per lane: each lane's old or new value picked by a
 * mask, two lanes at a time where SSE2 is at hand (a diverged warp's
 * lanes follow the data, and a branch on each mispredicted half the time:
 * the loop had been 3.7 % of histogram's instructions). */
static inline void store(uint32_t mask, uint64_t *d, const uint64_t *r)
{
    if (mask == UINT32_MAX) {
        memcpy(d, r, sizeof(uint64_t) * WS_WARP_SIZE);
        return;
    }
#ifdef __SSE2__
    static const _Alignas(16) uint64_t pick[4][2] = {{0, 0}, {~UINT64_C(0), 0}, {0, ~UINT64_C(0)},
                                                     {~UINT64_C(0), ~UINT64_C(0)}};
    for (int i = 0; i < WS_WARP_SIZE; i += 2) {
        __m128i sel = _mm_load_si128((const __m128i *)(const void *)pick[(mask >> i) & 3]);
        __m128i now = _mm_loadu_si128((const __m128i *)(const void *)(r + i));
        __m128i was = _mm_loadu_si128((const __m128i *)(const void *)(d + i));
        _mm_storeu_si128((__m128i *)(void *)(d + i), _mm_or_si128(_mm_and_si128(sel, now), _mm_andnot_si128(sel, was)));
    }
#else
    for (int i = 0; i < WS_WARP_SIZE; i++) {
        uint64_t keep = UINT64_C(0) - ((mask >> i) & 1u);
        d[i] = (r[i] & keep) | (d[i] & ~keep);
    }
#endif
}

/* store for rows of 4-byte lanes, four lanes at a time. */
static inline void store32(uint32_t mask, uint32_t *d, const uint32_t *r)
{
    if (mask == UINT32_MAX) {
        memcpy(d, r, sizeof(uint32_t) * WS_WARP_SIZE);
        return;
    }
#ifdef __SSE2__
#define P(m) {0u - ((m) & 1u), 0u - ((m) >> 1 & 1u), 0u - ((m) >> 2 & 1u), 0u - ((m) >> 3 & 1u)}
    static const _Alignas(16) uint32_t pick[16][4] = {P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7),
                                                      P(8), P(9), P(10), P(11), P(12), P(13), P(14), P(15)};
#undef P
    for (int i = 0; i < WS_WARP_SIZE; i += 4) {
        __m128i sel = _mm_load_si128((const __m128i *)(const void *)pick[(mask >> i) & 15]);
        __m128i now = _mm_loadu_si128((const __m128i *)(const void *)(r + i));
        __m128i was = _mm_loadu_si128((const __m128i *)(const void *)(d + i));
        _mm_storeu_si128((__m128i *)(void *)(d + i), _mm_or_si128(_mm_and_si128(sel, now), _mm_andnot_si128(sel, was)));
    }
#else
    for (int i = 0; i < WS_WARP_SIZE; i++) {
        uint32_t keep = 0u - ((mask >> i) & 1u);
        d[i] = (r[i] & keep) | (d[i] & ~keep);
    }
#endif
}

/* A handler computing expr of the lane's sources a, b, c for every lane
 * into a local row (no aliasing with the registers: vectorizable), then
 * keeping the active lanes; name for rows of 8-byte lanes, name##_n for
 * rows of 4-byte ones (the sources zero-extended, the result cut). */
#define FAST(name, expr) FAST_ATTR(, name, expr)
#define FAST_ATTR(attr, name, expr)                                             \
    attr static void name(uint32_t mask, uint64_t *d, const uint64_t *A,       \
                     const uint64_t *B, const uint64_t *C)                      \
    {                                                                           \
        uint64_t r[WS_WARP_SIZE];                                               \
        for (int i = 0; i < WS_WARP_SIZE; i++) {                                \
            uint64_t a = A[i], b = B[i], c = C[i];                              \
            (void)a; (void)b; (void)c;                                          \
            r[i] = (expr);                                                      \
        }                                                                       \
        store(mask, d, r);                                                      \
    }                                                                           \
    attr static void name##_n(uint32_t mask, uint32_t *d, const uint32_t *A,   \
                              const uint32_t *B, const uint32_t *C)             \
    {                                                                           \
        uint32_t r[WS_WARP_SIZE];                                               \
        for (int i = 0; i < WS_WARP_SIZE; i++) {                                \
            uint64_t a = A[i], b = B[i], c = C[i];                              \
            (void)a; (void)b; (void)c;                                          \
            r[i] = (uint32_t)(expr);                                            \
        }                                                                       \
        store32(mask, d, r);                                                    \
    }

/* name##_n through name: the sources widened, the result cut (forms with
 * no loop to vectorize, division). */
#define NARROW_BY_WIDE(name)                                                    \
    static void name##_n(uint32_t mask, uint32_t *d, const uint32_t *A,        \
                         const uint32_t *B, const uint32_t *C)                  \
    {                                                                           \
        uint64_t a[WS_WARP_SIZE], b[WS_WARP_SIZE], c[WS_WARP_SIZE], r[WS_WARP_SIZE]; \
        uint32_t n[WS_WARP_SIZE];                                               \
        for (int i = 0; i < WS_WARP_SIZE; i++) {                                \
            a[i] = A[i]; b[i] = B[i]; c[i] = C[i];                              \
        }                                                                       \
        name(UINT32_MAX, r, a, b, c);                                           \
        for (int i = 0; i < WS_WARP_SIZE; i++) n[i] = (uint32_t)r[i];           \
        store32(mask, d, n);                                                    \
    }

static inline float f32(uint64_t v) { return alu_f32(v); }
static inline double f64(uint64_t v) { return alu_f64(v); }
static inline uint64_t canon32(float v) { return v != v ? ALU_F32_NAN : alu_f32_bits(v); }
static inline int64_t sx32(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }
static inline int64_t sx16(uint64_t v) { return (int64_t)(int16_t)(uint16_t)v; }
static inline int64_t sx8(uint64_t v) { return (int64_t)(int8_t)(uint8_t)v; }

/* Arithmetic shift right of an n-bit value, as alu_int.c's shr_s. */
static inline uint64_t shr_s(uint64_t a, uint64_t s, unsigned n)
{
    int64_t x = alu_sext(a, n);
    uint32_t sh = (uint32_t)s;
    if (sh >= n) return alu_trunc(x < 0 ? ~(uint64_t)0 : 0, n);
    uint64_t u = (uint64_t)x;
    return alu_trunc(x < 0 ? ~(~u >> sh) : u >> sh, n);
}

/* f32/f64 min and max without modifiers, as alu_float.c's minmax. */
static inline uint64_t fminmax(uint64_t a, uint64_t b, bool is_max, bool is32)
{
    bool na = is32 ? alu_f32_isnan((uint32_t)a) : alu_f64_isnan(a);
    bool nb = is32 ? alu_f32_isnan((uint32_t)b) : alu_f64_isnan(b);
    if (na && nb) return is32 ? ALU_F32_NAN : ALU_F64_NAN;
    if (na) return b;
    if (nb) return a;
    double x = is32 ? f32(a) : f64(a), y = is32 ? f32(b) : f64(b);
    if (x == y) return is_max ? (a & b) : (a | b);
    return (x < y) != is_max ? a : b;
}

/* float to s32, rounding toward zero, as alu_cvt.c's float_to_int. */
static inline uint64_t rzi_s32(double x)
{
    if (isnan(x)) return 0;
    double v = trunc(x);
    if (v >= 2147483648.0) return 0x7FFFFFFFu;
    if (v < -2147483648.0) return 0x80000000u;
    return (uint32_t)(int32_t)v;
}

/* ---- integer ---- */
FAST(add_16, (a + b) & M16)
FAST(add_32, (a + b) & M32)
FAST(add_64, a + b)
FAST(sub_16, (a - b) & M16)
FAST(sub_32, (a - b) & M32)
FAST(sub_64, a - b)
FAST(mul_lo_32, (a * b) & M32)
FAST(mul_lo_64, a * b)
FAST(mul_wide_u32, a * b)
FAST(mul_wide_s32, (uint64_t)(sx32(a) * sx32(b)))
FAST(mul_hi_u32, (a * b) >> 32 & M32)                /* bits 32-63 of the product (division by a constant) */
FAST(mul_hi_s32, (uint64_t)(sx32(a) * sx32(b)) >> 32 & M32)
FAST(mad_lo_32, (a * b + c) & M32)
FAST(mad_lo_64, a * b + c)
FAST(mad_wide_u32, a * b + c)
FAST(mad_wide_s32, (uint64_t)(sx32(a) * sx32(b)) + c)
FAST(shl_32, (uint32_t)b >= 32 ? 0 : (a << (uint32_t)b) & M32)
FAST(shl_64, (uint32_t)b >= 64 ? 0 : a << (uint32_t)b)
FAST(shr_u32, (uint32_t)b >= 32 ? 0 : (a & M32) >> (uint32_t)b)
FAST(shr_u64, (uint32_t)b >= 64 ? 0 : a >> (uint32_t)b)
FAST(shr_s32, shr_s(a, b, 32))
FAST(shr_s64, shr_s(a, b, 64))
FAST(and_any, a & b)
FAST(or_any, a | b)
FAST(xor_any, a ^ b)
FAST(not_pred, ~a & 1)
FAST(not_16, ~a & M16)
FAST(not_32, ~a & M32)
FAST(not_64, ~a)
FAST(min_s32, sx32(a) < sx32(b) ? a : b)
FAST(max_s32, sx32(a) > sx32(b) ? a : b)
FAST(min_u32, a < b ? a : b)
FAST(max_u32, a > b ? a : b)
FAST(neg_s32, (0 - a) & M32)
/* no branch on the predicate (a branch per lane mispredicts on data-driven
 * predicates: a radix sort's bits) */
FAST(selp_any, b ^ ((a ^ b) & (UINT64_C(0) - (c & 1))))
/* division: no vector form, but no per-lane switch on type and operation.
 * 32-bit operands divide as 32-bit numbers (a 64-bit divide takes the
 * host longer); the cases alu_divide treats apart go to it. */
static inline uint64_t divide_u32(uint64_t a, uint64_t b, bool rem)
{
    if (!b || (a | b) >> 32) return alu_divide(a, b, 32, false, rem);
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    return rem ? x % y : x / y;
}
static inline uint64_t divide_s32(uint64_t a, uint64_t b, bool rem)
{
    int32_t x = (int32_t)(uint32_t)a, y = (int32_t)(uint32_t)b;
    if (y == 0 || y == -1) return alu_divide(a, b, 32, true, rem);
    return (uint32_t)(rem ? x % y : x / y);
}

/* A warp dividing by the same number in every lane (a stride, a row's
 * width, a bin's: the divisions nvcc leaves are by values known only at
 * run time, and those are mostly the block's or the launch's) takes one
 * reciprocal instead of a hardware divide per lane: with c = 2^64 / y
 * rounded up, x / y is the high 64 bits of the 128-bit product c * x, and
 * x % y the high 64 bits of (c * x mod 2^64) * y, for every 32-bit x and
 * every 32-bit y > 1 (D. Lemire, O. Kaser, N. Kurz, "Faster Remainder by
 * Direct Computation", 2019).  Signed operands divide by their
 * magnitudes, the quotient negative where the signs differ and the
 * remainder with the dividend's sign, as C's and PTX's division does. */
static inline uint64_t reciprocal_u32(uint32_t y)
{
    return UINT64_MAX / y + 1;
}
static inline uint32_t quotient_by(uint64_t c, uint32_t x)
{
    return (uint32_t)(((unsigned __int128)c * x) >> 64);
}
static inline uint32_t remainder_by(uint64_t c, uint32_t y, uint32_t x)
{
    return (uint32_t)(((unsigned __int128)(c * x) * y) >> 64);
}

/* The one divisor of every lane of B, when there is one past 1 (-1 and 1
 * for signed ones too) with every lane's operands 32-bit (unsigned: their
 * high bits clear, as divide_u32 takes them). */
static bool uniform_divisor(const uint64_t *A, const uint64_t *B, bool is_signed, uint32_t *y)
{
    uint64_t differ = 0, high = 0;
    for (int i = 0; i < WS_WARP_SIZE; i++) {
        differ |= B[i] ^ B[0];
        high |= A[i] | B[i];
    }
    uint32_t v = (uint32_t)B[0];
    *y = v;
    if (differ) return false;
    if (!is_signed) return !(high >> 32) && v > 1;
    return (int32_t)v > 1 || (int32_t)v < -1;
}

static void divide_row(uint32_t mask, uint64_t *d, const uint64_t *A, const uint64_t *B, bool is_signed, bool rem)
{
    uint64_t r[WS_WARP_SIZE];
    uint32_t y;
    if (!uniform_divisor(A, B, is_signed, &y)) {
        for (int i = 0; i < WS_WARP_SIZE; i++)
            r[i] = is_signed ? divide_s32(A[i], B[i], rem) : divide_u32(A[i], B[i], rem);
    } else if (!is_signed) {
        uint64_t c = reciprocal_u32(y);
        for (int i = 0; i < WS_WARP_SIZE; i++)
            r[i] = rem ? remainder_by(c, y, (uint32_t)A[i]) : quotient_by(c, (uint32_t)A[i]);
    } else {
        bool y_neg = (int32_t)y < 0;
        uint32_t ym = y_neg ? 0u - y : y;
        uint64_t c = reciprocal_u32(ym);
        for (int i = 0; i < WS_WARP_SIZE; i++) {
            uint32_t x = (uint32_t)A[i];
            bool x_neg = (int32_t)x < 0;
            uint32_t xm = x_neg ? 0u - x : x;
            uint32_t v = rem ? remainder_by(c, ym, xm) : quotient_by(c, xm);
            r[i] = (rem ? x_neg : x_neg != y_neg) ? 0u - v : v;
        }
    }
    store(mask, d, r);
}

#define DIVIDE(name, is_signed, rem)                                                                  \
    static void name(uint32_t mask, uint64_t *d, const uint64_t *A, const uint64_t *B, const uint64_t *C) \
    {                                                                                                  \
        (void)C;                                                                                       \
        divide_row(mask, d, A, B, is_signed, rem);                                                     \
    }
DIVIDE(div_u32, false, false)
DIVIDE(div_s32, true, false)
DIVIDE(rem_u32, false, true)
DIVIDE(rem_s32, true, true)
NARROW_BY_WIDE(div_u32)
NARROW_BY_WIDE(div_s32)
NARROW_BY_WIDE(rem_u32)
NARROW_BY_WIDE(rem_s32)
FAST(div_u64, alu_divide(a, b, 64, false, false))
FAST(div_s64, alu_divide(a, b, 64, true, false))
FAST(rem_u64, alu_divide(a, b, 64, false, true))
FAST(rem_s64, alu_divide(a, b, 64, true, true))

/* ---- floating point: round to nearest, no ftz, no sat ---- */
FAST(add_f32, canon32(f32(a) + f32(b)))
FAST(sub_f32, canon32(f32(a) - f32(b)))
FAST(mul_f32, canon32(f32(a) * f32(b)))
FAST(fma_f32, canon32(fmaf(f32(a), f32(b), f32(c))))
FAST(div_f32, canon32(f32(a) / f32(b)))
FAST(sqrt_f32, canon32(sqrtf(f32(a))))              /* sqrt.rn and rcp.rn: IEEE-rounded */
FAST(rcp_f32, canon32(1.0f / f32(a)))
/* x86-64 hosts with FMA3 (nearly all): fmaf as one instruction, not a libm
 * call per lane; the same correctly rounded result (decode picks it when
 * the processor has it). */
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FMA_HW 1
FAST_ATTR(__attribute__((target("fma"))), fma_f32_hw, canon32(fmaf(f32(a), f32(b), f32(c))))
#else
#define fma_f32_hw fma_f32
#define fma_f32_hw_n fma_f32_n
#endif
/* .ftz (fast-math code): subnormal inputs and results flushed to zero */
static inline uint64_t ftz(uint64_t v) { return alu_ftz32((uint32_t)v); }
FAST(add_ftz_f32, ftz(canon32(f32(ftz(a)) + f32(ftz(b)))))
FAST(sub_ftz_f32, ftz(canon32(f32(ftz(a)) - f32(ftz(b)))))
FAST(mul_ftz_f32, ftz(canon32(f32(ftz(a)) * f32(ftz(b)))))
FAST(fma_ftz_f32, ftz(canon32(fmaf(f32(ftz(a)), f32(ftz(b)), f32(ftz(c))))))
FAST(neg_f32, a ^ UINT64_C(0x80000000))
FAST(abs_f32, a & ~UINT64_C(0x80000000))
FAST(min_f32, fminmax(a, b, false, true))
FAST(max_f32, fminmax(a, b, true, true))
FAST(add_f64, alu_f64_bits(f64(a) + f64(b)))
FAST(sub_f64, alu_f64_bits(f64(a) - f64(b)))
FAST(mul_f64, alu_f64_bits(f64(a) * f64(b)))
FAST(fma_f64, alu_f64_bits(fma(f64(a), f64(b), f64(c))))

/* ---- setp without a boolean operation: p = a CMP b ---- */
#define SETP_INT(suffix, X, Y)                                                  \
    FAST(setp_eq_##suffix, (uint64_t)(X(a) == X(b)))                            \
    FAST(setp_ne_##suffix, (uint64_t)(X(a) != X(b)))                            \
    FAST(setp_lt_##suffix, (uint64_t)(Y(a) < Y(b)))                             \
    FAST(setp_le_##suffix, (uint64_t)(Y(a) <= Y(b)))                            \
    FAST(setp_gt_##suffix, (uint64_t)(Y(a) > Y(b)))                             \
    FAST(setp_ge_##suffix, (uint64_t)(Y(a) >= Y(b)))
#define U32V(v) ((v) & M32)
#define S32V(v) sx32(v)
#define U64V(v) (v)
#define S64V(v) ((int64_t)(v))
#define U16V(v) ((v) & M16)
#define S16V(v) sx16(v)
SETP_INT(s16, U16V, S16V)
SETP_INT(u16, U16V, U16V)
SETP_INT(s32, U32V, S32V)
SETP_INT(u32, U32V, U32V)
SETP_INT(s64, U64V, S64V)
SETP_INT(u64, U64V, U64V)

/* Ordered comparisons are false when either is NaN, unordered ones true. */
#define SETP_FLOAT(suffix, X)                                                   \
    FAST(setp_eq_##suffix, (uint64_t)(X(a) == X(b)))                            \
    FAST(setp_ne_##suffix, (uint64_t)(X(a) < X(b) || X(a) > X(b)))              \
    FAST(setp_lt_##suffix, (uint64_t)(X(a) < X(b)))                             \
    FAST(setp_le_##suffix, (uint64_t)(X(a) <= X(b)))                            \
    FAST(setp_gt_##suffix, (uint64_t)(X(a) > X(b)))                             \
    FAST(setp_ge_##suffix, (uint64_t)(X(a) >= X(b)))                            \
    FAST(setp_equ_##suffix, (uint64_t)!(X(a) < X(b) || X(a) > X(b)))           \
    FAST(setp_neu_##suffix, (uint64_t)!(X(a) == X(b)))                          \
    FAST(setp_ltu_##suffix, (uint64_t)!(X(a) >= X(b)))                          \
    FAST(setp_leu_##suffix, (uint64_t)!(X(a) > X(b)))                           \
    FAST(setp_gtu_##suffix, (uint64_t)!(X(a) <= X(b)))                          \
    FAST(setp_geu_##suffix, (uint64_t)!(X(a) < X(b)))
SETP_FLOAT(f32, f32)
SETP_FLOAT(f64, f64)

/* ---- cvt ---- */
FAST(cvt_sext32, (uint64_t)sx32(a))                 /* s32 to a 64-bit type */
FAST(cvt_low32, a & M32)                            /* to a 32-bit type, or u32 to a 64-bit one */
FAST(cvt_low16, a & M16)                            /* the same for 16 bits */
FAST(cvt_low8, a & M8)                              /* ... and 8 */
FAST(cvt_sext16_32, (uint64_t)sx16(a) & M32)        /* s16 to a 32-bit type */
FAST(cvt_sext16_64, (uint64_t)sx16(a))              /* ... to a 64-bit one */
FAST(cvt_sext8_16, (uint64_t)sx8(a) & M16)          /* s8 to a 16-bit type */
FAST(cvt_sext8_32, (uint64_t)sx8(a) & M32)
FAST(cvt_sext8_64, (uint64_t)sx8(a))
FAST(cvt_f32_s32, alu_f32_bits((float)(int32_t)(uint32_t)a))
FAST(cvt_f32_u32, alu_f32_bits((float)(uint32_t)a))
FAST(cvt_rzi_s32_f32, rzi_s32(f32(a)))

/* The handler table: index 0 is "none" (the general path). */
#define HANDLERS(H) \
    H(add_16) H(add_32) H(add_64) H(sub_16) H(sub_32) H(sub_64) H(mul_lo_32) H(mul_lo_64) \
    H(mul_wide_u32) H(mul_wide_s32) H(mul_hi_u32) H(mul_hi_s32) \
    H(mad_lo_32) H(mad_lo_64) H(mad_wide_u32) H(mad_wide_s32) H(shl_32) H(shl_64) H(shr_u32) \
    H(shr_u64) H(shr_s32) H(shr_s64) H(and_any) H(or_any) H(xor_any) H(not_pred) H(not_16) H(not_32) \
    H(not_64) H(min_s32) H(max_s32) H(min_u32) H(max_u32) H(neg_s32) H(selp_any) \
    H(div_u32) H(div_s32) H(rem_u32) H(rem_s32) H(div_u64) H(div_s64) H(rem_u64) H(rem_s64) \
    H(add_f32) H(sub_f32) H(mul_f32) H(fma_f32) H(fma_f32_hw) H(div_f32) H(sqrt_f32) H(rcp_f32) \
    H(add_ftz_f32) H(sub_ftz_f32) H(mul_ftz_f32) H(fma_ftz_f32) H(neg_f32) H(abs_f32) H(min_f32) \
    H(max_f32) H(add_f64) H(sub_f64) H(mul_f64) H(fma_f64) \
    H(setp_eq_s32) H(setp_ne_s32) H(setp_lt_s32) H(setp_le_s32) H(setp_gt_s32) H(setp_ge_s32) \
    H(setp_eq_u32) H(setp_ne_u32) H(setp_lt_u32) H(setp_le_u32) H(setp_gt_u32) H(setp_ge_u32) \
    H(setp_eq_s64) H(setp_ne_s64) H(setp_lt_s64) H(setp_le_s64) H(setp_gt_s64) H(setp_ge_s64) \
    H(setp_eq_u64) H(setp_ne_u64) H(setp_lt_u64) H(setp_le_u64) H(setp_gt_u64) H(setp_ge_u64) \
    H(setp_eq_s16) H(setp_ne_s16) H(setp_lt_s16) H(setp_le_s16) H(setp_gt_s16) H(setp_ge_s16) \
    H(setp_eq_u16) H(setp_ne_u16) H(setp_lt_u16) H(setp_le_u16) H(setp_gt_u16) H(setp_ge_u16) \
    H(setp_eq_f32) H(setp_ne_f32) H(setp_lt_f32) H(setp_le_f32) H(setp_gt_f32) H(setp_ge_f32) \
    H(setp_equ_f32) H(setp_neu_f32) H(setp_ltu_f32) H(setp_leu_f32) H(setp_gtu_f32) H(setp_geu_f32) \
    H(setp_eq_f64) H(setp_ne_f64) H(setp_lt_f64) H(setp_le_f64) H(setp_gt_f64) H(setp_ge_f64) \
    H(setp_equ_f64) H(setp_neu_f64) H(setp_ltu_f64) H(setp_leu_f64) H(setp_gtu_f64) H(setp_geu_f64) \
    H(cvt_sext32) H(cvt_low32) H(cvt_low16) H(cvt_low8) H(cvt_sext16_32) H(cvt_sext16_64) \
    H(cvt_sext8_16) H(cvt_sext8_32) H(cvt_sext8_64) H(cvt_f32_s32) H(cvt_f32_u32) H(cvt_rzi_s32_f32)

enum {
    FAST_NONE,
#define H(n) FAST_##n,
    HANDLERS(H)
#undef H
    FAST_COUNT
};

const ws_alu_fast_fn ws_alu_fast_fns[] = {
    [FAST_NONE] = NULL,
#define H(n) [FAST_##n] = n,
    HANDLERS(H)
#undef H
};

const ws_alu_fast_fn32 ws_alu_fast_fns32[] = {
    [FAST_NONE] = NULL,
#define H(n) [FAST_##n] = n##_n,
    HANDLERS(H)
#undef H
};

_Static_assert(FAST_COUNT <= 256, "handler indices fit ws_insn.fast");

static bool is_u32(ptx_type t) { return t == PTX_T_U32 || t == PTX_T_B32; }
static bool is_u64(ptx_type t) { return t == PTX_T_U64 || t == PTX_T_B64; }
static bool is_32(ptx_type t) { return is_u32(t) || t == PTX_T_S32; }
static bool is_64(ptx_type t) { return is_u64(t) || t == PTX_T_S64; }
static bool is_u16(ptx_type t) { return t == PTX_T_U16 || t == PTX_T_B16; }
static bool rn(const ptx_mods *m) { return m->rounding == PTX_RND_NONE || m->rounding == PTX_RND_RN; }

/* The six ordered comparisons' handlers of a setp type start at first;
 * the unordered ones (floats) at first + 6. */
static int setp_of(const ptx_mods *m)
{
    ptx_type t = m->types[0];
    int c = m->cmp, first;
    if (m->boolop != PTX_BOOL_NONE || m->flags) return FAST_NONE;
    if (t == PTX_T_F32 || t == PTX_T_F64) {
        first = t == PTX_T_F32 ? FAST_setp_eq_f32 : FAST_setp_eq_f64;
        if (c >= PTX_CMP_EQ && c <= PTX_CMP_GE) return first + (c - PTX_CMP_EQ);
        if (c >= PTX_CMP_EQU && c <= PTX_CMP_GEU) return first + 6 + (c - PTX_CMP_EQU);
        return FAST_NONE;
    }
    if (t == PTX_T_S16) first = FAST_setp_eq_s16;
    else if (is_u16(t)) first = FAST_setp_eq_u16;
    else if (t == PTX_T_S32) first = FAST_setp_eq_s32;
    else if (is_u32(t)) first = FAST_setp_eq_u32;
    else if (t == PTX_T_S64) first = FAST_setp_eq_s64;
    else if (is_u64(t)) first = FAST_setp_eq_u64;
    else return FAST_NONE;
    bool sgn = t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
    if (c >= PTX_CMP_EQ && c <= PTX_CMP_GE) return first + (c - PTX_CMP_EQ);
    if (!sgn && c >= PTX_CMP_LO && c <= PTX_CMP_HS)        /* lo ls hi hs: lt le gt ge */
        return first + 2 + (c - PTX_CMP_LO);
    return FAST_NONE;
}

static int int_of(const ptx_mods *m)
{
    ptx_type t = m->types[0];
    uint32_t f = m->flags;
    bool b16 = is_u16(t) || t == PTX_T_S16, b32 = is_32(t), b64 = is_64(t), sgn = t == PTX_T_S32;
    if (!b16 && !b32 && !b64 && t != PTX_T_PRED) return FAST_NONE;
    switch (m->op) {
    case PTX_OP_ADD: if (f) break; return b16 ? FAST_add_16 : b32 ? FAST_add_32 : b64 ? FAST_add_64 : FAST_NONE;
    case PTX_OP_SUB: if (f) break; return b16 ? FAST_sub_16 : b32 ? FAST_sub_32 : b64 ? FAST_sub_64 : FAST_NONE;
    case PTX_OP_DIV: case PTX_OP_REM: {
        if (f || !(b32 || b64)) break;
        bool s = t == PTX_T_S32 || t == PTX_T_S64;
        int first = b32 ? (s ? FAST_div_s32 : FAST_div_u32) : (s ? FAST_div_s64 : FAST_div_u64);
        return first + (m->op == PTX_OP_REM ? 2 : 0);      /* rem_X follows div_X by two */
    }
    case PTX_OP_MUL: case PTX_OP_MAD: {
        if (b16) break;
        bool mad = m->op == PTX_OP_MAD;
        if (f == 0 || f == PTX_F_LO)
            return b32 ? (mad ? FAST_mad_lo_32 : FAST_mul_lo_32) :
                   b64 ? (mad ? FAST_mad_lo_64 : FAST_mul_lo_64) : FAST_NONE;
        if (f == PTX_F_WIDE && b32)
            return sgn ? (mad ? FAST_mad_wide_s32 : FAST_mul_wide_s32)
                       : (mad ? FAST_mad_wide_u32 : FAST_mul_wide_u32);
        if (f == PTX_F_HI && b32 && !mad) return sgn ? FAST_mul_hi_s32 : FAST_mul_hi_u32;
        break;
    }
    case PTX_OP_SHL:
        if (b16) break;
        if (f || t == PTX_T_S32 || t == PTX_T_S64) break;
        return b32 ? FAST_shl_32 : b64 ? FAST_shl_64 : FAST_NONE;
    case PTX_OP_SHR:
        if (f || b16) break;
        if (b32) return sgn ? FAST_shr_s32 : FAST_shr_u32;
        if (b64) return t == PTX_T_S64 ? FAST_shr_s64 : FAST_shr_u64;
        break;
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
        /* the bit types and predicates only (alu_int_supports) */
        if (f || t == PTX_T_S32 || t == PTX_T_S64 || t == PTX_T_U32 || t == PTX_T_U64) break;
        if (m->op == PTX_OP_AND) return FAST_and_any;
        if (m->op == PTX_OP_OR) return FAST_or_any;
        if (m->op == PTX_OP_XOR) return FAST_xor_any;
        return t == PTX_T_PRED ? FAST_not_pred : b16 ? FAST_not_16 : b32 ? FAST_not_32 : FAST_not_64;
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (f || !b32) break;
        if (m->op == PTX_OP_MIN) return sgn ? FAST_min_s32 : FAST_min_u32;
        return sgn ? FAST_max_s32 : FAST_max_u32;
    case PTX_OP_NEG:
        return f == 0 && sgn ? FAST_neg_s32 : FAST_NONE;
    default: break;
    }
    return FAST_NONE;
}

static bool fma_hw(void)
{
#ifdef HAVE_FMA_HW
    return __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

static int float_of(const ptx_mods *m)
{
    bool s = m->types[0] == PTX_T_F32;
    if (s && m->flags == PTX_F_FTZ && rn(m)) {
        switch (m->op) {
        case PTX_OP_ADD: return FAST_add_ftz_f32;
        case PTX_OP_SUB: return FAST_sub_ftz_f32;
        case PTX_OP_MUL: return FAST_mul_ftz_f32;
        case PTX_OP_MAD: case PTX_OP_FMA: return FAST_fma_ftz_f32;
        default: return FAST_NONE;
        }
    }
    if (m->flags || !rn(m)) return FAST_NONE;
    switch (m->op) {
    case PTX_OP_ADD: return s ? FAST_add_f32 : FAST_add_f64;
    case PTX_OP_SUB: return s ? FAST_sub_f32 : FAST_sub_f64;
    case PTX_OP_MUL: return s ? FAST_mul_f32 : FAST_mul_f64;
    case PTX_OP_MAD: case PTX_OP_FMA: return s ? (fma_hw() ? FAST_fma_f32_hw : FAST_fma_f32) : FAST_fma_f64;
    case PTX_OP_DIV: return s ? FAST_div_f32 : FAST_NONE;
    case PTX_OP_NEG: return s && m->rounding == PTX_RND_NONE ? FAST_neg_f32 : FAST_NONE;
    case PTX_OP_ABS: return s && m->rounding == PTX_RND_NONE ? FAST_abs_f32 : FAST_NONE;
    case PTX_OP_MIN: return s && m->rounding == PTX_RND_NONE ? FAST_min_f32 : FAST_NONE;
    case PTX_OP_MAX: return s && m->rounding == PTX_RND_NONE ? FAST_max_f32 : FAST_NONE;
    default: return FAST_NONE;
    }
}

/* sqrt.rn.f32 and rcp.rn.f32 without modifiers (alu_sfu.c's sfu_f32). */
static int sfu_of(const ptx_mods *m)
{
    if (m->types[0] != PTX_T_F32 || m->flags || m->rounding != PTX_RND_RN) return FAST_NONE;
    return m->op == PTX_OP_SQRT ? FAST_sqrt_f32 : m->op == PTX_OP_RCP ? FAST_rcp_f32 : FAST_NONE;
}

static int cvt_of(const ptx_mods *m)
{
    ptx_type d = m->types[0], s = m->types[1];
    if (m->flags) return FAST_NONE;
    bool s32 = is_32(s);
    if (m->rounding == PTX_RND_NONE) {
        if (!alu_is_int(s) || !alu_is_int(d)) return FAST_NONE;
        /* the source's value (sign- or zero-extended) cut to the
         * destination's width, as alu_cvt.c's cvt_one */
        unsigned sb = alu_bits(s), db = alu_bits(d);
        if (alu_is_signed(s) && sb < db) {
            if (sb == 32) return FAST_cvt_sext32;
            if (sb == 16) return db == 32 ? FAST_cvt_sext16_32 : FAST_cvt_sext16_64;
            return db == 16 ? FAST_cvt_sext8_16 : db == 32 ? FAST_cvt_sext8_32 : FAST_cvt_sext8_64;
        }
        unsigned n = sb < db ? sb : db;
        return n == 8 ? FAST_cvt_low8 : n == 16 ? FAST_cvt_low16 : n == 32 ? FAST_cvt_low32 : FAST_NONE;
    }
    if (m->rounding == PTX_RND_RN && d == PTX_T_F32 && s32)
        return s == PTX_T_S32 ? FAST_cvt_f32_s32 : FAST_cvt_f32_u32;
    if (m->rounding == PTX_RND_RZI && d == PTX_T_S32 && s == PTX_T_F32)
        return FAST_cvt_rzi_s32_f32;
    return FAST_NONE;
}

uint8_t ws_alu_fast_of(const ptx_mods *m)
{
    if (!ws_alu_supports(m, NULL, 0)) return FAST_NONE;
    int h;
    switch (ws_alu_family_of(m)) {
    case WS_FAM_INT: h = int_of(m); break;
    case WS_FAM_FLOAT: h = float_of(m); break;
    case WS_FAM_CMP:
        h = m->op == PTX_OP_SETP ? setp_of(m) : m->op == PTX_OP_SELP ? FAST_selp_any : FAST_NONE;
        break;
    case WS_FAM_CVT: h = cvt_of(m); break;
    case WS_FAM_SFU: h = sfu_of(m); break;
    default: h = FAST_NONE; break;
    }
    return (uint8_t)h;
}
