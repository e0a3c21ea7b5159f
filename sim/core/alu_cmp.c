/* Comparison and selection: setp set selp slct. */
#include <math.h>
#include "alu_impl.h"

static bool cmp_is_float_only(int c) { return c >= PTX_CMP_EQU && c <= PTX_CMP_NAN; }
static bool cmp_is_unsigned_only(int c) { return c >= PTX_CMP_LO && c <= PTX_CMP_HS; }

static bool cmp_ok(int c, ptx_type t)
{
    if (c <= PTX_CMP_NONE || c > PTX_CMP_NAN)
        return false;
    if (alu_is_float(t))
        return !cmp_is_unsigned_only(c);
    if (!alu_is_int(t) || alu_bits(t) < 16)
        return false;
    if (cmp_is_float_only(c))
        return false;
    return !(alu_is_signed(t) && cmp_is_unsigned_only(c));
}

static bool ftz_ok(const ptx_mods *m, ptx_type t)
{
    if (!(m->flags & PTX_F_FTZ))
        return m->flags == 0;
    return m->flags == PTX_F_FTZ && (t == PTX_T_F32 || t == PTX_T_F16 || t == PTX_T_F16X2);
}

bool alu_cmp_supports(const ptx_mods *m)
{
    ptx_type t0 = m->types[0], t1 = m->types[1];
    if (m->rounding != PTX_RND_NONE)
        return false;
    switch (m->op) {
    case PTX_OP_SETP:
        return m->ntypes == 1 && cmp_ok(m->cmp, t0) && ftz_ok(m, t0) && m->boolop <= PTX_BOOL_XOR;
    case PTX_OP_SET:
        return m->ntypes == 2 && (t0 == PTX_T_U32 || t0 == PTX_T_S32 || t0 == PTX_T_F32) &&
               !alu_is_half(t1) && cmp_ok(m->cmp, t1) && ftz_ok(m, t1) && m->boolop <= PTX_BOOL_XOR;
    case PTX_OP_SELP:
        return m->ntypes == 1 && m->flags == 0 && (alu_is_int(t0) || alu_is_float(t0)) &&
               alu_bits(t0) >= 16;
    case PTX_OP_SLCT:
        return m->ntypes == 2 && (alu_is_int(t0) || alu_is_float(t0)) && alu_bits(t0) >= 16 &&
               !alu_is_half(t0) && (t1 == PTX_T_S32 || t1 == PTX_T_F32) &&
               (m->flags == 0 || (m->flags == PTX_F_FTZ && t1 == PTX_T_F32));
    default:
        return false;
    }
}

static bool cmp_int(int c, int64_t sx, int64_t sy, uint64_t x, uint64_t y, bool sgn)
{
    switch (c) {
    case PTX_CMP_EQ: return x == y;
    case PTX_CMP_NE: return x != y;
    case PTX_CMP_LT: return sgn ? sx < sy : x < y;
    case PTX_CMP_LE: return sgn ? sx <= sy : x <= y;
    case PTX_CMP_GT: return sgn ? sx > sy : x > y;
    case PTX_CMP_GE: return sgn ? sx >= sy : x >= y;
    case PTX_CMP_LO: return x < y;
    case PTX_CMP_LS: return x <= y;
    case PTX_CMP_HI: return x > y;
    case PTX_CMP_HS: return x >= y;
    default: return false;
    }
}

static bool cmp_float(int c, double x, double y)
{
    bool nan = isnan(x) || isnan(y);
    switch (c) {
    case PTX_CMP_EQ:  return !nan && x == y;
    case PTX_CMP_NE:  return !nan && x != y;
    case PTX_CMP_LT:  return !nan && x < y;
    case PTX_CMP_LE:  return !nan && x <= y;
    case PTX_CMP_GT:  return !nan && x > y;
    case PTX_CMP_GE:  return !nan && x >= y;
    case PTX_CMP_EQU: return nan || x == y;
    case PTX_CMP_NEU: return nan || x != y;
    case PTX_CMP_LTU: return nan || x < y;
    case PTX_CMP_LEU: return nan || x <= y;
    case PTX_CMP_GTU: return nan || x > y;
    case PTX_CMP_GEU: return nan || x >= y;
    case PTX_CMP_NUM: return !nan;
    case PTX_CMP_NAN: return nan;
    default: return false;
    }
}

/* a cmp b for one value (one half of an x2 pair is passed alone). */
static bool compare(int c, ptx_type t, uint64_t a, uint64_t b, bool ftz)
{
    if (alu_is_float(t)) {
        const alu_fmt *f = alu_fmt_of(t);
        if (ftz) {
            a = alu_fmt_ftz(f, a); b = alu_fmt_ftz(f, b);
        }
        return cmp_float(c, alu_to_double(f, a), alu_to_double(f, b));
    }
    unsigned n = alu_bits(t);
    return cmp_int(c, alu_sext(a, n), alu_sext(b, n), alu_trunc(a, n), alu_trunc(b, n),
                   alu_is_signed(t));
}

static uint64_t combine(int op, bool t, uint64_t c)
{
    switch (op) {
    case PTX_BOOL_AND: return t & (c & 1);
    case PTX_BOOL_OR:  return t | (c & 1);
    case PTX_BOOL_XOR: return t ^ (c & 1);
    default:           return t;
    }
}

void alu_cmp_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    ptx_type t0 = m->types[0], t1 = m->types[1];
    bool ftz = (m->flags & PTX_F_FTZ) != 0;
    int cmpop = m->cmp, bop = m->boolop;
    switch (m->op) {
    case PTX_OP_SETP:
        if (t0 == PTX_T_F16X2 || t0 == PTX_T_BF16X2) {
            /* p from the low halves, q from the high halves */
            ALU_LANES(k, i) {
                bool lo = compare(cmpop, t0, k->a[i] & 0xFFFF, k->b[i] & 0xFFFF, ftz);
                bool hi = compare(cmpop, t0, (k->a[i] >> 16) & 0xFFFF, (k->b[i] >> 16) & 0xFFFF, ftz);
                k->d[i] = combine(bop, lo, k->c[i]);
                if (k->q)
                    k->q[i] = combine(bop, hi, k->c[i]);
            }
            return;
        }
        /* p = (a cmp b) OP c; q = !(a cmp b) OP c */
        ALU_LANES(k, i) {
            bool r = compare(cmpop, t0, k->a[i], k->b[i], ftz);
            k->d[i] = combine(bop, r, k->c[i]);
            if (k->q)
                k->q[i] = combine(bop, !r, k->c[i]);
        }
        return;
    case PTX_OP_SET: {
        uint64_t one = t0 == PTX_T_F32 ? 0x3F800000u : 0xFFFFFFFFu;
        ALU_MAP(k, combine(bop, compare(cmpop, t1, a, b, ftz), c) ? one : 0);
        return;
    }
    case PTX_OP_SELP: ALU_MAP(k, (c & 1) ? a : b); return;
    case PTX_OP_SLCT:
        if (t1 == PTX_T_F32) {
            /* c >= 0.0: false for NaN; -0 (and a flushed negative subnormal) selects a */
            ALU_MAP(k, alu_f32(ftz ? alu_ftz32((uint32_t)c) : (uint32_t)c) >= 0.0f ? a : b);
        } else {
            ALU_MAP(k, (int32_t)(uint32_t)c >= 0 ? a : b);
        }
        return;
    default: return;
    }
}
