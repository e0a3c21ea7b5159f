/* Mnemonic decoding: "setp.lt.and.s32" -> opcode SETP, cmp LT, boolop AND,
 * types {S32}.  Which meaning a modifier has can depend on the opcode
 * (".lo" is a comparison for setp and the low half for mul). */
#include <stdio.h>
#include <string.h>
#include "ptx_pstate.h"

static const struct { const char *s; ptx_type t; } mn_types[] = {
    {"pred", PTX_T_PRED}, {"b8", PTX_T_B8}, {"b16", PTX_T_B16}, {"b32", PTX_T_B32},
    {"b64", PTX_T_B64}, {"b128", PTX_T_B128}, {"u8", PTX_T_U8}, {"u16", PTX_T_U16},
    {"u32", PTX_T_U32}, {"u64", PTX_T_U64}, {"s8", PTX_T_S8}, {"s16", PTX_T_S16},
    {"s32", PTX_T_S32}, {"s64", PTX_T_S64}, {"f16", PTX_T_F16}, {"f16x2", PTX_T_F16X2},
    {"bf16", PTX_T_BF16}, {"bf16x2", PTX_T_BF16X2}, {"tf32", PTX_T_TF32},
    {"f32", PTX_T_F32}, {"f64", PTX_T_F64},
};

