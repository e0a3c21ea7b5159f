/* The vocabulary of the PTX instruction set as warpsim speaks it: opcodes
 * (ptx_opcodes.def), types, state spaces, modifiers, special registers.
 *
 * A leaf: the front end writes these when it parses a module, the
 * simulator's decoder and executor read them, and neither side's data
 * structures are needed to use them (the front end's IR is
 * frontend/ptx/ptx_ir.h, the simulator's decoded instruction
 * sim/core/insn.h). */
#ifndef WARPSIM_PTX_ISA_H
#define WARPSIM_PTX_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ptx_opcode {
#define X(name, mnemonic, cls, alu, pipe, flags) PTX_OP_##name,
#include "ptx_opcodes.def"
#undef X
    PTX_OP_COUNT
} ptx_opcode;

typedef enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32,
    PTX_T_F32, PTX_T_F64,
    PTX_T_COUNT
} ptx_type;

typedef enum ptx_space {
    PTX_SPACE_NONE = 0,     /* generic addressing (ld without a space) */
    PTX_SPACE_REG, PTX_SPACE_GLOBAL, PTX_SPACE_SHARED, PTX_SPACE_LOCAL,
    PTX_SPACE_CONST, PTX_SPACE_PARAM, PTX_SPACE_COUNT
} ptx_space;

typedef enum ptx_rounding {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,       /* float result */
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,   /* integer result */
    PTX_RND_RNA
} ptx_rounding;

typedef enum ptx_cmp {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU, PTX_CMP_GEU,
    PTX_CMP_NUM, PTX_CMP_NAN
} ptx_cmp;

typedef enum ptx_boolop { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR } ptx_boolop;

/* The one sub-operation an opcode has, where it has one. */
typedef enum ptx_subop {
    PTX_SUB_NONE = 0,
    /* shfl */
    PTX_SUB_SHFL_UP, PTX_SUB_SHFL_DOWN, PTX_SUB_SHFL_BFLY, PTX_SUB_SHFL_IDX,
    /* vote; match.sync takes any and all */
    PTX_SUB_VOTE_ALL, PTX_SUB_VOTE_ANY, PTX_SUB_VOTE_UNI, PTX_SUB_VOTE_BALLOT,
    /* atom, red; redux.sync takes add min max and or xor */
    PTX_SUB_ATOM_ADD, PTX_SUB_ATOM_MIN, PTX_SUB_ATOM_MAX, PTX_SUB_ATOM_EXCH,
    PTX_SUB_ATOM_CAS, PTX_SUB_ATOM_INC, PTX_SUB_ATOM_DEC, PTX_SUB_ATOM_AND,
    PTX_SUB_ATOM_OR, PTX_SUB_ATOM_XOR,
    /* bar, barrier */
    PTX_SUB_BAR_SYNC, PTX_SUB_BAR_ARRIVE, PTX_SUB_BAR_RED, PTX_SUB_BAR_WARP_SYNC,
    /* prmt modes (none = generic selector) */
    PTX_SUB_PRMT_F4E, PTX_SUB_PRMT_B4E, PTX_SUB_PRMT_RC8, PTX_SUB_PRMT_ECL,
    PTX_SUB_PRMT_ECR, PTX_SUB_PRMT_RC16,
    /* shf */
    PTX_SUB_SHF_L, PTX_SUB_SHF_R,
    /* wmma */
    PTX_SUB_WMMA_LOAD_A, PTX_SUB_WMMA_LOAD_B, PTX_SUB_WMMA_LOAD_C,
    PTX_SUB_WMMA_STORE_D, PTX_SUB_WMMA_MMA,
    /* testp */
    PTX_SUB_TESTP_FINITE, PTX_SUB_TESTP_INFINITE, PTX_SUB_TESTP_NUMBER,
    PTX_SUB_TESTP_NOTANUMBER, PTX_SUB_TESTP_NORMAL, PTX_SUB_TESTP_SUBNORMAL,
    /* tld4: the channel gathered */
    PTX_SUB_TLD4_R, PTX_SUB_TLD4_G, PTX_SUB_TLD4_B, PTX_SUB_TLD4_A,
    /* txq: the attribute queried */
    PTX_SUB_TXQ_WIDTH, PTX_SUB_TXQ_HEIGHT, PTX_SUB_TXQ_DEPTH, PTX_SUB_TXQ_NORMALIZED_COORDS,
    PTX_SUB_TXQ_FILTER_MODE, PTX_SUB_TXQ_ADDR_MODE_0, PTX_SUB_TXQ_ADDR_MODE_1,
    PTX_SUB_TXQ_ADDR_MODE_2, PTX_SUB_TXQ_CHANNEL_DATA_TYPE, PTX_SUB_TXQ_CHANNEL_ORDER,
    PTX_SUB_TXQ_ARRAY_SIZE, PTX_SUB_TXQ_NUM_MIPMAP_LEVELS, PTX_SUB_TXQ_NUM_SAMPLES,
    /* cp.async: the copy, commit_group, wait_group, wait_all, mbarrier.arrive */
    PTX_SUB_CP_ASYNC, PTX_SUB_CP_COMMIT_GROUP, PTX_SUB_CP_WAIT_GROUP, PTX_SUB_CP_WAIT_ALL,
    PTX_SUB_CP_MBARRIER_ARRIVE,
    /* mbarrier */
    PTX_SUB_MBAR_INIT, PTX_SUB_MBAR_ARRIVE, PTX_SUB_MBAR_ARRIVE_DROP, PTX_SUB_MBAR_TEST_WAIT,
    PTX_SUB_MBAR_TRY_WAIT, PTX_SUB_MBAR_PENDING_COUNT, PTX_SUB_MBAR_INVAL,
    PTX_SUB_COUNT
} ptx_subop;

