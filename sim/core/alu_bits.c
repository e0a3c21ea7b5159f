/* Bit manipulation: popc clz brev bfind bfe bfi prmt lop3 dp4a shf fns
 * bmsk, following the pseudocode of the PTX ISA manual. */
#include "alu_impl.h"
#include "../base/bits.h"

bool alu_bits_supports(const ptx_mods *m)
{
    ptx_type t = m->types[0];
    uint32_t f = m->flags;
    bool b3264 = t == PTX_T_B32 || t == PTX_T_B64;
    bool us3264 = t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 || t == PTX_T_S64;
    if (m->rounding != PTX_RND_NONE)
        return false;
    switch (m->op) {
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFI:
        return m->ntypes == 1 && b3264 && f == 0;
    case PTX_OP_BFIND:
        return m->ntypes == 1 && us3264 && (f & ~(uint32_t)PTX_F_SHIFTAMT) == 0;
    case PTX_OP_BFE:
        return m->ntypes == 1 && us3264 && f == 0;
    case PTX_OP_PRMT:
        return m->ntypes == 1 && t == PTX_T_B32 && f == 0 &&
               (m->subop == PTX_SUB_NONE || (m->subop >= PTX_SUB_PRMT_F4E && m->subop <= PTX_SUB_PRMT_RC16));
    case PTX_OP_LOP3:
        return m->ntypes == 1 && t == PTX_T_B32 && f == 0;
    case PTX_OP_DP4A:
        return m->ntypes == 2 && f == 0 &&
               (m->types[0] == PTX_T_U32 || m->types[0] == PTX_T_S32) &&
               (m->types[1] == PTX_T_U32 || m->types[1] == PTX_T_S32);
    case PTX_OP_SHF:
        return m->ntypes == 1 && t == PTX_T_B32 &&
               (m->subop == PTX_SUB_SHF_L || m->subop == PTX_SUB_SHF_R) &&
               (f == PTX_F_WRAP || f == PTX_F_CLAMP);
    case PTX_OP_FNS:
        return m->ntypes == 1 && t == PTX_T_B32 && f == 0;
    case PTX_OP_BMSK:
        return m->ntypes == 1 && t == PTX_T_B32 && (f == PTX_F_WRAP || f == PTX_F_CLAMP);
    default:
        return false;
    }
}

static uint64_t brev64(uint64_t x)
{
    uint64_t r = 0;
    for (int i = 0; i < 64; i++)
        r |= ((x >> i) & 1) << (63 - i);
    return r;
}

static uint64_t bfind(uint64_t a, unsigned n, bool sgn, bool shiftamt)
{
    a = alu_trunc(a, n);
    if (sgn && ((a >> (n - 1)) & 1))
        a = alu_trunc(~a, n);       /* negative: the highest bit that differs from the sign */
    if (a == 0)
        return 0xFFFFFFFFu;
    unsigned pos = 63u - (unsigned)__builtin_clzll(a);
    return shiftamt ? (n - 1) - pos : pos;
}

static uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, unsigned n, bool sgn)
{
    unsigned msb = n - 1, pos = b & 0xFF, len = c & 0xFF;
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    uint64_t sbit = (!sgn || len == 0) ? 0 : (a >> top) & 1, d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t e, unsigned n)
{
    unsigned msb = n - 1, pos = c & 0xFF, len = e & 0xFF;
    uint64_t f = b;
    for (unsigned i = 0; i < len && pos + i <= msb; i++) {
        uint64_t bit = (a >> i) & 1;
        f = (f & ~((uint64_t)1 << (pos + i))) | (bit << (pos + i));
    }
    return f;
}

/* Byte j of the 8-byte value {b, a} (a holds bytes 0..3). */
static uint32_t byte_of(uint64_t ab, unsigned j) { return (uint32_t)(ab >> (8 * (j & 7))) & 0xFF; }

static uint64_t prmt(uint64_t a, uint64_t b, uint64_t c, int mode)
{
    uint64_t ab = (a & 0xFFFFFFFFu) | (b << 32);
    unsigned s = c & 3, sel[4];
    uint32_t d = 0;
    switch (mode) {
    case PTX_SUB_NONE:
        for (unsigned i = 0; i < 4; i++) {
            unsigned nib = (c >> (4 * i)) & 0xF;
            uint32_t v = byte_of(ab, nib & 7);
            if (nib & 8)    /* replicate the selected byte's sign bit */
                v = (v & 0x80) ? 0xFF : 0;
            d |= v << (8 * i);
        }
        return d;
    case PTX_SUB_PRMT_F4E:
        for (unsigned i = 0; i < 4; i++) sel[i] = s + i;
        break;
    case PTX_SUB_PRMT_B4E:
        for (unsigned i = 0; i < 4; i++) sel[i] = (s - i) & 7;
        break;
    case PTX_SUB_PRMT_RC8:
        for (unsigned i = 0; i < 4; i++) sel[i] = s;
        break;
    case PTX_SUB_PRMT_ECL:
        for (unsigned i = 0; i < 4; i++) sel[i] = i > s ? i : s;
        break;
    case PTX_SUB_PRMT_ECR:
        for (unsigned i = 0; i < 4; i++) sel[i] = i < s ? i : s;
        break;
    default: /* RC16 */
        for (unsigned i = 0; i < 4; i++) sel[i] = 2 * (s & 1) + (i & 1);
        break;
    }
    for (unsigned i = 0; i < 4; i++)
        d |= byte_of(ab, sel[i]) << (8 * i);
    return d;
}

