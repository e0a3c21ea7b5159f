/* Integer arithmetic, logic, shifts and mov.  Values are canonical (zero-
 * extended from the type width); each body computes in 64 or 128 bits and
 * truncates to the width, so wraparound is the GPU's and C never
 * overflows a signed type. */
#include "alu_impl.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

static bool only(uint32_t flags, uint32_t allowed) { return (flags & ~allowed) == 0; }

static bool is_us(ptx_type t, unsigned lo, unsigned hi)
{
    unsigned n = alu_bits(t);
    return (alu_is_signed(t) || (t >= PTX_T_U8 && t <= PTX_T_U64)) && n >= lo && n <= hi;
}

static int mul_part(uint32_t f)     /* 0 lo, 1 hi, 2 wide */
{
    return (f & PTX_F_WIDE) ? 2 : (f & PTX_F_HI) ? 1 : 0;
}

bool alu_int_supports(const ptx_mods *m)
{
    ptx_type t = m->types[0];
    uint32_t f = m->flags;
    unsigned n = alu_bits(t);
    if (m->ntypes != 1 || m->rounding != PTX_RND_NONE)
        return false;
    int parts = !!(f & PTX_F_HI) + !!(f & PTX_F_LO) + !!(f & PTX_F_WIDE);
    switch (m->op) {
    case PTX_OP_ADD: case PTX_OP_SUB:
        if (!is_us(t, 16, 64) || !only(f, PTX_F_SAT | PTX_F_CC)) return false;
        if ((f & PTX_F_SAT) && (t != PTX_T_S32 || (f & PTX_F_CC))) return false;
        return !(f & PTX_F_CC) || n >= 32;
    case PTX_OP_ADDC: case PTX_OP_SUBC:
        return is_us(t, 32, 64) && only(f, PTX_F_CC);
    case PTX_OP_MUL: case PTX_OP_MAD:
        if (!is_us(t, 16, 64) || parts > 1) return false;
        if (!only(f, PTX_F_HI | PTX_F_LO | PTX_F_WIDE | (m->op == PTX_OP_MAD ? PTX_F_SAT | PTX_F_CC : 0)))
            return false;
        if ((f & PTX_F_WIDE) && n == 64) return false;
        if ((f & PTX_F_SAT) && (t != PTX_T_S32 || !(f & PTX_F_HI) || (f & PTX_F_CC))) return false;
        return !(f & PTX_F_CC) || (n >= 32 && !(f & PTX_F_WIDE));
    case PTX_OP_MADC:
        return is_us(t, 32, 64) && parts <= 1 && only(f, PTX_F_HI | PTX_F_LO | PTX_F_CC);
    case PTX_OP_MUL24: case PTX_OP_MAD24:
        if ((t != PTX_T_U32 && t != PTX_T_S32) || parts > 1 || (f & PTX_F_WIDE)) return false;
        if (m->op == PTX_OP_MAD24 && (f & PTX_F_SAT))
            return t == PTX_T_S32 && (f & PTX_F_HI) && only(f, PTX_F_HI | PTX_F_SAT);
        return only(f, PTX_F_HI | PTX_F_LO);
    case PTX_OP_SAD: case PTX_OP_DIV: case PTX_OP_REM:
        return is_us(t, 16, 64) && f == 0;
    case PTX_OP_MIN: case PTX_OP_MAX:
        return is_us(t, 16, 64) && (f == 0 || (f == PTX_F_RELU && t == PTX_T_S32));
    case PTX_OP_ABS: case PTX_OP_NEG:
        return alu_is_signed(t) && n >= 16 && f == 0;
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
        return f == 0 && (t == PTX_T_PRED || t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64);
    case PTX_OP_CNOT: case PTX_OP_SHL:
        return f == 0 && (t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64);
    case PTX_OP_SHR:
        return f == 0 && (n == 16 || n == 32 || n == 64) && (alu_is_int(t));
    case PTX_OP_MOV:
        return f == 0 && (t == PTX_T_PRED || alu_is_int(t) || alu_is_float(t));
    default:
        return false;
    }
}

static uint64_t clamp_s32(int64_t v)
{
    if (v > INT32_MAX) v = INT32_MAX;
    if (v < INT32_MIN) v = INT32_MIN;
    return (uint32_t)v;
}

