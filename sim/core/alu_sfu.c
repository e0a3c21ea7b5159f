/* The special-function instructions: rcp sqrt (IEEE-rounded and .approx),
 * rsqrt ex2 lg2 sin cos tanh (.approx).
 *
 * The .approx forms of f32 and narrower types are computed in double and
 * rounded to the target, f64's rsqrt in long double: either is well
 * inside the error bounds the PTX ISA documents (ex2 2 ulp, lg2 2^-22.6
 * absolute, sin/cos 2^-20.9 absolute on [-pi, pi], rsqrt 2^-22.9
 * relative, tanh 2^-10.987 relative).  (The host's long double functions
 * cost several times the double ones: a softmax's ex2 spent an eighth of
 * its program's functional run in exp2l.) */
#include <math.h>
#include "alu_impl.h"

static bool only(uint32_t flags, uint32_t allowed) { return (flags & ~allowed) == 0; }
static bool ieee(int r) { return r >= PTX_RND_RN && r <= PTX_RND_RP; }

bool alu_sfu_supports(const ptx_mods *m)
{
    if (m->ntypes != 1)
        return false;
    ptx_type t = m->types[0];
    uint32_t f = m->flags;
    bool approx = (f & PTX_F_APPROX) && m->rounding == PTX_RND_NONE;
    bool f16 = t == PTX_T_F16 || t == PTX_T_F16X2, bf16 = t == PTX_T_BF16 || t == PTX_T_BF16X2;
    switch (m->op) {
    case PTX_OP_RCP: case PTX_OP_SQRT:
        if (t == PTX_T_F32)
            return approx ? only(f, PTX_F_APPROX | PTX_F_FTZ) : ieee(m->rounding) && only(f, PTX_F_FTZ);
        if (t == PTX_T_F64) {
            if (m->op == PTX_OP_RCP && approx)
                return f == (PTX_F_APPROX | PTX_F_FTZ);
            return ieee(m->rounding) && f == 0;
        }
        return false;
    case PTX_OP_RSQRT:
        return approx && (t == PTX_T_F32 || t == PTX_T_F64) && only(f, PTX_F_APPROX | PTX_F_FTZ);
    case PTX_OP_EX2:
        if (!approx) return false;
        if (t == PTX_T_F32 || bf16) return only(f, PTX_F_APPROX | PTX_F_FTZ);
        return f16 && f == PTX_F_APPROX;
    case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS:
        return approx && t == PTX_T_F32 && only(f, PTX_F_APPROX | PTX_F_FTZ);
    case PTX_OP_TANH:
        return approx && (t == PTX_T_F32 || f16 || bf16) && f == PTX_F_APPROX;
    default:
        return false;
    }
}

static double approx_fn(int op, double x)
{
    switch (op) {
    case PTX_OP_RCP:   return 1.0 / x;
    case PTX_OP_SQRT:  return sqrt(x);
    case PTX_OP_RSQRT: return 1.0 / sqrt(x);    /* -0 -> -inf, +0 -> +inf */
    case PTX_OP_EX2:   return exp2(x);
    case PTX_OP_LG2:   return log2(x);
    case PTX_OP_SIN:   return sin(x);
    case PTX_OP_COS:   return cos(x);
    default:           return tanh(x);
    }
}

static uint64_t sfu_f32(int op, uint64_t a, int rnd, uint32_t fl)
{
    bool ftz = (fl & PTX_F_FTZ) != 0;
    if (ftz)
        a = alu_ftz32((uint32_t)a);
    float x = alu_f32(a);
    uint64_t r;
    if (fl & PTX_F_APPROX) {
        r = alu_f32_bits((float)approx_fn(op, x));
    } else if (rnd == PTX_RND_RN) {
        r = alu_f32_bits(op == PTX_OP_RCP ? 1.0f / x : sqrtf(x));
    } else {
        double v = op == PTX_OP_RCP ? alu_div_odd(1.0, x) : alu_sqrt_odd(x);
        r = alu_from_double(&alu_fmt_f32, v, rnd);
    }
    if (alu_f32_isnan((uint32_t)r))
        return ALU_F32_NAN;
    return ftz ? alu_ftz32((uint32_t)r) : r;
}

static uint64_t sfu_f64(int op, uint64_t a, int rnd, uint32_t fl)
{
    bool ftz = (fl & PTX_F_FTZ) != 0;
    if (ftz)
        a = alu_ftz64(a);
    double x = alu_f64(a), v;
    if (fl & PTX_F_APPROX)      /* rcp and rsqrt (alu_sfu_supports): rsqrt in long double */
        v = op == PTX_OP_RCP ? 1.0 / x : (double)(1.0L / sqrtl(x));     /* -0 -> -inf */
    else if (op == PTX_OP_RCP)
        v = rnd == PTX_RND_RN ? 1.0 / x : alu_f64_rounded(ALU_OP_DIV, 1.0, x, 0, rnd);
    else
        v = rnd == PTX_RND_RN ? sqrt(x) : alu_f64_rounded(ALU_OP_SQRT, x, 0, 0, rnd);
    uint64_t r = alu_f64_bits(v);
    return ftz ? alu_ftz64(r) : r;
}

static uint64_t sfu_half(const alu_fmt *f, int op, uint64_t a, uint32_t fl)
{
    if (fl & PTX_F_FTZ)
        a = alu_fmt_ftz(f, a);
    double v = approx_fn(op, alu_to_double(f, a));
    uint64_t r = alu_from_double(f, v, PTX_RND_RN);
    if (alu_fmt_isnan(f, r))
        return f->nan;
    return (fl & PTX_F_FTZ) ? alu_fmt_ftz(f, r) : r;
}

void alu_sfu_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    ptx_type t = m->types[0];
    int op = m->op, rnd = m->rounding;
    uint32_t fl = m->flags;
    switch (t) {
    case PTX_T_F32: ALU_LANES(k, i) k->d[i] = sfu_f32(op, k->a[i], rnd, fl); break;
    case PTX_T_F64: ALU_LANES(k, i) k->d[i] = sfu_f64(op, k->a[i], rnd, fl); break;
    case PTX_T_F16: case PTX_T_BF16: {
        const alu_fmt *f = t == PTX_T_F16 ? &alu_fmt_f16 : &alu_fmt_bf16;
        ALU_LANES(k, i) k->d[i] = sfu_half(f, op, k->a[i] & 0xFFFF, fl);
        break;
    }
    case PTX_T_F16X2: case PTX_T_BF16X2: {
        const alu_fmt *f = t == PTX_T_F16X2 ? &alu_fmt_f16 : &alu_fmt_bf16;
        ALU_LANES(k, i)
            k->d[i] = (sfu_half(f, op, (k->a[i] >> 16) & 0xFFFF, fl) << 16) |
                      sfu_half(f, op, k->a[i] & 0xFFFF, fl);
        break;
    }
    default: break;
    }
}
