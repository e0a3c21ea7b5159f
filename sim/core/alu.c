/* The ALU's entry points: which opcodes it executes, whether a modifier
 * combination is one it implements, and the dispatch of one warp-wide
 * instruction to the family that executes it. */
#include <stdio.h>
#include "alu_impl.h"

static const char *const op_names[PTX_OP_COUNT] = {
#define X(name, mnemonic, pipe) [PTX_OP_##name] = mnemonic,
#include "../../frontend/ptx/ptx_opcodes.def"
#undef X
};

static const char *const type_names[PTX_T_COUNT] = {
    [PTX_T_NONE] = "", [PTX_T_PRED] = "pred",
    [PTX_T_B8] = "b8", [PTX_T_B16] = "b16", [PTX_T_B32] = "b32", [PTX_T_B64] = "b64",
    [PTX_T_B128] = "b128",
    [PTX_T_U8] = "u8", [PTX_T_U16] = "u16", [PTX_T_U32] = "u32", [PTX_T_U64] = "u64",
    [PTX_T_S8] = "s8", [PTX_T_S16] = "s16", [PTX_T_S32] = "s32", [PTX_T_S64] = "s64",
    [PTX_T_F16] = "f16", [PTX_T_F16X2] = "f16x2", [PTX_T_BF16] = "bf16",
    [PTX_T_BF16X2] = "bf16x2", [PTX_T_TF32] = "tf32", [PTX_T_F32] = "f32", [PTX_T_F64] = "f64",
};

unsigned alu_bits(ptx_type t)
{
    switch (t) {
    case PTX_T_PRED: return 1;
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16: return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32: case PTX_T_TF32:
    case PTX_T_F16X2: case PTX_T_BF16X2: return 32;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    case PTX_T_B128: return 128;
    default: return 0;
    }
}

