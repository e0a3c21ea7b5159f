/* Static facts about opcodes and types. */
#include "ptx_isa.h"

#include <string.h>

static const char *const ptx_opcode_names[PTX_OP_COUNT] = {
#define X(name, mnemonic, cls, alu, pipe, flags) [PTX_OP_##name] = mnemonic,
#include "ptx_opcodes.def"
#undef X
};

const char *ptx_opcode_name(ptx_opcode op)
{
    return (unsigned)op < PTX_OP_COUNT ? ptx_opcode_names[op] : "?";
}

ptx_opcode ptx_opcode_from_name(const char *word)
{
    int op = 0;
    while (word && op < PTX_OP_COUNT && strcmp(ptx_opcode_names[op], word)) op++;
    return word ? (ptx_opcode)op : PTX_OP_COUNT;
}

static const struct { const char *name; uint32_t size; } ptx_types[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"", 0},         [PTX_T_PRED] = {".pred", 1},
    [PTX_T_B8] = {".b8", 1},        [PTX_T_B16] = {".b16", 2},
    [PTX_T_B32] = {".b32", 4},      [PTX_T_B64] = {".b64", 8},
    [PTX_T_B128] = {".b128", 16},   [PTX_T_U8] = {".u8", 1},
    [PTX_T_U16] = {".u16", 2},      [PTX_T_U32] = {".u32", 4},
    [PTX_T_U64] = {".u64", 8},      [PTX_T_S8] = {".s8", 1},
    [PTX_T_S16] = {".s16", 2},      [PTX_T_S32] = {".s32", 4},
    [PTX_T_S64] = {".s64", 8},      [PTX_T_F16] = {".f16", 2},
    [PTX_T_F16X2] = {".f16x2", 4},  [PTX_T_BF16] = {".bf16", 2},
    [PTX_T_BF16X2] = {".bf16x2", 4}, [PTX_T_TF32] = {".tf32", 4},
    [PTX_T_F32] = {".f32", 4},      [PTX_T_F64] = {".f64", 8},
};

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? ptx_types[t].name : "?";
}

uint32_t ptx_type_size(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? ptx_types[t].size : 0;
}

bool ptx_type_is_float(ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2 ||
           t == PTX_T_TF32 || t == PTX_T_F32 || t == PTX_T_F64;
}

bool ptx_type_is_signed(ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}