static const struct { const char *s; ptx_space sp; } mn_spaces[] = {
    {"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED}, {"shared::cta", PTX_SPACE_SHARED},
    {"local", PTX_SPACE_LOCAL}, {"const", PTX_SPACE_CONST}, {"param", PTX_SPACE_PARAM},
    {"param::entry", PTX_SPACE_PARAM}, {"param::func", PTX_SPACE_PARAM},
};

static const struct { const char *s; ptx_rounding r; } mn_rnd[] = {
    {"rn", PTX_RND_RN}, {"rz", PTX_RND_RZ}, {"rm", PTX_RND_RM}, {"rp", PTX_RND_RP},
    {"rni", PTX_RND_RNI}, {"rzi", PTX_RND_RZI}, {"rmi", PTX_RND_RMI}, {"rpi", PTX_RND_RPI},
    {"rna", PTX_RND_RNA},
};

static const struct { const char *s; ptx_cmp c; } mn_cmps[] = {
    {"eq", PTX_CMP_EQ}, {"ne", PTX_CMP_NE}, {"lt", PTX_CMP_LT}, {"le", PTX_CMP_LE},
    {"gt", PTX_CMP_GT}, {"ge", PTX_CMP_GE}, {"lo", PTX_CMP_LO}, {"ls", PTX_CMP_LS},
    {"hi", PTX_CMP_HI}, {"hs", PTX_CMP_HS}, {"equ", PTX_CMP_EQU}, {"neu", PTX_CMP_NEU},
    {"ltu", PTX_CMP_LTU}, {"leu", PTX_CMP_LEU}, {"gtu", PTX_CMP_GTU}, {"geu", PTX_CMP_GEU},
    {"num", PTX_CMP_NUM}, {"nan", PTX_CMP_NAN},
};

static const struct { const char *s; uint32_t f; } mn_flags[] = {
    {"ftz", PTX_F_FTZ}, {"sat", PTX_F_SAT}, {"approx", PTX_F_APPROX}, {"full", PTX_F_FULL},
    {"wide", PTX_F_WIDE}, {"hi", PTX_F_HI}, {"lo", PTX_F_LO}, {"uni", PTX_F_UNI},
    {"volatile", PTX_F_VOLATILE}, {"nc", PTX_F_NC}, {"sync", PTX_F_SYNC},
    {"aligned", PTX_F_ALIGNED}, {"cc", PTX_F_CC}, {"to", PTX_F_TO}, {"wrap", PTX_F_WRAP},
    {"clamp", PTX_F_CLAMP}, {"shiftamt", PTX_F_SHIFTAMT}, {"NaN", PTX_F_NAN},
    {"relu", PTX_F_RELU}, {"satfinite", PTX_F_SATFINITE},
};

/* Cache operators and L1 eviction priorities: kept for the timing model's
 * L1 (they change no value). */
static const struct { const char *s; uint8_t c; } mn_caches[] = {
    {"ca", PTX_CACHE_CA}, {"cg", PTX_CACHE_CG}, {"cs", PTX_CACHE_CS}, {"lu", PTX_CACHE_LU},
    {"cv", PTX_CACHE_CV}, {"wb", PTX_CACHE_WB}, {"wt", PTX_CACHE_WT},
    {"L1::evict_normal", PTX_CACHE_L1_EVICT_NORMAL}, {"L1::evict_unchanged", PTX_CACHE_L1_EVICT_UNCHANGED},
    {"L1::evict_first", PTX_CACHE_L1_EVICT_FIRST}, {"L1::evict_last", PTX_CACHE_L1_EVICT_LAST},
    {"L1::no_allocate", PTX_CACHE_L1_NO_ALLOCATE},
};

/* L2 eviction, prefetch, ordering and scope hints: no effect on what the
 * simulator computes, accepted and dropped. */
static const char *const mn_hints[] = {
    "L2::64B", "L2::128B",
    "L2::256B", "L2::evict_normal", "L2::evict_first", "L2::evict_last", "relaxed",
    "acquire", "release", "acq_rel", "sc", "weak", "gpu", "cta", "sys", "gl", "noftz",
    "L1", "L2",
};

static const struct { const char *s; uint8_t sub; } mn_atom_ops[] = {
    {"add", PTX_SUB_ATOM_ADD}, {"min", PTX_SUB_ATOM_MIN}, {"max", PTX_SUB_ATOM_MAX},
    {"exch", PTX_SUB_ATOM_EXCH}, {"cas", PTX_SUB_ATOM_CAS}, {"inc", PTX_SUB_ATOM_INC},
    {"dec", PTX_SUB_ATOM_DEC}, {"and", PTX_SUB_ATOM_AND}, {"or", PTX_SUB_ATOM_OR},
    {"xor", PTX_SUB_ATOM_XOR},
};

static const struct { const char *s; uint8_t sub; } mn_misc_subs[] = {
    /* only looked up for the opcode each belongs to (see mn_subop) */
    {"up", PTX_SUB_SHFL_UP}, {"down", PTX_SUB_SHFL_DOWN}, {"bfly", PTX_SUB_SHFL_BFLY},
    {"idx", PTX_SUB_SHFL_IDX}, {"all", PTX_SUB_VOTE_ALL}, {"any", PTX_SUB_VOTE_ANY},
    {"uni", PTX_SUB_VOTE_UNI}, {"ballot", PTX_SUB_VOTE_BALLOT},
    {"f4e", PTX_SUB_PRMT_F4E}, {"b4e", PTX_SUB_PRMT_B4E}, {"rc8", PTX_SUB_PRMT_RC8},
    {"ecl", PTX_SUB_PRMT_ECL}, {"ecr", PTX_SUB_PRMT_ECR}, {"rc16", PTX_SUB_PRMT_RC16},
    {"l", PTX_SUB_SHF_L}, {"r", PTX_SUB_SHF_R},
    {"finite", PTX_SUB_TESTP_FINITE}, {"infinite", PTX_SUB_TESTP_INFINITE},
    {"number", PTX_SUB_TESTP_NUMBER}, {"notanumber", PTX_SUB_TESTP_NOTANUMBER},
    {"normal", PTX_SUB_TESTP_NORMAL}, {"subnormal", PTX_SUB_TESTP_SUBNORMAL},
    {"width", PTX_SUB_TXQ_WIDTH}, {"height", PTX_SUB_TXQ_HEIGHT}, {"depth", PTX_SUB_TXQ_DEPTH},
    {"normalized_coords", PTX_SUB_TXQ_NORMALIZED_COORDS}, {"filter_mode", PTX_SUB_TXQ_FILTER_MODE},
    {"addr_mode_0", PTX_SUB_TXQ_ADDR_MODE_0}, {"addr_mode_1", PTX_SUB_TXQ_ADDR_MODE_1},
    {"addr_mode_2", PTX_SUB_TXQ_ADDR_MODE_2}, {"channel_data_type", PTX_SUB_TXQ_CHANNEL_DATA_TYPE},
    {"channel_order", PTX_SUB_TXQ_CHANNEL_ORDER}, {"array_size", PTX_SUB_TXQ_ARRAY_SIZE},
    {"num_mipmap_levels", PTX_SUB_TXQ_NUM_MIPMAP_LEVELS}, {"num_samples", PTX_SUB_TXQ_NUM_SAMPLES},
};

static const char *const mn_geoms[PTX_GEOM_COUNT] = {
    [PTX_GEOM_1D] = "1d", [PTX_GEOM_2D] = "2d", [PTX_GEOM_3D] = "3d", [PTX_GEOM_A1D] = "a1d",
    [PTX_GEOM_A2D] = "a2d", [PTX_GEOM_CUBE] = "cube", [PTX_GEOM_ACUBE] = "acube",
    [PTX_GEOM_2DMS] = "2dms", [PTX_GEOM_A2DMS] = "a2dms",
};

#define MN_LOOKUP(table, field, word, out)                                  \
    do {                                                                    \
        for (size_t i_ = 0; i_ < sizeof table / sizeof table[0]; i_++)      \
            if (!strcmp(table[i_].s, word)) { *(out) = table[i_].field; return true; } \
        return false;                                                       \
    } while (0)

static bool mn_type(const char *w, ptx_type *t) { MN_LOOKUP(mn_types, t, w, t); }
static bool mn_space(const char *w, ptx_space *s) { MN_LOOKUP(mn_spaces, sp, w, s); }
static bool mn_round(const char *w, ptx_rounding *r) { MN_LOOKUP(mn_rnd, r, w, r); }
static bool mn_cmp(const char *w, ptx_cmp *c) { MN_LOOKUP(mn_cmps, c, w, c); }
static bool mn_flag(const char *w, uint32_t *f) { MN_LOOKUP(mn_flags, f, w, f); }
static bool mn_atom(const char *w, uint8_t *s) { MN_LOOKUP(mn_atom_ops, sub, w, s); }
static bool mn_misc(const char *w, uint8_t *s) { MN_LOOKUP(mn_misc_subs, sub, w, s); }
static bool mn_cache(const char *w, uint8_t *c) { MN_LOOKUP(mn_caches, c, w, c); }

static bool mn_hint(const char *w)
{
    for (size_t i = 0; i < sizeof mn_hints / sizeof mn_hints[0]; i++)
        if (!strcmp(mn_hints[i], w))
            return true;
    return false;
}

static bool mn_subop_ok(ptx_opcode op, uint8_t sub)
{
    switch (op) {
    case PTX_OP_SHFL: return sub >= PTX_SUB_SHFL_UP && sub <= PTX_SUB_SHFL_IDX;
    case PTX_OP_VOTE: return sub >= PTX_SUB_VOTE_ALL && sub <= PTX_SUB_VOTE_BALLOT;
    case PTX_OP_MATCH: return sub == PTX_SUB_VOTE_ANY || sub == PTX_SUB_VOTE_ALL;
    case PTX_OP_PRMT: return sub >= PTX_SUB_PRMT_F4E && sub <= PTX_SUB_PRMT_RC16;
    case PTX_OP_SHF: return sub == PTX_SUB_SHF_L || sub == PTX_SUB_SHF_R;
    case PTX_OP_TESTP: return sub >= PTX_SUB_TESTP_FINITE && sub <= PTX_SUB_TESTP_SUBNORMAL;
    case PTX_OP_TLD4: return sub >= PTX_SUB_TLD4_R && sub <= PTX_SUB_TLD4_A;
    case PTX_OP_TXQ: return sub >= PTX_SUB_TXQ_WIDTH && sub <= PTX_SUB_TXQ_NUM_SAMPLES;
    default: return false;
    }
}

static bool mn_is_cmp_op(ptx_opcode op)
{
    return op == PTX_OP_SETP || op == PTX_OP_SET || op == PTX_OP_SLCT;
}

/* cp.async words: "cp.async.ca.shared.global", "cp.async.commit_group",
 * "cp.async.wait_group", "cp.async.wait_all", "cp.async.mbarrier.arrive".
 * Returns 1 when w is one of them, 0 when it is not, -1 when it is misplaced. */
static int mn_cp_word(ptx_mods *m, const char *w, const char *prev)
{
    static const struct { const char *s; uint8_t sub; } forms[] = {
        {"commit_group", PTX_SUB_CP_COMMIT_GROUP}, {"wait_group", PTX_SUB_CP_WAIT_GROUP},
        {"wait_all", PTX_SUB_CP_WAIT_ALL}, {"mbarrier", PTX_SUB_CP_MBARRIER_ARRIVE},
    };
    if (!strcmp(w, "async"))
        return strcmp(prev, "cp") ? -1 : (m->subop = PTX_SUB_CP_ASYNC, 1);
    if (m->subop == PTX_SUB_NONE)
        return -1;      /* cp.<anything but async> */
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (!strcmp(w, forms[i].s))
            return strcmp(prev, "async") ? -1 : (m->subop = forms[i].sub, 1);
    if (!strcmp(w, "arrive"))
        return m->subop == PTX_SUB_CP_MBARRIER_ARRIVE && !strcmp(prev, "mbarrier") ? 1 : -1;
    if (!strcmp(w, "noinc")) { m->flags |= PTX_F_NOINC; return 1; }
    if (!strcmp(w, "cg")) { m->flags |= PTX_F_CG; return 1; }
    if (!strcmp(w, "L2::cache_hint")) { m->flags |= PTX_F_CACHE_HINT; return 1; }
    /* .shared{::cta}.global, in this order: the destination's space is kept */
    if (!strcmp(w, "shared") || !strcmp(w, "shared::cta")) {
        if (m->space != PTX_SPACE_NONE)
            return -1;
        m->space = PTX_SPACE_SHARED;
        return 1;
    }
    if (!strcmp(w, "global"))
        return m->space == PTX_SPACE_SHARED ? 1 : -1;
    return 0;
}

static int mn_mbarrier_word(ptx_mods *m, const char *w)
{
    static const struct { const char *s; uint8_t sub; } forms[] = {
        {"init", PTX_SUB_MBAR_INIT}, {"arrive", PTX_SUB_MBAR_ARRIVE},
        {"arrive_drop", PTX_SUB_MBAR_ARRIVE_DROP}, {"test_wait", PTX_SUB_MBAR_TEST_WAIT},
        {"try_wait", PTX_SUB_MBAR_TRY_WAIT}, {"pending_count", PTX_SUB_MBAR_PENDING_COUNT},
        {"inval", PTX_SUB_MBAR_INVAL},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (!strcmp(w, forms[i].s))
            return m->subop ? -1 : (m->subop = forms[i].sub, 1);
    if (!strcmp(w, "parity")) { m->flags |= PTX_F_PARITY; return 1; }
    if (!strcmp(w, "noComplete")) { m->flags |= PTX_F_NOCOMPLETE; return 1; }
    return 0;
}

/* One modifier word (without the dot).  prev is the previous word, for
 * the two-word forms bar.warp.sync and wmma.load.a. */
static bool mn_word(ptx_mods *m, const char *w, const char *prev, int *wmma_layouts)
{
    ptx_opcode op = m->op;
    ptx_type t;
    ptx_space sp;
    ptx_rounding r;
    ptx_cmp c;
    uint32_t f;
    uint8_t sub;

    if (mn_type(w, &t)) {
        if (m->ntypes >= 2)
            return false;
        m->types[m->ntypes++] = t;
        return true;
    }
    if (op == PTX_OP_WMMA) {
        if (!strcmp(prev, "wmma") && !strcmp(w, "mma")) { m->subop = PTX_SUB_WMMA_MMA; return true; }
        if (!strcmp(prev, "wmma") && (!strcmp(w, "load") || !strcmp(w, "store"))) return true;
        if (!strcmp(prev, "load")) {
            if (!strcmp(w, "a")) { m->subop = PTX_SUB_WMMA_LOAD_A; return true; }
            if (!strcmp(w, "b")) { m->subop = PTX_SUB_WMMA_LOAD_B; return true; }
            if (!strcmp(w, "c")) { m->subop = PTX_SUB_WMMA_LOAD_C; return true; }
            return false;
        }
        if (!strcmp(prev, "store"))
            return !strcmp(w, "d") && (m->subop = PTX_SUB_WMMA_STORE_D);
        if (!strcmp(w, "m16n16k16")) { m->wmma_shape = 1; return true; }
        if (!strcmp(w, "m32n8k16")) { m->wmma_shape = 2; return true; }
        if (!strcmp(w, "m8n32k16")) { m->wmma_shape = 3; return true; }
        if (!strcmp(w, "row") || !strcmp(w, "col")) {
            /* mma: first layout is A's, second B's.  load.a/load.c/store.d:
             * PTX_F_ROW_A says the one matrix is row-major; load.b: PTX_F_ROW_B. */
            bool row = w[0] == 'r';
            int which = *wmma_layouts;
            if (m->subop == PTX_SUB_WMMA_LOAD_B)
                which = 1;
            if (which > 1 || (m->subop != PTX_SUB_WMMA_MMA && *wmma_layouts > 0))
                return false;
            if (row)
                m->flags |= which == 0 ? PTX_F_ROW_A : PTX_F_ROW_B;
            (*wmma_layouts)++;
            return true;
        }
    }
    if (op == PTX_OP_BAR || op == PTX_OP_BARRIER) {
        if (!strcmp(w, "warp") && op == PTX_OP_BAR && !strcmp(prev, "bar")) return true;
        if (!strcmp(w, "sync")) {
            m->subop = !strcmp(prev, "warp") ? PTX_SUB_BAR_WARP_SYNC : PTX_SUB_BAR_SYNC;
            m->flags |= PTX_F_SYNC;
            return true;
        }
        if (!strcmp(w, "arrive")) { m->subop = PTX_SUB_BAR_ARRIVE; return true; }
        if (!strcmp(w, "red")) { m->subop = PTX_SUB_BAR_RED; return true; }
        /* bar.red.popc.u32: no boolop, the u32 type says popc */
        if (!strcmp(w, "popc") && m->subop == PTX_SUB_BAR_RED) return true;
        if (m->subop == PTX_SUB_BAR_RED) {
            if (!strcmp(w, "and")) { m->boolop = PTX_BOOL_AND; return true; }
            if (!strcmp(w, "or")) { m->boolop = PTX_BOOL_OR; return true; }
        }
    }
    if (op == PTX_OP_TLD4 && strlen(w) == 1 && strchr("rgba", w[0])) {
        if (m->subop)
            return false;
        m->subop = (uint8_t)(PTX_SUB_TLD4_R + (strchr("rgba", w[0]) - "rgba"));
        return true;
    }
    if (op == PTX_OP_TEX || op == PTX_OP_TLD4) {
        for (int g = 1; g < PTX_GEOM_COUNT; g++)
            if (!strcmp(w, mn_geoms[g])) {
                if (m->geom)
                    return false;
                m->geom = (uint8_t)g;
                return true;
            }
    }
    if (op == PTX_OP_CP || op == PTX_OP_MBARRIER) {
        int r = op == PTX_OP_CP ? mn_cp_word(m, w, prev) : mn_mbarrier_word(m, w);
        if (r)
            return r > 0;
    }
    if (op == PTX_OP_REDUX && !strcmp(w, "abs")) {
        m->flags |= PTX_F_ABS;
        return true;
    }
    if ((op == PTX_OP_ATOM || op == PTX_OP_RED || op == PTX_OP_REDUX) && mn_atom(w, &sub)) {
        if (m->subop)
            return false;
        m->subop = sub;
        return true;
    }
    if (mn_is_cmp_op(op) && mn_cmp(w, &c)) {
        if (m->cmp)
            return false;
        m->cmp = c;
        return true;
    }
    if (op == PTX_OP_SETP || op == PTX_OP_SET) {
        if (!strcmp(w, "and")) { m->boolop = PTX_BOOL_AND; return true; }
        if (!strcmp(w, "or")) { m->boolop = PTX_BOOL_OR; return true; }
        if (!strcmp(w, "xor")) { m->boolop = PTX_BOOL_XOR; return true; }
    }
    if (mn_misc(w, &sub) && mn_subop_ok(op, sub)) {
        m->subop = sub;
        return true;
    }
    if (mn_space(w, &sp)) {
        m->space = (uint8_t)sp;
        return true;
    }
    if (mn_round(w, &r)) {
        m->rounding = (uint8_t)r;
        return true;
    }
    if (!strcmp(w, "v2") || !strcmp(w, "v4")) {
        m->vec = (uint8_t)(w[1] - '0');
        return true;
    }
    if (mn_flag(w, &f)) {
        m->flags |= f;
        return true;
    }
    if (mn_cache(w, &sub)) {
        m->cache = sub;
        return true;
    }
    return mn_hint(w);
}

bool ptx_mnemonic_decode(const char *mnem, ptx_mods *m, char *msg, size_t msgsize)
{
    char buf[256];
    memset(m, 0, sizeof *m);
    if (strlen(mnem) >= sizeof buf) {
        snprintf(msg, msgsize, "unsupported instruction '%.64s...'", mnem);
        return false;
    }
    strcpy(buf, mnem);
    char *save = NULL;
    char *w = strtok_r(buf, ".", &save);
    ptx_opcode op = ptx_opcode_from_name(w);
    if (op == PTX_OP_COUNT) {
        const char *why = ptx_unsupported_why(w);
        if (why)
            snprintf(msg, msgsize, "unsupported instruction '%s': %s", mnem, why);
        else
            snprintf(msg, msgsize, "unsupported instruction '%s'", mnem);
        return false;
    }
    m->op = op;
    const char *prev = w;
    int wmma_layouts = 0;
    while ((w = strtok_r(NULL, ".", &save))) {
        if (!mn_word(m, w, prev, &wmma_layouts)) {
            snprintf(msg, msgsize, "unsupported modifier '.%s' in instruction '%s'", w, mnem);
            return false;
        }
        prev = w;
    }
    return true;
}