/* The n-bit (n <= 64) product part selected by hi/lo: a*b as a 128-bit value. */
static uint64_t product(uint64_t a, uint64_t b, unsigned n, bool sgn, int part)
{
    u128 p = sgn ? (u128)((s128)alu_sext(a, n) * (s128)alu_sext(b, n)) : (u128)a * (u128)b;
    if (part == 1)
        return alu_trunc((uint64_t)(p >> n), n);
    if (part == 2)
        return alu_trunc((uint64_t)p, 2 * n);
    return alu_trunc((uint64_t)p, n);
}

/* Adds x + y + cin in n bits (32 or 64); writes the carry out to *cout. */
static uint64_t add_carry(uint64_t x, uint64_t y, uint64_t cin, unsigned n, uint64_t *cout)
{
    u128 s = (u128)x + y + cin;
    *cout = (uint64_t)(s >> n) & 1;
    return alu_trunc((uint64_t)s, n);
}

static void exec_addsub(const alu_call *k, unsigned n, bool sub, bool use_cin, bool set_cc)
{
    const ptx_mods *m = k->m;
    if (!use_cin && !set_cc) {
        if (m->flags & PTX_F_SAT) {
            if (sub) ALU_MAP(k, clamp_s32((int64_t)(int32_t)a - (int32_t)b));
            else     ALU_MAP(k, clamp_s32((int64_t)(int32_t)a + (int32_t)b));
        } else if (sub) {
            ALU_MAP(k, alu_trunc(a - b, n));
        } else {
            ALU_MAP(k, alu_trunc(a + b, n));
        }
        return;
    }
    /* Carry form.  Subtraction is a + ~b + 1 with CF as a borrow:
     * sub.cc sets CF = (a < b); subc computes a - (b + CF). */
    ALU_LANES(k, i) {
        uint64_t cin = use_cin && k->cc ? (k->cc[i] & 1) : 0, cout, r;
        if (sub) {
            r = add_carry(k->a[i], alu_trunc(~k->b[i], n), 1 - cin, n, &cout);
            cout ^= 1;
        } else {
            r = add_carry(k->a[i], k->b[i], cin, n, &cout);
        }
        k->d[i] = r;
        if (set_cc && k->cc)
            k->cc[i] = cout;
    }
}

static void exec_mad(const alu_call *k, unsigned n, bool sgn, bool use_cin)
{
    uint32_t f = k->m->flags;
    int part = mul_part(f);
    bool set_cc = (f & PTX_F_CC) != 0;
    if (part == 1 && (f & PTX_F_SAT)) {
        ALU_MAP(k, clamp_s32((int64_t)(int32_t)product(a, b, 32, true, 1) + (int32_t)c));
        return;
    }
    if (part == 2) {
        ALU_MAP(k, alu_trunc(product(a, b, n, sgn, 2) + c, 2 * n));
        return;
    }
    if (!use_cin && !set_cc) {
        ALU_MAP(k, alu_trunc(product(a, b, n, sgn, part) + c, n));
        return;
    }
    ALU_LANES(k, i) {
        uint64_t cin = use_cin && k->cc ? (k->cc[i] & 1) : 0, cout;
        k->d[i] = add_carry(product(k->a[i], k->b[i], n, sgn, part), k->c[i], cin, n, &cout);
        if (set_cc && k->cc)
            k->cc[i] = cout;
    }
}

/* The 48-bit product of the low 24 bits of a and b. */
static uint64_t mul24(uint64_t a, uint64_t b, bool sgn)
{
    if (sgn)
        return (uint64_t)(alu_sext(a, 24) * alu_sext(b, 24));
    return (a & 0xFFFFFF) * (b & 0xFFFFFF);
}

static uint64_t shr_s(uint64_t a, uint64_t s, unsigned n)
{
    int64_t x = alu_sext(a, n);
    uint32_t sh = (uint32_t)s;
    if (sh >= n)
        return alu_trunc(x < 0 ? ~(uint64_t)0 : 0, n);
    /* arithmetic shift written without shifting a negative value */
    uint64_t u = (uint64_t)x;
    return alu_trunc(x < 0 ? ~(~u >> sh) : u >> sh, n);
}

