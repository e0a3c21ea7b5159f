/* Floating-point formats and rounding done with integers, so every
 * rounding mode is exact without touching the host's floating-point
 * environment (except alu_f64_rounded, which must). */
#include <fenv.h>
#include <math.h>
#include "alu_impl.h"

const alu_fmt alu_fmt_f16  = { 10, 5, ALU_F16_NAN };
const alu_fmt alu_fmt_bf16 = { 7, 8, ALU_BF16_NAN };
const alu_fmt alu_fmt_f32  = { 23, 8, ALU_F32_NAN };
const alu_fmt alu_fmt_f64  = { 52, 11, ALU_F64_NAN };

static uint64_t overflow(const alu_fmt *f, int sign, int rnd)
{
    uint64_t inf = alu_mask_bits(f->ebits) << f->frac, maxf = inf - 1, r;
    switch (rnd) {
    case PTX_RND_RZ: r = maxf; break;
    case PTX_RND_RP: r = sign ? maxf : inf; break;
    case PTX_RND_RM: r = sign ? inf : maxf; break;
    default:         r = inf; break;
    }
    return r | ((uint64_t)sign << (f->frac + f->ebits));
}

uint64_t alu_round_pack(const alu_fmt *f, int sign, uint64_t sig, int exp,
                        bool sticky, int rnd)
{
    uint64_t sbit = (uint64_t)(sign != 0) << (f->frac + f->ebits);
    if (sig == 0)
        return sbit;
    int lz = __builtin_clzll(sig);
    uint64_t n = sig << lz;                     /* leading 1 at bit 63 */
    int64_t E = (int64_t)exp + 63 - lz;         /* value = n * 2^(E-63) */
    int64_t bias = ((int64_t)1 << (f->ebits - 1)) - 1;
    int64_t emin = 1 - bias;
    unsigned p = f->frac + 1;
    int64_t shift = 64 - (int64_t)p;            /* bits below the last kept one */
    if (E < emin)
        shift += emin - E;                      /* subnormal: fewer bits kept */

    uint64_t kept, rem, half;
    bool more = sticky;
    if (shift < 64) {
        kept = n >> shift;
        rem = n & alu_mask_bits((unsigned)shift);
        half = (uint64_t)1 << (shift - 1);
    } else if (shift == 64) {
        kept = 0; rem = n; half = (uint64_t)1 << 63;
    } else {
        kept = 0; rem = 0; half = 1; more = true;   /* below half an ulp */
    }

    bool inexact = rem != 0 || more, up;
    switch (rnd) {
    case PTX_RND_RZ: up = false; break;
    case PTX_RND_RP: up = inexact && !sign; break;
    case PTX_RND_RM: up = inexact && sign; break;
    default:         up = rem > half || (rem == half && (more || (kept & 1))); break;
    }
    kept += up;

    if (E < emin)       /* subnormal; a carry into bit frac makes it the least normal */
        return sbit | kept;
    if (kept >> p) {
        kept >>= 1;
        E++;
    }
    if (E > bias)
        return overflow(f, sign, rnd);
    return sbit | ((uint64_t)(E + bias) << f->frac) | (kept & alu_mask_bits(f->frac));
}

uint64_t alu_from_double(const alu_fmt *f, double x, int rnd)
{
    uint64_t u = alu_f64_bits(x);
    int sign = (int)(u >> 63);
    unsigned ex = (unsigned)(u >> 52) & 0x7FF;
    uint64_t m = u & alu_mask_bits(52);
    if (ex == 0x7FF) {
        if (m)
            return f->nan;
        return ((uint64_t)sign << (f->frac + f->ebits)) | (alu_mask_bits(f->ebits) << f->frac);
    }
    if (ex == 0)
        return alu_round_pack(f, sign, m, -1074, false, rnd);
    return alu_round_pack(f, sign, m | ((uint64_t)1 << 52), (int)ex - 1075, false, rnd);
}

double alu_to_double(const alu_fmt *f, uint64_t bits)
{
    if (f->ebits == 11)
        return alu_f64(bits);
    int sign = (int)((bits >> (f->frac + f->ebits)) & 1);
    uint64_t ex = (bits >> f->frac) & alu_mask_bits(f->ebits);
    uint64_t m = bits & alu_mask_bits(f->frac);
    int bias = (1 << (f->ebits - 1)) - 1;
    double v;
    if (ex == alu_mask_bits(f->ebits))
        v = m ? NAN : INFINITY;
    else if (ex == 0)
        v = ldexp((double)m, 1 - bias - (int)f->frac);
    else
        v = ldexp((double)(m | ((uint64_t)1 << f->frac)), (int)ex - bias - (int)f->frac);
    return sign ? -v : v;
}

bool alu_fmt_isnan(const alu_fmt *f, uint64_t bits)
{
    uint64_t ex = (bits >> f->frac) & alu_mask_bits(f->ebits);
    return ex == alu_mask_bits(f->ebits) && (bits & alu_mask_bits(f->frac)) != 0;
}

uint64_t alu_fmt_ftz(const alu_fmt *f, uint64_t bits)
{
    if (((bits >> f->frac) & alu_mask_bits(f->ebits)) == 0)
        return bits & ((uint64_t)1 << (f->frac + f->ebits));
    return bits;
}

double alu_odd(double s, double err)
{
    if (err == 0 || !isfinite(s) || s == 0)
        return s;
    uint64_t u = alu_f64_bits(s);
    if ((err < 0) != (s < 0))
        u -= 1;         /* s rounded away from zero: step back toward it */
    return alu_f64(u | 1);
}

double alu_add_odd(double a, double b)
{
    double s = a + b;
    if (!isfinite(s))
        return s;
    double bb = s - a;                      /* Knuth's TwoSum: s + err == a + b */
    double err = (a - (s - bb)) + (b - bb);
    return alu_odd(s, err);
}

double alu_fma_odd(double a, double b, double c)
{
    return alu_add_odd(a * b, c);
}

double alu_div_odd(double a, double b)
{
    double q = a / b;
    if (!isfinite(q) || q == 0 || !isfinite(b))
        return q;
    double r = fma(-q, b, a);               /* exact: a - q*b */
    return alu_odd(q, b < 0 ? -r : r);
}

double alu_sqrt_odd(double a)
{
    double s = sqrt(a);
    if (!isfinite(s) || s == 0)
        return s;
    return alu_odd(s, fma(-s, s, a));
}

double alu_f64_rounded(int op, double a, double b, double c, int rnd)
{
    int mode;
    switch (rnd) {
    case PTX_RND_RZ: mode = FE_TOWARDZERO; break;
    case PTX_RND_RM: mode = FE_DOWNWARD; break;
    case PTX_RND_RP: mode = FE_UPWARD; break;
    default:         mode = FE_TONEAREST; break;
    }
    int old = fegetround();
    if (mode != old)
        fesetround(mode);
    /* volatile keeps the operation between the two fesetround calls */
    volatile double va = a, vb = b, vc = c, vr;
    switch (op) {
    case ALU_OP_ADD: vr = va + vb; break;
    case ALU_OP_MUL: vr = va * vb; break;
    case ALU_OP_FMA: vr = fma(va, vb, vc); break;
    case ALU_OP_DIV: vr = va / vb; break;
    default:         vr = sqrt(va); break;
    }
    double r = vr;
    if (mode != old)
        fesetround(old);
    return r;
}
