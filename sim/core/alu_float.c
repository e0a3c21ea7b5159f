/* f32 and f64 arithmetic: add sub mul mad fma div min max abs neg copysign
 * testp.  The default .rn path uses the host's IEEE arithmetic; directed
 * f32 rounding rounds a round-to-odd double once more (exact, no fenv);
 * directed f64 rounding sets the host rounding mode around the operation. */
#include <math.h>
#include "alu_impl.h"

static bool rnd_ieee(int r) { return r >= PTX_RND_NONE && r <= PTX_RND_RP; }
static bool only(uint32_t flags, uint32_t allowed) { return (flags & ~allowed) == 0; }

bool alu_float_supports(const ptx_mods *m)
{
    ptx_type t = m->types[0];
    uint32_t f = m->flags;
    bool f32 = t == PTX_T_F32;
    if (m->ntypes != 1 || (t != PTX_T_F32 && t != PTX_T_F64))
        return false;
    switch (m->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA:
        return rnd_ieee(m->rounding) && only(f, f32 ? PTX_F_FTZ | PTX_F_SAT : 0);
    case PTX_OP_DIV:
        if (!f32)
            return rnd_ieee(m->rounding) && f == 0;
        if (f & (PTX_F_APPROX | PTX_F_FULL))
            return m->rounding == PTX_RND_NONE &&
                   (f == (PTX_F_APPROX | (f & PTX_F_FTZ)) || f == (PTX_F_FULL | (f & PTX_F_FTZ)));
        return rnd_ieee(m->rounding) && only(f, PTX_F_FTZ);
    case PTX_OP_MIN: case PTX_OP_MAX:
        return m->rounding == PTX_RND_NONE && only(f, f32 ? PTX_F_FTZ | PTX_F_NAN : 0);
    case PTX_OP_ABS: case PTX_OP_NEG:
        return m->rounding == PTX_RND_NONE && only(f, f32 ? PTX_F_FTZ : 0);
    case PTX_OP_COPYSIGN:
        return m->rounding == PTX_RND_NONE && f == 0;
    case PTX_OP_TESTP:
        return m->rounding == PTX_RND_NONE && f == 0 &&
               m->subop >= PTX_SUB_TESTP_FINITE && m->subop <= PTX_SUB_TESTP_SUBNORMAL;
    default:
        return false;
    }
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_DIV };

static uint64_t sat32(uint64_t r)
{
    float x = alu_f32(r);
    if (!(x > 0.0f)) return 0;          /* NaN, negatives and -0 become +0 */
    if (x > 1.0f) return 0x3F800000u;
    return r;
}

/* One f32 operation with every modifier; the slow path. */
static uint64_t f32_op(int op, uint64_t a, uint64_t b, uint64_t c, int rnd, uint32_t fl)
{
    if (fl & PTX_F_FTZ) {
        a = alu_ftz32((uint32_t)a); b = alu_ftz32((uint32_t)b); c = alu_ftz32((uint32_t)c);
    }
    float x = alu_f32(a), y = alu_f32(b), z = alu_f32(c);
    uint64_t r;
    if (rnd == PTX_RND_NONE || rnd == PTX_RND_RN) {
        float v;
        switch (op) {
        case OP_ADD: v = x + y; break;
        case OP_SUB: v = x - y; break;
        case OP_MUL: v = x * y; break;
        case OP_FMA: v = fmaf(x, y, z); break;
        default:     v = x / y; break;
        }
        r = alu_f32_bits(v);
    } else {
        double v, dx = x, dy = y, dz = z;
        int neg = 1;
        if (rnd == PTX_RND_RM && op != OP_DIV) {
            /* an exact zero sum is -0 in .rm: compute -((-x) + (-y)), whose
             * host round-to-nearest zero has the sign .rm wants */
            dx = -dx; dz = -dz; neg = -1;
            if (op == OP_ADD || op == OP_SUB)
                dy = -dy;
        }
        switch (op) {
        case OP_ADD: v = alu_add_odd(dx, dy); break;
        case OP_SUB: v = alu_add_odd(dx, -dy); break;
        case OP_MUL: v = dx * dy; break;                /* exact */
        case OP_FMA: v = alu_fma_odd(dx, dy, dz); break;
        default:     v = alu_div_odd(dx, dy); break;
        }
        v = neg * v;
        r = alu_from_double(&alu_fmt_f32, v, rnd);
    }
    if (alu_f32_isnan((uint32_t)r))
        return (fl & PTX_F_SAT) ? 0 : ALU_F32_NAN;
    if (fl & PTX_F_FTZ)
        r = alu_ftz32((uint32_t)r);
    if (fl & PTX_F_SAT)
        r = sat32(r);
    return r;
}