/* Texture geometry (tex, tld4): .1d .2d .3d, and the forms warpsim
 * recognizes only to refuse them by name. */
typedef enum ptx_geom {
    PTX_GEOM_NONE = 0, PTX_GEOM_1D, PTX_GEOM_2D, PTX_GEOM_3D,
    PTX_GEOM_A1D, PTX_GEOM_A2D, PTX_GEOM_CUBE, PTX_GEOM_ACUBE, PTX_GEOM_2DMS, PTX_GEOM_A2DMS,
    PTX_GEOM_COUNT
} ptx_geom;

/* Flags: modifiers that are either there or not. */
enum {
    PTX_F_FTZ      = 1u << 0,
    PTX_F_SAT      = 1u << 1,
    PTX_F_APPROX   = 1u << 2,
    PTX_F_FULL     = 1u << 3,
    PTX_F_WIDE     = 1u << 4,   /* mul.wide, mad.wide */
    PTX_F_HI       = 1u << 5,   /* mul.hi, mad.hi, mul24.hi */
    PTX_F_LO       = 1u << 6,
    PTX_F_UNI      = 1u << 7,   /* bra.uni, call.uni */
    PTX_F_VOLATILE = 1u << 8,
    PTX_F_NC       = 1u << 9,   /* ld.global.nc */
    PTX_F_SYNC     = 1u << 10,
    PTX_F_ALIGNED  = 1u << 11,
    PTX_F_CC       = 1u << 12,  /* add.cc, sub.cc, mad.cc: writes the carry flag */
    PTX_F_TO       = 1u << 13,  /* cvta.to.SPACE: generic -> SPACE */
    PTX_F_WRAP     = 1u << 14,  /* shf.wrap */
    PTX_F_CLAMP    = 1u << 15,  /* shf.clamp */
    PTX_F_SHIFTAMT = 1u << 16,  /* bfind.shiftamt */
    PTX_F_NAN      = 1u << 17,  /* min.NaN, max.NaN */
    PTX_F_RELU     = 1u << 18,  /* cvt .relu, fma .relu */
    PTX_F_ROW_A    = 1u << 19,  /* wmma layouts: A row-major (else col) */
    PTX_F_ROW_B    = 1u << 20,  /* wmma layouts: B row-major (else col) */
    PTX_F_SATFINITE= 1u << 21,
    PTX_F_PARITY   = 1u << 22,  /* mbarrier.test_wait.parity, try_wait.parity */
    PTX_F_NOINC    = 1u << 23,  /* cp.async.mbarrier.arrive.noinc */
    PTX_F_NOCOMPLETE = 1u << 24, /* mbarrier.arrive.noComplete */
    PTX_F_CG       = 1u << 25,  /* cp.async.cg (16 bytes, L2 only) */
    PTX_F_CACHE_HINT = 1u << 26, /* .L2::cache_hint: a trailing cache-policy operand */
    PTX_F_ABS      = 1u << 27   /* redux.sync.min.abs.f32 (sm_100a) */
};

