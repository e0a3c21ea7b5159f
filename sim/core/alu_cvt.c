/* cvt between u8..u64, s8..s64, f16, bf16, f32 and f64 (and the packing
 * cvt.f16x2.f32 / cvt.bf16x2.f32).
 *
 * Floats are widened to double exactly and rounded once to the target with
 * the integer rounding core, so every rounding mode is exact.  Float to
 * integer conversions always saturate on the GPU and turn NaN into 0.
 *
 * A NaN converted between f32 and f64 keeps its sign and its payload, left
 * aligned, and comes out quiet: widening appends zeros to the fraction
 * (the H200: f32 0x7fc00123 -> f64 0x7ff8002460000000), narrowing keeps
 * the top 23 of its 52 fraction bits.  That is IEEE 754-2008 6.2.3's
 * recommendation (a quiet NaN's payload survives a round trip through the
 * wider format); the narrowing is assumed to follow it, pending
 * cvt_rn_f32_f64 in validation/results/h200_counter_probe.csv.  Other
 * NaN conversions (to or from f16 and bf16, or with .sat) give the
 * target's canonical NaN (0 with .sat). */
#include <math.h>
#include <string.h>
#include "alu_impl.h"

typedef __int128 s128;

static bool fmt_ok(ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64;
}

static bool int_ok(ptx_type t) { return alu_is_int(t); }
static bool irnd(int r) { return r >= PTX_RND_RNI && r <= PTX_RND_RPI; }
static bool frnd(int r) { return r == PTX_RND_NONE || (r >= PTX_RND_RN && r <= PTX_RND_RP); }
static bool only(uint32_t flags, uint32_t allowed) { return (flags & ~allowed) == 0; }

bool alu_cvt_supports(const ptx_mods *m)
{
    if (m->ntypes != 2)
        return false;
    ptx_type d = m->types[0], s = m->types[1];
    uint32_t f = m->flags;
    int r = m->rounding;
    uint32_t ftz = (d == PTX_T_F32 || s == PTX_T_F32) ? PTX_F_FTZ : 0;
    if (d == PTX_T_F16X2 || d == PTX_T_BF16X2)
        return s == PTX_T_F32 && frnd(r) && only(f, PTX_F_RELU | PTX_F_SATFINITE);
    if (int_ok(d) && int_ok(s))
        return r == PTX_RND_NONE && only(f, PTX_F_SAT);
    if (int_ok(d) && fmt_ok(s))
        return irnd(r) && only(f, ftz | PTX_F_SAT);
    if (fmt_ok(d) && int_ok(s))
        return frnd(r) && only(f, ftz | PTX_F_SAT);
    if (fmt_ok(d) && fmt_ok(s)) {
        if (d == s)
            return (r == PTX_RND_NONE || irnd(r)) && only(f, ftz | PTX_F_SAT);
        uint32_t half = (d == PTX_T_F16 || d == PTX_T_BF16) ? PTX_F_RELU | PTX_F_SATFINITE : 0;
        if ((f & PTX_F_RELU) && (f & PTX_F_SAT))
            return false;
        return frnd(r) && only(f, ftz | PTX_F_SAT | half);
    }
    return false;
}

/* Integer source as a signed 128-bit value. */
static s128 int_value(uint64_t a, ptx_type t)
{
    unsigned n = alu_bits(t);
    return alu_is_signed(t) ? (s128)alu_sext(a, n) : (s128)alu_trunc(a, n);
}

static uint64_t int_clamp(s128 v, ptx_type t)
{
    unsigned n = alu_bits(t);
    s128 lo = alu_is_signed(t) ? -((s128)1 << (n - 1)) : 0;
    s128 hi = alu_is_signed(t) ? ((s128)1 << (n - 1)) - 1 : ((s128)1 << n) - 1;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return alu_trunc((uint64_t)v, n);
}

static double round_integral(double x, int r)
{
    switch (r) {
    case PTX_RND_RZI: return trunc(x);
    case PTX_RND_RMI: return floor(x);
    case PTX_RND_RPI: return ceil(x);
    default: {
        /* nearest, ties to even, without depending on the host rounding mode */
        double f = floor(x), diff = x - f;
        if (diff > 0.5 || (diff == 0.5 && fmod(f, 2.0) != 0))
            f += 1.0;
        return copysign(f, x);      /* -0.3 rounds to -0 */
    }
    }
}

static uint64_t float_to_int(double x, int r, ptx_type t)
{
    if (isnan(x))
        return 0;
    unsigned n = alu_bits(t);
    double v = round_integral(x, r);
    double lim = ldexp(1.0, alu_is_signed(t) ? (int)n - 1 : (int)n);   /* first out of range */
    if (v >= lim)
        return alu_mask_bits(alu_is_signed(t) ? n - 1 : n);
    if (alu_is_signed(t)) {
        if (v < -lim)
            return alu_trunc((uint64_t)1 << (n - 1), n);
        return alu_trunc((uint64_t)(int64_t)v, n);
    }
    if (v <= 0)
        return 0;
    return (uint64_t)v;
}