static uint64_t f64_op(int op, uint64_t a, uint64_t b, uint64_t c, int rnd)
{
    double x = alu_f64(a), y = alu_f64(b), z = alu_f64(c);
    static const int fop[] = { ALU_OP_ADD, ALU_OP_ADD, ALU_OP_MUL, ALU_OP_FMA, ALU_OP_DIV };
    if (op == OP_SUB)
        y = -y;
    return alu_f64_bits(alu_f64_rounded(fop[op], x, y, z, rnd));
}

/* div.approx.f32 is a * rcp.approx(b); for 2^126 < |b| < 2^128 the
 * reciprocal underflows, and the PTX ISA says the result is 0 (NaN when
 * a is infinite).  Elsewhere the correctly rounded quotient is within its
 * 2 ulp bound. */
static uint64_t div_approx32(uint64_t a, uint64_t b, uint32_t fl)
{
    uint32_t mb = (uint32_t)b & 0x7FFFFFFFu;
    if (mb > 0x7E800000u && mb < 0x7F800000u) {
        if (((uint32_t)a & 0x7FFFFFFFu) == 0x7F800000u || alu_f32_isnan((uint32_t)a))
            return ALU_F32_NAN;
        return ((uint32_t)a ^ (uint32_t)b) & 0x80000000u;
    }
    return f32_op(OP_DIV, a, b, 0, PTX_RND_RN, fl);
}

/* min/max: a NaN operand is ignored (both NaN: canonical NaN); .NaN makes
 * any NaN operand give the canonical NaN; -0 is less than +0. */
static uint64_t minmax(uint64_t a, uint64_t b, bool is_max, bool f32, uint32_t fl)
{
    uint64_t nan = f32 ? ALU_F32_NAN : ALU_F64_NAN;
    if (f32 && (fl & PTX_F_FTZ)) {
        a = alu_ftz32((uint32_t)a); b = alu_ftz32((uint32_t)b);
    }
    bool na = f32 ? alu_f32_isnan((uint32_t)a) : alu_f64_isnan(a);
    bool nb = f32 ? alu_f32_isnan((uint32_t)b) : alu_f64_isnan(b);
    if ((na && nb) || ((fl & PTX_F_NAN) && (na || nb)))
        return nan;
    if (na) return b;
    if (nb) return a;
    double x = f32 ? alu_f32(a) : alu_f64(a), y = f32 ? alu_f32(b) : alu_f64(b);
    if (x == y)     /* equal, or zeros of either sign: the sign bits decide */
        return is_max ? (a & b) : (a | b);
    return (x < y) != is_max ? a : b;
}

static uint64_t testp(int sub, uint64_t a, bool f32)
{
    double x = f32 ? alu_f32(a) : alu_f64(a);
    switch (sub) {
    case PTX_SUB_TESTP_FINITE:      return isfinite(x) != 0;
    case PTX_SUB_TESTP_INFINITE:    return isinf(x) != 0;
    case PTX_SUB_TESTP_NUMBER:      return !isnan(x);
    case PTX_SUB_TESTP_NOTANUMBER:  return isnan(x) != 0;
    case PTX_SUB_TESTP_NORMAL:
        if (f32) return ((uint32_t)a & 0x7F800000u) != 0 && ((uint32_t)a & 0x7F800000u) != 0x7F800000u;
        return isnormal(x) != 0;
    default: /* subnormal */
        if (f32) return ((uint32_t)a & 0x7F800000u) == 0 && ((uint32_t)a & 0x7FFFFFu) != 0;
        return fpclassify(x) == FP_SUBNORMAL;
    }
}

