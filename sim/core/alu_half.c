/* Half precision arithmetic: add sub mul fma min max abs neg on .f16,
 * .f16x2, .bf16 and .bf16x2.  Each half is widened to double exactly, the
 * operation is rounded to odd there (products of halves are exact in
 * double), and the result is rounded once to the half format, so the
 * result is correctly rounded. */
#include "alu_impl.h"

static bool only(uint32_t flags, uint32_t allowed) { return (flags & ~allowed) == 0; }

bool alu_half_supports(const ptx_mods *m)
{
    ptx_type t = m->types[0];
    uint32_t f = m->flags;
    bool f16 = t == PTX_T_F16 || t == PTX_T_F16X2;
    if (m->ntypes != 1 || !alu_is_half(t))
        return false;
    bool rn = m->rounding == PTX_RND_NONE || m->rounding == PTX_RND_RN;
    switch (m->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
        return rn && only(f, f16 ? PTX_F_FTZ | PTX_F_SAT : 0);
    case PTX_OP_FMA:
        if ((f & PTX_F_SAT) && (f & PTX_F_RELU)) return false;
        return rn && only(f, f16 ? PTX_F_FTZ | PTX_F_SAT | PTX_F_RELU : PTX_F_RELU);
    case PTX_OP_MIN: case PTX_OP_MAX:
        return m->rounding == PTX_RND_NONE && only(f, f16 ? PTX_F_FTZ | PTX_F_NAN : PTX_F_NAN);
    case PTX_OP_ABS: case PTX_OP_NEG:
        return m->rounding == PTX_RND_NONE && only(f, f16 ? PTX_F_FTZ : 0);
    default:
        return false;
    }
}

static uint64_t h_sat(const alu_fmt *f, uint64_t r)
{
    double x = alu_to_double(f, r);
    if (!(x > 0)) return 0;
    if (x > 1) return f->ebits == 5 ? 0x3C00 : 0x3F80;
    return r;
}

static uint64_t h_arith(const alu_fmt *f, int op, uint64_t a, uint64_t b, uint64_t c,
                        int rnd, uint32_t fl)
{
    if (fl & PTX_F_FTZ) {
        a = alu_fmt_ftz(f, a); b = alu_fmt_ftz(f, b); c = alu_fmt_ftz(f, c);
    }
    double x = alu_to_double(f, a), y = alu_to_double(f, b), z = alu_to_double(f, c), v;
    switch (op) {
    case PTX_OP_ADD: v = alu_add_odd(x, y); break;
    case PTX_OP_SUB: v = alu_add_odd(x, -y); break;
    case PTX_OP_MUL: v = x * y; break;
    default:         v = alu_fma_odd(x, y, z); break;
    }
    uint64_t r = alu_from_double(f, v, rnd == PTX_RND_NONE ? PTX_RND_RN : rnd);
    if (alu_fmt_isnan(f, r))
        return (fl & PTX_F_SAT) ? 0 : f->nan;
    if (fl & PTX_F_FTZ)
        r = alu_fmt_ftz(f, r);
    if (fl & PTX_F_SAT)
        r = h_sat(f, r);
    if ((fl & PTX_F_RELU) && (r >> 15))
        r = 0;          /* negative results (and -0) become +0 */
    return r;
}

static uint64_t h_minmax(const alu_fmt *f, bool is_max, uint64_t a, uint64_t b, uint32_t fl)
{
    if (fl & PTX_F_FTZ) {
        a = alu_fmt_ftz(f, a); b = alu_fmt_ftz(f, b);
    }
    bool na = alu_fmt_isnan(f, a), nb = alu_fmt_isnan(f, b);
    if ((na && nb) || ((fl & PTX_F_NAN) && (na || nb)))
        return f->nan;
    if (na) return b;
    if (nb) return a;
    double x = alu_to_double(f, a), y = alu_to_double(f, b);
    if (x == y)
        return is_max ? (a & b) : (a | b);
    return (x < y) != is_max ? a : b;
}

static uint64_t h_one(const alu_fmt *f, const ptx_mods *m, uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t fl = m->flags;
    switch (m->op) {
    case PTX_OP_MIN: return h_minmax(f, false, a, b, fl);
    case PTX_OP_MAX: return h_minmax(f, true, a, b, fl);
    case PTX_OP_ABS: return ((fl & PTX_F_FTZ) ? alu_fmt_ftz(f, a) : a) & 0x7FFF;
    case PTX_OP_NEG: return ((fl & PTX_F_FTZ) ? alu_fmt_ftz(f, a) : a) ^ 0x8000;
    default:         return h_arith(f, m->op, a, b, c, m->rounding, fl);
    }
}

void alu_half_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    ptx_type t = m->types[0];
    const alu_fmt *f = (t == PTX_T_BF16 || t == PTX_T_BF16X2) ? &alu_fmt_bf16 : &alu_fmt_f16;
    if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        ALU_LANES(k, i) {
            uint64_t a = k->a[i], b = k->b[i], c = k->c[i];
            uint64_t lo = h_one(f, m, a & 0xFFFF, b & 0xFFFF, c & 0xFFFF);
            uint64_t hi = h_one(f, m, (a >> 16) & 0xFFFF, (b >> 16) & 0xFFFF, (c >> 16) & 0xFFFF);
            k->d[i] = (hi << 16) | lo;
        }
    } else {
        ALU_LANES(k, i) k->d[i] = h_one(f, m, k->a[i] & 0xFFFF, k->b[i] & 0xFFFF, k->c[i] & 0xFFFF);
    }
}