void alu_int_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    ptx_type t = m->types[0];
    unsigned n = alu_bits(t);
    bool sgn = alu_is_signed(t);
    if (n == 0 || n > 64)
        n = 64;

    switch (m->op) {
    case PTX_OP_ADD:  exec_addsub(k, n, false, false, m->flags & PTX_F_CC); break;
    case PTX_OP_SUB:  exec_addsub(k, n, true, false, m->flags & PTX_F_CC); break;
    case PTX_OP_ADDC: exec_addsub(k, n, false, true, m->flags & PTX_F_CC); break;
    case PTX_OP_SUBC: exec_addsub(k, n, true, true, m->flags & PTX_F_CC); break;
    case PTX_OP_MUL: {
        int part = mul_part(m->flags);
        ALU_MAP(k, product(a, b, n, sgn, part));
        break;
    }
    case PTX_OP_MAD:  exec_mad(k, n, sgn, false); break;
    case PTX_OP_MADC: exec_mad(k, n, sgn, true); break;
    case PTX_OP_MUL24:
        if (m->flags & PTX_F_HI) ALU_MAP(k, alu_trunc(mul24(a, b, sgn) >> 16, 32));
        else                     ALU_MAP(k, alu_trunc(mul24(a, b, sgn), 32));
        break;
    case PTX_OP_MAD24:
        if (m->flags & PTX_F_SAT)
            ALU_MAP(k, clamp_s32((int64_t)(int32_t)alu_trunc(mul24(a, b, true) >> 16, 32) + (int32_t)c));
        else if (m->flags & PTX_F_HI)
            ALU_MAP(k, alu_trunc((mul24(a, b, sgn) >> 16) + c, 32));
        else
            ALU_MAP(k, alu_trunc(mul24(a, b, sgn) + c, 32));
        break;
    case PTX_OP_SAD:
        if (sgn) ALU_MAP(k, alu_trunc(c + (alu_sext(a, n) > alu_sext(b, n) ? a - b : b - a), n));
        else     ALU_MAP(k, alu_trunc(c + (a > b ? a - b : b - a), n));
        break;
    case PTX_OP_DIV: ALU_LANES(k, i) k->d[i] = alu_divide(k->a[i], k->b[i], n, sgn, false); break;
    case PTX_OP_REM: ALU_LANES(k, i) k->d[i] = alu_divide(k->a[i], k->b[i], n, sgn, true); break;
    case PTX_OP_MIN:
        if (m->flags & PTX_F_RELU)
            ALU_MAP(k, (uint32_t)((int32_t)a < (int32_t)b ? ((int32_t)a < 0 ? 0 : a) : ((int32_t)b < 0 ? 0 : b)));
        else if (sgn) ALU_MAP(k, alu_sext(a, n) < alu_sext(b, n) ? a : b);
        else          ALU_MAP(k, a < b ? a : b);
        break;
    case PTX_OP_MAX:
        if (m->flags & PTX_F_RELU)
            ALU_MAP(k, (uint32_t)((int32_t)a > (int32_t)b ? ((int32_t)a < 0 ? 0 : a) : ((int32_t)b < 0 ? 0 : b)));
        else if (sgn) ALU_MAP(k, alu_sext(a, n) > alu_sext(b, n) ? a : b);
        else          ALU_MAP(k, a > b ? a : b);
        break;
    case PTX_OP_ABS: ALU_MAP(k, alu_sext(a, n) < 0 ? alu_trunc(0 - a, n) : a); break;
    case PTX_OP_NEG: ALU_MAP(k, alu_trunc(0 - a, n)); break;
    case PTX_OP_AND: ALU_MAP(k, a & b); break;
    case PTX_OP_OR:  ALU_MAP(k, a | b); break;
    case PTX_OP_XOR: ALU_MAP(k, a ^ b); break;
    case PTX_OP_NOT: ALU_MAP(k, alu_trunc(~a, n)); break;
    case PTX_OP_CNOT: ALU_MAP(k, (uint64_t)(alu_trunc(a, n) == 0)); break;
    case PTX_OP_SHL: ALU_MAP(k, (uint32_t)b >= n ? 0 : alu_trunc(a << (uint32_t)b, n)); break;
    case PTX_OP_SHR:
        if (sgn) ALU_MAP(k, shr_s(a, b, n));
        else     ALU_MAP(k, (uint32_t)b >= n ? 0 : alu_trunc(a, n) >> (uint32_t)b);
        break;
    case PTX_OP_MOV: ALU_MAP(k, alu_trunc(a, n)); break;
    default: break;
    }
}