static uint64_t canon32(float v)
{
    return v != v ? ALU_F32_NAN : alu_f32_bits(v);
}

void alu_float_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    bool f32 = m->types[0] == PTX_T_F32;
    uint32_t fl = m->flags;
    int rnd = m->rounding, op;
    uint64_t sign = f32 ? 0x80000000u : 0x8000000000000000ull;

    switch (m->op) {
    case PTX_OP_ADD: op = OP_ADD; break;
    case PTX_OP_SUB: op = OP_SUB; break;
    case PTX_OP_MUL: op = OP_MUL; break;
    case PTX_OP_MAD: case PTX_OP_FMA: op = OP_FMA; break;
    case PTX_OP_DIV: op = OP_DIV; break;
    case PTX_OP_MIN: case PTX_OP_MAX: {
        bool is_max = m->op == PTX_OP_MAX;
        ALU_MAP(k, minmax(a, b, is_max, f32, fl));
        return;
    }
    case PTX_OP_ABS:
        if (f32 && (fl & PTX_F_FTZ)) ALU_MAP(k, alu_ftz32((uint32_t)a) & ~sign);
        else                         ALU_MAP(k, a & ~sign);
        return;
    case PTX_OP_NEG:
        if (f32 && (fl & PTX_F_FTZ)) ALU_MAP(k, alu_ftz32((uint32_t)a) ^ sign);
        else                         ALU_MAP(k, a ^ sign);
        return;
    case PTX_OP_COPYSIGN: ALU_MAP(k, (b & ~sign) | (a & sign)); return;
    case PTX_OP_TESTP: {
        int sub = m->subop;
        ALU_MAP(k, testp(sub, a, f32));
        return;
    }
    default: return;
    }

    if (!f32) {
        if (rnd == PTX_RND_NONE || rnd == PTX_RND_RN) {
            switch (op) {
            case OP_ADD: ALU_MAP(k, alu_f64_bits(alu_f64(a) + alu_f64(b))); break;
            case OP_SUB: ALU_MAP(k, alu_f64_bits(alu_f64(a) - alu_f64(b))); break;
            case OP_MUL: ALU_MAP(k, alu_f64_bits(alu_f64(a) * alu_f64(b))); break;
            case OP_FMA: ALU_MAP(k, alu_f64_bits(fma(alu_f64(a), alu_f64(b), alu_f64(c)))); break;
            default:     ALU_LANES(k, i) k->d[i] = alu_f64_bits(alu_f64(k->a[i]) / alu_f64(k->b[i])); break;
            }
        } else {
            ALU_LANES(k, i) k->d[i] = f64_op(op, k->a[i], k->b[i], k->c[i], rnd);
        }
        return;
    }
    if (op == OP_DIV && (fl & PTX_F_APPROX)) {
        ALU_LANES(k, i) k->d[i] = div_approx32(k->a[i], k->b[i], fl);
        return;
    }
    if ((rnd == PTX_RND_NONE || rnd == PTX_RND_RN) && !(fl & (PTX_F_FTZ | PTX_F_SAT))) {
        switch (op) {   /* the common case, kept simple enough to vectorize */
        case OP_ADD: ALU_MAP(k, canon32(alu_f32(a) + alu_f32(b))); return;
        case OP_SUB: ALU_MAP(k, canon32(alu_f32(a) - alu_f32(b))); return;
        case OP_MUL: ALU_MAP(k, canon32(alu_f32(a) * alu_f32(b))); return;
        case OP_FMA: ALU_MAP(k, canon32(fmaf(alu_f32(a), alu_f32(b), alu_f32(c)))); return;
        default: break;
        }
    }
    ALU_LANES(k, i) k->d[i] = f32_op(op, k->a[i], k->b[i], k->c[i], rnd, fl);
}
