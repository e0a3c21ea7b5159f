/* The read-modify-write of atom and red: new memory value from the old one.
 *
 * Float rules (checked on an H200, see tests/warpops/gpu_probe):
 *  - add.f32 rounds to nearest even.  On global (and generic) memory it
 *    flushes subnormal inputs and results to sign-preserving zero, as the
 *    PTX ISA states for atom.add.f32; on shared memory the GPU keeps
 *    subnormals (the hardware has no shared float-add atomic, and the
 *    compare-and-swap loop it uses instead does not flush), so warpsim
 *    keeps them there too.
 *  - add.f64 keeps subnormals; add.f16/.f16x2/.bf16/.bf16x2 (.noftz) too.
 *  - a NaN result is the GPU's canonical NaN.
 *  - min/max.f32/.f64 follow the rules of min/max: a NaN operand yields the
 *    other operand, and -0 is below +0. */
#include "warp_ops.h"

#include <math.h>
#include <string.h>

#define F32_NAN 0x7FFFFFFFu
#define F64_NAN 0xFFF8000000000000ull   /* the NaN warpsim's ALU produces for f64 */
#define F16_NAN 0x7FFFu

static float f32_of(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static uint32_t ftz32(uint32_t u) { return (u & 0x7F800000u) == 0 ? (u & 0x80000000u) : u; }

static uint32_t add_f32(uint32_t a, uint32_t b, bool ftz)
{
    if (ftz) { a = ftz32(a); b = ftz32(b); }
    uint32_t r = f32_bits(f32_of(a) + f32_of(b));   /* SSE arithmetic: IEEE RN */
    if ((r & 0x7FFFFFFFu) > 0x7F800000u) return F32_NAN;
    return ftz ? ftz32(r) : r;
}

static uint64_t add_f64(uint64_t a, uint64_t b)
{
    uint64_t r = f64_bits(f64_of(a) + f64_of(b));
    return (r & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull ? F64_NAN : r;
}

/* Half-precision adds: the exact sum of two f16 or bf16 values fits a
 * double, so one rounding to the narrow format is the correct result. */
static double f16_to_double(uint16_t h) { _Float16 f; memcpy(&f, &h, 2); return (double)f; }
static uint16_t f16_add(uint16_t a, uint16_t b)
{
    _Float16 r = (_Float16)(f16_to_double(a) + f16_to_double(b));
    uint16_t u; memcpy(&u, &r, 2);
    return (u & 0x7FFFu) > 0x7C00u ? F16_NAN : u;
}
static double bf16_to_double(uint16_t h) { return (double)f32_of((uint32_t)h << 16); }
static uint16_t bf16_add(uint16_t a, uint16_t b)
{
    double s = bf16_to_double(a) + bf16_to_double(b);   /* exact */
    if (isnan(s)) return 0x7FFFu;
    /* to float is exact unless it needs more than 24 bits; round to odd
     * there, so the final rounding to 8 bits is still correct. */
    float f = (float)s;
    if ((double)f != s && !isinf(f)) {
        uint32_t u = f32_bits(f);
        if (fabs((double)f) > fabs(s)) u -= 1;          /* truncate toward zero */
        f = f32_of(u | 1u);                             /* then set the sticky bit */
    }
    uint32_t u = f32_bits(f);
    uint32_t rounded = u + 0x7FFFu + ((u >> 16) & 1u); /* RN-even on the low 16 bits */
    return (uint16_t)(rounded >> 16);
}

/* min/max with the PTX min/max NaN and signed-zero rules. */
static uint64_t minmax_f32(uint32_t a, uint32_t b, bool is_max)
{
    bool na = (a & 0x7FFFFFFFu) > 0x7F800000u, nb = (b & 0x7FFFFFFFu) > 0x7F800000u;
    if (na && nb) return F32_NAN;
    if (na) return b;
    if (nb) return a;
    float x = f32_of(a), y = f32_of(b);
    if (x == y) {           /* equal values: only +0 / -0 differ */
        bool a_neg = a >> 31;
        return (a_neg == is_max) ? b : a;
    }
    return ((x < y) != is_max) ? a : b;
}

static uint64_t minmax_f64(uint64_t a, uint64_t b, bool is_max)
{
    bool na = isnan(f64_of(a)), nb = isnan(f64_of(b));
    if (na && nb) return F64_NAN;
    if (na) return b;
    if (nb) return a;
    double x = f64_of(a), y = f64_of(b);
    if (x == y) {
        bool a_neg = a >> 63;
        return (a_neg == is_max) ? b : a;
    }
    return ((x < y) != is_max) ? a : b;
}

static uint64_t width_mask(uint32_t bytes)
{
    return bytes >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (bytes * 8)) - 1);
}

