/* The ALU's entry points: which opcodes it executes, whether a modifier
 * combination is one it implements, and the dispatch of one warp-wide
 * instruction to the family that executes it. */
#include <stdio.h>
#include "alu_impl.h"
#include "insn_table.h"

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
    return ws_opcode_info_of(op)->alu != WS_FAM_NONE;
}

ws_alu_family ws_alu_family_of(const ptx_mods *m)
{
    ptx_type t = m->ntypes ? m->types[0] : PTX_T_NONE;
    ws_alu_family f = (ws_alu_family)ws_opcode_info_of(m->op)->alu;
    if (f != WS_FAM_ARITH && f != WS_FAM_FARITH) return f;
    if (alu_is_half(t)) return WS_FAM_HALF;
    if (alu_is_float(t)) return WS_FAM_FLOAT;
    return f == WS_FAM_ARITH ? WS_FAM_INT : WS_FAM_NONE;     /* fma has no integer form */
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
    n += (size_t)snprintf(buf + n, size - n, "%s", ptx_opcode_name(m->op));
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
            n += (size_t)snprintf(buf + n, size - n, "%s", ptx_type_name(m->types[i]));
}

bool ws_alu_supports(const ptx_mods *m, char *why, size_t why_size)
{
    bool ok;
    switch (ws_alu_family_of(m)) {
    case WS_FAM_INT:   ok = alu_int_supports(m); break;
    case WS_FAM_BITS:  ok = alu_bits_supports(m); break;
    case WS_FAM_FLOAT: ok = alu_float_supports(m); break;
    case WS_FAM_HALF:  ok = alu_half_supports(m); break;
    case WS_FAM_CMP:   ok = alu_cmp_supports(m); break;
    case WS_FAM_CVT:   ok = alu_cvt_supports(m); break;
    case WS_FAM_SFU:   ok = alu_sfu_supports(m); break;
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
    ws_alu_run(ws_alu_family_of(m), m, mask, dst, src, cc);
}

void ws_alu_run(ws_alu_family family, const ptx_mods *m, uint32_t mask,
                uint64_t *const dst[2], const uint64_t *const src[4], uint64_t *cc)
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
    switch (family) {
    case WS_FAM_INT:   alu_int_exec(&k); break;
    case WS_FAM_BITS:  alu_bits_exec(&k); break;
    case WS_FAM_FLOAT: alu_float_exec(&k); break;
    case WS_FAM_HALF:  alu_half_exec(&k); break;
    case WS_FAM_CMP:   alu_cmp_exec(&k); break;
    case WS_FAM_CVT:   alu_cvt_exec(&k); break;
    case WS_FAM_SFU:   alu_sfu_exec(&k); break;
    default:        break;
    }
}