/* Bit k of the look-up table is the result for inputs with
 * (a, b, c) = (k>>2 & 1, k>>1 & 1, k & 1): immLut = F(0xF0, 0xCC, 0xAA). */
static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, uint64_t lut)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < 8; k++)
        if ((lut >> k) & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r & 0xFFFFFFFFu;
}

static uint64_t dp4a(uint64_t a, uint64_t b, uint64_t c, bool sa, bool sb)
{
    uint32_t acc = (uint32_t)c;
    for (unsigned i = 0; i < 4; i++) {
        int64_t x = sa ? alu_sext(a >> (8 * i), 8) : (int64_t)((a >> (8 * i)) & 0xFF);
        int64_t y = sb ? alu_sext(b >> (8 * i), 8) : (int64_t)((b >> (8 * i)) & 0xFF);
        acc += (uint32_t)(x * y);
    }
    return acc;
}

/* shf: the 64-bit value {b, a} shifted by n, 32 bits of it kept. */
static uint64_t shf(uint64_t a, uint64_t b, uint64_t c, bool left, bool wrap)
{
    uint32_t n = wrap ? ((uint32_t)c & 31) : ((uint32_t)c > 32 ? 32 : (uint32_t)c);
    uint64_t v = (b << 32) | (a & 0xFFFFFFFFu);
    if (left)
        return n == 0 ? (b & 0xFFFFFFFFu) : (uint32_t)((v << n) >> 32);
    return (uint32_t)(v >> n);
}

/* fns: the position of the offset-th set bit of mask counted from bit
 * base, upwards for a positive offset and downwards for a negative one;
 * offset 0 asks whether bit base itself is set; 0xffffffff when there is
 * no such bit.  A base above 31 is undefined in the PTX ISA: warpsim finds
 * nothing. */
static uint64_t fns(uint64_t mask, uint64_t base, uint64_t offset)
{
    int32_t off = (int32_t)(uint32_t)offset;
    uint32_t b = (uint32_t)base;
    if (b > 31)
        return 0xFFFFFFFFu;
    if (off == 0)
        return (mask >> b) & 1 ? b : 0xFFFFFFFFu;
    int64_t count = off > 0 ? off : -(int64_t)off;
    int step = off > 0 ? 1 : -1;
    for (int pos = (int)b; pos >= 0 && pos < 32; pos += step)
        if ((mask >> pos) & 1 && --count == 0)
            return (uint64_t)pos;
    return 0xFFFFFFFFu;
}

/* bmsk: a mask of b bits starting at bit a.  With .clamp, a position or a
 * width of 32 or more saturates; with .wrap, both are taken mod 32. */
static uint64_t bmsk(uint64_t a, uint64_t b, bool clamp)
{
    uint32_t a1 = (uint32_t)a & 31, b1 = (uint32_t)b & 31, sum = a1 + b1;
    uint32_t mask0 = ~UINT32_C(0) << a1;
    uint32_t mask1 = sum >= 32 ? 0 : ~UINT32_C(0) << sum;
    bool overflow = sum >= 32;
    if (clamp && (uint32_t)a >= 32) { mask0 = 0; overflow = true; }
    if (clamp && (uint32_t)b >= 32) overflow = true;
    if (overflow) mask1 = 0;
    else if (b1 == 0) mask1 = ~UINT32_C(0);
    return mask0 & ~mask1;
}

void alu_bits_exec(const alu_call *k)
{
    const ptx_mods *m = k->m;
    ptx_type t = m->types[0];
    unsigned n = alu_bits(t) == 64 ? 64 : 32;
    bool sgn = alu_is_signed(t);
    switch (m->op) {
    case PTX_OP_POPC: ALU_MAP(k, (uint64_t)ws_popcount64(alu_trunc(a, n))); break;
    case PTX_OP_CLZ:
        ALU_MAP(k, alu_trunc(a, n) == 0 ? n : (uint64_t)__builtin_clzll(alu_trunc(a, n)) - (64 - n));
        break;
    case PTX_OP_BREV: ALU_MAP(k, brev64(a) >> (64 - n)); break;
    case PTX_OP_BFIND: {
        bool sh = (m->flags & PTX_F_SHIFTAMT) != 0;
        ALU_MAP(k, bfind(a, n, sgn, sh));
        break;
    }
    case PTX_OP_BFE:  ALU_MAP(k, bfe(a, b, c, n, sgn)); break;
    case PTX_OP_BFI:  ALU_MAP(k, bfi(a, b, c, e, n)); break;
    case PTX_OP_PRMT: ALU_MAP(k, prmt(a, b, c, m->subop)); break;
    case PTX_OP_LOP3: ALU_MAP(k, lop3(a, b, c, e)); break;
    case PTX_OP_DP4A: {
        bool sa = alu_is_signed(m->types[0]), sb = alu_is_signed(m->types[1]);
        ALU_MAP(k, dp4a(a, b, c, sa, sb));
        break;
    }
    case PTX_OP_SHF: {
        bool left = m->subop == PTX_SUB_SHF_L, wrap = (m->flags & PTX_F_WRAP) != 0;
        ALU_MAP(k, shf(a, b, c, left, wrap));
        break;
    }
    case PTX_OP_FNS: ALU_MAP(k, fns(a, b, c)); break;
    case PTX_OP_BMSK: ALU_MAP(k, bmsk(a, b, (m->flags & PTX_F_CLAMP) != 0)); break;
    default: break;
    }
}