/* Cache operators and L1 eviction priorities of ld and st (PTX ISA,
 * "Cache Operators", "ld"): none written is PTX_CACHE_DEFAULT. */
typedef enum ptx_cache_op {
    PTX_CACHE_DEFAULT = 0,
    PTX_CACHE_CA, PTX_CACHE_CG, PTX_CACHE_CS, PTX_CACHE_LU, PTX_CACHE_CV,
    PTX_CACHE_WB, PTX_CACHE_WT,
    PTX_CACHE_L1_EVICT_NORMAL, PTX_CACHE_L1_EVICT_UNCHANGED, PTX_CACHE_L1_EVICT_FIRST,
    PTX_CACHE_L1_EVICT_LAST, PTX_CACHE_L1_NO_ALLOCATE
} ptx_cache_op;

/* Everything the mnemonic says besides the opcode.  types[] holds the type
 * modifiers in the order written: cvt.f32.s32 -> {F32, S32}; set.lt.u32.f32
 * -> {U32, F32}; slct.f32.s32 -> {F32, S32}; wmma.mma...f32.f32 -> {F32, F32}
 * (d type, c type); wmma.load.a...f16 -> {F16}. */
typedef struct ptx_mods {
    ptx_opcode op;
    ptx_type types[2];
    uint8_t ntypes;
    uint8_t space;          /* ptx_space */
    uint8_t rounding;       /* ptx_rounding */
    uint8_t cmp;            /* ptx_cmp */
    uint8_t boolop;         /* ptx_boolop */
    uint8_t subop;          /* ptx_subop */
    uint8_t vec;            /* 0 or 1 = scalar, 2 = .v2, 4 = .v4 */
    uint8_t wmma_shape;     /* 0 = none, 1 = m16n16k16, 2 = m32n8k16, 3 = m8n32k16 */
    uint8_t cache;          /* ptx_cache_op */
    uint8_t geom;           /* ptx_geom: tex, tld4 */
    uint32_t flags;         /* PTX_F_* */
} ptx_mods;

typedef enum ptx_sreg {
    PTX_SREG_TID, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID,
    PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID,
    PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64, PTX_SREG_GLOBALTIMER,
    PTX_SREG_LANEMASK_EQ, PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT,
    PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
    PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_TOTAL_SMEM_SIZE,
    PTX_SREG_ENVREG,        /* %envreg1 and %envreg2 (component 1, 2): a cooperative launch's workspace */
    PTX_SREG_COUNT
} ptx_sreg;

/* Static facts about the tables; implemented in ptx_isa.c. */
const char *ptx_opcode_name(ptx_opcode op);
/* The opcode whose mnemonic is word ("mad24"), PTX_OP_COUNT when none is. */
ptx_opcode ptx_opcode_from_name(const char *word);
const char *ptx_type_name(ptx_type t);      /* ".f32" */
uint32_t ptx_type_size(ptx_type t);         /* bytes; PRED -> 1 */
bool ptx_type_is_float(ptx_type t);
bool ptx_type_is_signed(ptx_type t);        /* S8..S64 */

#endif