static int64_t sext(uint64_t v, uint32_t bytes)
{
    if (bytes >= 8) return (int64_t)v;
    uint64_t sign = (uint64_t)1 << (bytes * 8 - 1);
    v &= width_mask(bytes);
    return (int64_t)((v ^ sign) - sign);
}

static uint64_t atom_float(const ptx_mods *m, ptx_type t, uint64_t old, uint64_t b)
{
    bool is_max = m->subop == PTX_SUB_ATOM_MAX;
    switch (t) {
    case PTX_T_F32:
        if (m->subop == PTX_SUB_ATOM_ADD)
            return add_f32((uint32_t)old, (uint32_t)b, m->space != PTX_SPACE_SHARED);
        return minmax_f32((uint32_t)old, (uint32_t)b, is_max);
    case PTX_T_F64:
        if (m->subop == PTX_SUB_ATOM_ADD) return add_f64(old, b);
        return minmax_f64(old, b, is_max);
    case PTX_T_F16:
        return f16_add((uint16_t)old, (uint16_t)b);
    case PTX_T_BF16:
        return bf16_add((uint16_t)old, (uint16_t)b);
    case PTX_T_F16X2:
        return f16_add((uint16_t)old, (uint16_t)b)
             | (uint64_t)f16_add((uint16_t)(old >> 16), (uint16_t)(b >> 16)) << 16;
    case PTX_T_BF16X2:
        return bf16_add((uint16_t)old, (uint16_t)b)
             | (uint64_t)bf16_add((uint16_t)(old >> 16), (uint16_t)(b >> 16)) << 16;
    default:
        return old;
    }
}

uint64_t ws_atom_apply(const ptx_mods *m, uint64_t old, uint64_t b, uint64_t c)
{
    ptx_type t = m->ntypes ? m->types[0] : PTX_T_B32;
    uint32_t size = ptx_type_size(t);
    uint64_t wm = width_mask(size);
    old &= wm; b &= wm; c &= wm;

    if (ptx_type_is_float(t) &&
        (m->subop == PTX_SUB_ATOM_ADD || m->subop == PTX_SUB_ATOM_MIN || m->subop == PTX_SUB_ATOM_MAX))
        return atom_float(m, t, old, b) & wm;

    bool is_signed = ptx_type_is_signed(t);
    switch (m->subop) {
    case PTX_SUB_ATOM_ADD:  return (old + b) & wm;
    case PTX_SUB_ATOM_MIN:
        if (is_signed) return sext(old, size) <= sext(b, size) ? old : b;
        return old <= b ? old : b;
    case PTX_SUB_ATOM_MAX:
        if (is_signed) return sext(old, size) >= sext(b, size) ? old : b;
        return old >= b ? old : b;
    case PTX_SUB_ATOM_EXCH: return b;
    case PTX_SUB_ATOM_CAS:  return old == b ? c : old;
    case PTX_SUB_ATOM_INC:  return old >= b ? 0 : (old + 1) & wm;
    case PTX_SUB_ATOM_DEC:  return (old == 0 || old > b) ? b : old - 1;
    case PTX_SUB_ATOM_AND:  return old & b;
    case PTX_SUB_ATOM_OR:   return old | b;
    case PTX_SUB_ATOM_XOR:  return old ^ b;
    default:                return old;
    }
}