bool alu_is_signed(ptx_type t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
bool alu_is_int(ptx_type t) { return t >= PTX_T_B8 && t <= PTX_T_S64 && t != PTX_T_B128; }
bool alu_is_float(ptx_type t) { return t >= PTX_T_F16 && t <= PTX_T_F64 && t != PTX_T_TF32; }
bool alu_is_half(ptx_type t) { return t >= PTX_T_F16 && t <= PTX_T_BF16X2; }

bool ws_alu_handles(ptx_opcode op)
{
    switch (op) {
    case PTX_OP_ABS: case PTX_OP_ADD: case PTX_OP_ADDC: case PTX_OP_AND:
    case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_BFIND: case PTX_OP_BMSK: case PTX_OP_BREV:
    case PTX_OP_CLZ: case PTX_OP_CNOT: case PTX_OP_COPYSIGN: case PTX_OP_COS:
    case PTX_OP_CVT: case PTX_OP_DIV: case PTX_OP_DP4A: case PTX_OP_EX2:
    case PTX_OP_FMA: case PTX_OP_LG2: case PTX_OP_LOP3: case PTX_OP_MAD:
    case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_MAX: case PTX_OP_MIN:
    case PTX_OP_MOV: case PTX_OP_MUL: case PTX_OP_MUL24: case PTX_OP_NEG:
    case PTX_OP_NOT: case PTX_OP_OR: case PTX_OP_POPC: case PTX_OP_PRMT:
    case PTX_OP_RCP: case PTX_OP_REM: case PTX_OP_RSQRT: case PTX_OP_SAD:
    case PTX_OP_SELP: case PTX_OP_SET: case PTX_OP_SETP: case PTX_OP_SHF:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SIN: case PTX_OP_SLCT:
    case PTX_OP_SQRT: case PTX_OP_SUB: case PTX_OP_SUBC: case PTX_OP_TANH:
    case PTX_OP_TESTP: case PTX_OP_XOR: case PTX_OP_FNS:
        return true;
    default:
        return false;
    }
}

typedef enum family { FAM_NONE, FAM_INT, FAM_BITS, FAM_FLOAT, FAM_HALF, FAM_CMP, FAM_CVT, FAM_SFU } family;

static family family_of(const ptx_mods *m)
{
    ptx_type t = m->ntypes ? m->types[0] : PTX_T_NONE;
    switch (m->op) {
    case PTX_OP_ABS: case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
    case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_NEG: case PTX_OP_DIV:
        if (alu_is_half(t)) return FAM_HALF;
        if (alu_is_float(t)) return FAM_FLOAT;
        return m->op == PTX_OP_FMA ? FAM_NONE : FAM_INT;
    case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
        return FAM_FLOAT;
    case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC: case PTX_OP_MUL24:
    case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_REM: case PTX_OP_AND:
    case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_MOV:
        return FAM_INT;
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFE:
    case PTX_OP_BFI: case PTX_OP_BFIND: case PTX_OP_PRMT: case PTX_OP_LOP3:
    case PTX_OP_DP4A: case PTX_OP_SHF: case PTX_OP_FNS: case PTX_OP_BMSK:
        return FAM_BITS;
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SELP: case PTX_OP_SLCT:
        return FAM_CMP;
    case PTX_OP_CVT:
        return FAM_CVT;
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2:
    case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
        return FAM_SFU;
    default:
        return FAM_NONE;
    }
}

static const char *rnd_name(int r)
{
    static const char *const n[] = { "", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna" };
    return r >= 0 && r <= PTX_RND_RNA ? n[r] : "?";
}

/* Spells the instruction roughly as written: "cvt.rni.f16.f64". */
static void describe(const ptx_mods *m, char *buf, size_t size)
{
    static const struct { uint32_t flag; const char *name; } flags[] = {
        { PTX_F_WIDE, "wide" }, { PTX_F_HI, "hi" }, { PTX_F_LO, "lo" },
        { PTX_F_CC, "cc" }, { PTX_F_APPROX, "approx" }, { PTX_F_FULL, "full" },
        { PTX_F_WRAP, "wrap" }, { PTX_F_CLAMP, "clamp" }, { PTX_F_SHIFTAMT, "shiftamt" },
        { PTX_F_FTZ, "ftz" }, { PTX_F_SAT, "sat" }, { PTX_F_RELU, "relu" },
        { PTX_F_NAN, "NaN" }, { PTX_F_SATFINITE, "satfinite" },
    };
    size_t n = 0;
    const char *op = m->op < PTX_OP_COUNT && op_names[m->op] ? op_names[m->op] : "?";
    n += (size_t)snprintf(buf + n, size - n, "%s", op);
    static const char *const cmps[] = {
        "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
    };
    static const char *const bops[] = { "", "and", "or", "xor" };
    if (m->cmp && m->cmp <= PTX_CMP_NAN && n < size)
        n += (size_t)snprintf(buf + n, size - n, ".%s", cmps[m->cmp]);
    if (m->boolop && m->boolop <= PTX_BOOL_XOR && n < size)
        n += (size_t)snprintf(buf + n, size - n, ".%s", bops[m->boolop]);
    if (m->rounding && n < size)
        n += (size_t)snprintf(buf + n, size - n, ".%s", rnd_name(m->rounding));
    for (size_t i = 0; i < sizeof flags / sizeof flags[0] && n < size; i++)
        if (m->flags & flags[i].flag)
            n += (size_t)snprintf(buf + n, size - n, ".%s", flags[i].name);
    for (int i = 0; i < m->ntypes && i < 2 && n < size; i++)
        if (m->types[i] < PTX_T_COUNT)
            n += (size_t)snprintf(buf + n, size - n, ".%s", type_names[m->types[i]]);
}

bool ws_alu_supports(const ptx_mods *m, char *why, size_t why_size)
{
    bool ok;
    switch (family_of(m)) {
    case FAM_INT:   ok = alu_int_supports(m); break;
    case FAM_BITS:  ok = alu_bits_supports(m); break;
    case FAM_FLOAT: ok = alu_float_supports(m); break;
    case FAM_HALF:  ok = alu_half_supports(m); break;
    case FAM_CMP:   ok = alu_cmp_supports(m); break;
    case FAM_CVT:   ok = alu_cvt_supports(m); break;
    case FAM_SFU:   ok = alu_sfu_supports(m); break;
    default:        ok = false; break;
    }
    if (!ok && why && why_size) {
        char d[96];
        describe(m, d, sizeof d);
        if (!ws_alu_handles(m->op))
            snprintf(why, why_size, "%s is not an ALU instruction", d);
        else
            snprintf(why, why_size, "%s is not supported", d);
    }
    return ok;
}

void ws_alu_exec(const ptx_mods *m, uint32_t mask,
                 uint64_t *const dst[2], const uint64_t *const src[4],
                 uint64_t *cc)
{
    static const uint64_t zero[WS_WARP_SIZE];   /* stands in for absent sources */
    uint64_t sink[WS_WARP_SIZE];
    alu_call k = {
        .m = m, .mask = mask,
        .d = dst[0] ? dst[0] : sink, .q = dst[1],
        .a = src[0] ? src[0] : zero, .b = src[1] ? src[1] : zero,
        .c = src[2] ? src[2] : zero, .e = src[3] ? src[3] : zero,
        .cc = cc,
    };
    if (!dst[0])
        memset(sink, 0, sizeof sink);
    switch (family_of(m)) {
    case FAM_INT:   alu_int_exec(&k); break;
    case FAM_BITS:  alu_bits_exec(&k); break;
    case FAM_FLOAT: alu_float_exec(&k); break;
    case FAM_HALF:  alu_half_exec(&k); break;
    case FAM_CMP:   alu_cmp_exec(&k); break;
    case FAM_CVT:   alu_cvt_exec(&k); break;
    case FAM_SFU:   alu_sfu_exec(&k); break;
    default:        break;
    }
}