static uint64_t int_to_float(s128 v, const alu_fmt *f, int r)
{
    int sign = v < 0;
    uint64_t mag = (uint64_t)(sign ? -v : v);
    return alu_round_pack(f, sign, mag, 0, false, r);
}

static uint64_t sat_float(const alu_fmt *f, uint64_t bits)
{
    double x = alu_to_double(f, bits);
    if (!(x > 0)) return 0;
    if (x > 1) return alu_from_double(f, 1.0, PTX_RND_RN);
    return bits;
}

/* Modifiers that apply after rounding to a float destination. */
static uint64_t float_post(const alu_fmt *f, uint64_t r, uint32_t fl, bool src_inf)
{
    if (alu_fmt_isnan(f, r))
        return (fl & PTX_F_SAT) ? 0 : f->nan;
    if ((fl & PTX_F_FTZ) && f == &alu_fmt_f32)
        r = alu_fmt_ftz(f, r);
    if (fl & PTX_F_SAT)
        r = sat_float(f, r);
    unsigned sb = f->frac + f->ebits;
    if ((fl & PTX_F_RELU) && ((r >> sb) & 1))
        r = 0;
    if ((fl & PTX_F_SATFINITE) && !src_inf) {
        uint64_t inf = alu_mask_bits(f->ebits) << f->frac;
        if ((r & ~((uint64_t)1 << sb)) == inf)
            r -= 1;     /* overflow to inf becomes the largest finite value */
    }
    if ((fl & PTX_F_SATFINITE) && src_inf)
        r -= 1;
    return r;
}

/* A NaN a of type s (f32 or f64) as the other of the two. */
static uint64_t nan_f32_f64(ptx_type s, uint64_t a)
{
    if (s == PTX_T_F32)
        return ((a & 0x80000000u) << 32) | 0x7FF8000000000000ull | ((a & 0x7FFFFFu) << 29);
    return ((a >> 32) & 0x80000000u) | 0x7FC00000u | ((a >> 29) & 0x7FFFFFu);
}

/* cvt.f32.f16: exact, every f16 value being an f32 value (the host's own
 * conversion, a few instructions against a way through double); a NaN as
 * the general path makes it. */
static uint64_t f16_to_f32(uint64_t a)
{
    uint16_t h = (uint16_t)a;
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
        return alu_from_double(&alu_fmt_f32, alu_to_double(&alu_fmt_f16, a), PTX_RND_RN);
    _Float16 x;
    memcpy(&x, &h, 2);
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t cvt_one(const ptx_mods *m, ptx_type d, ptx_type s, uint64_t a)
{
    uint32_t fl = m->flags;
    int r = m->rounding;
    if (alu_is_int(d) && alu_is_int(s)) {
        s128 v = int_value(a, s);
        return (fl & PTX_F_SAT) ? int_clamp(v, d) : alu_trunc((uint64_t)v, alu_bits(d));
    }
    if (alu_is_int(s)) {
        const alu_fmt *f = alu_fmt_of(d);
        return float_post(f, int_to_float(int_value(a, s), f, r == PTX_RND_NONE ? PTX_RND_RN : r), fl, false);
    }
    const alu_fmt *fs = alu_fmt_of(s);
    bool f32_f64 = (s == PTX_T_F32 && d == PTX_T_F64) || (s == PTX_T_F64 && d == PTX_T_F32);
    if (f32_f64 && !(fl & PTX_F_SAT) && alu_fmt_isnan(fs, a))
        return nan_f32_f64(s, a);
    if (s == PTX_T_F32 && (fl & PTX_F_FTZ))
        a = alu_fmt_ftz(fs, a);
    double x = alu_to_double(fs, a);
    if (alu_is_int(d))
        return float_to_int(x, r, d);
    const alu_fmt *fd = alu_fmt_of(d);
    if (irnd(r))        /* same type: round to an integral value */
        return float_post(fd, alu_from_double(fd, isnan(x) ? x : round_integral(x, r), PTX_RND_RN), fl, false);
    return float_post(fd, alu_from_double(fd, x, r == PTX_RND_NONE ? PTX_RND_RN : r), fl, isinf(x));
}

void alu_cvt_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    ptx_type d = m->types[0], s = m->types[1];
    if (d == PTX_T_F16X2 || d == PTX_T_BF16X2) {
        /* d = {cvt(a), cvt(b)}: a in the high half, b in the low half */
        ptx_type h = d == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
        ALU_LANES(k, i)
            k->d[i] = (cvt_one(m, h, s, k->a[i]) << 16) | cvt_one(m, h, s, k->b[i]);
        return;
    }
    if (d == PTX_T_F32 && s == PTX_T_F16 && m->flags == 0) {
        ALU_MAP(k, f16_to_f32(a));
        return;
    }
    ALU_LANES(k, i) k->d[i] = cvt_one(m, d, s, k->a[i]);
}
