/* Texture instructions: tex and tld4 fetch through the texture unit of
 * texture.c from the texture objects the launch carries; txq reads their
 * attributes.  A fetch is timed as a global load of the first texel each
 * lane reads (the timing model has no texture cache of its own), and is
 * not counted among the global loads of the summary, as Nsight Compute
 * counts texture traffic apart from LSU traffic. */
#include <string.h>

#include "warp.h"

/* The texture object a lane names, or NULL with the fault reported. */
static const ws_texture *texture_of(ws_exec *x, ws_block *b, ws_warp *w, int lane, int32_t pc,
                                    uint64_t handle)
{
    const ws_launch *l = x->l;
    if (handle >= 1 && handle <= l->ntextures && l->textures[handle - 1].live)
        return &l->textures[handle - 1];
    ws_fault(x, b, w, lane, pc, "Invalid texture object %llu (%s)", (unsigned long long)handle,
             handle == 0 ? "0 is no texture" : "not created, or destroyed, before the launch");
    x->err->kind = WS_ERR_ILLEGAL_ADDRESS;
    return NULL;
}

bool ws_exec_tex(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc,
                 uint32_t mask, ws_step_info *info)
{
    const ws_opnd *dst = &x->p->vec[in->ops[0].elem0], *src = &x->p->vec[in->ops[1].elem0];
    bool tld4 = in->m.op == PTX_OP_TLD4, int_coords = in->m.types[1] == PTX_T_S32;
    int dims = in->m.geom;
    uint64_t own[WS_WARP_SIZE], *addrs = info ? info->addr : own;
    uint32_t size = 4;
    FOR_LANES(mask, lane) {
        const ws_texture *t = texture_of(x, b, w, lane, pc, ws_opnd_lane(x, b, w, &src[0], lane));
        if (!t) return false;
        if (t->linear && !int_coords) {
            ws_fault(x, b, w, lane, pc, "texture object %llu is linear memory: only tex1Dfetch "
                     "(integer coordinates) reads it", (unsigned long long)ws_opnd_lane(x, b, w, &src[0], lane));
            return false;
        }
        uint32_t coords[3] = {0, 0, 0}, out[4];
        for (int d = 0; d < dims && d < 3; d++) coords[d] = (uint32_t)ws_opnd_lane(x, b, w, &src[1 + d], lane);
        ws_texture view = *t;
        view.dims = (uint8_t)dims;      /* the instruction's geometry decides the coordinates used */
        bool ok = tld4 ? ws_tex_gather(&view, x->p->mem, coords, in->m.subop - PTX_SUB_TLD4_R, out, &addrs[lane])
                       : ws_tex_fetch(&view, x->p->mem, coords, int_coords, out, &addrs[lane]);
        if (!ok) {
            ws_fault(x, b, w, lane, pc, "Invalid __global__ read of size %u at 0x%llx (a texel of texture "
                     "object %llu outside device memory)", ws_tex_texel_bytes(t),
                     (unsigned long long)addrs[lane], (unsigned long long)ws_opnd_lane(x, b, w, &src[0], lane));
            x->err->kind = WS_ERR_ILLEGAL_ADDRESS;
            return false;
        }
        size = ws_tex_texel_bytes(t);
        for (int k = 0; k < 4; k++)
            if (dst[k].kind == WS_OK_REG) ws_reg_set(w, &dst[k], lane, out[k]);
    }
    if (info) {
        info->mem = true;
        info->store = false;
        info->space = WS_SP_GLOBAL;
        info->size = size;
        info->naccess = 1;              /* one warp-wide fetch, timed as a global load */
        info->resolved.valid = false;   /* its sectors are the LSU's to work out */
    }
    return true;
}

bool ws_exec_txq(ws_exec *x, ws_block *b, ws_warp *w, const ws_insn *in, int32_t pc, uint32_t mask)
{
    const ws_opnd *d = &in->ops[0], *a = &in->ops[1];
    FOR_LANES(mask, lane) {
        const ws_texture *t = texture_of(x, b, w, lane, pc, ws_reg_get(w, a, lane));
        if (!t) return false;
        uint32_t v = 0;
        switch (in->m.subop) {
        case PTX_SUB_TXQ_WIDTH: v = t->width; break;
        case PTX_SUB_TXQ_HEIGHT: v = t->height; break;
        case PTX_SUB_TXQ_DEPTH: v = t->depth; break;
        case PTX_SUB_TXQ_NORMALIZED_COORDS: v = t->normalized_coords; break;
        case PTX_SUB_TXQ_FILTER_MODE: v = t->filter_linear; break;
        default: break;
        }
        ws_reg_set(w, d, lane, v);
    }
    return true;
}
