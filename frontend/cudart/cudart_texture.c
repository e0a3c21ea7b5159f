/* Texture objects: cudaCreateTextureObject turns a resource (a CUDA array,
 * linear memory or pitch2D memory) and a texture description into a
 * ws_texture in the context's table; every launch hands the table to the
 * simulator, and a kernel's cudaTextureObject_t is its index plus one.
 * What CUDA documents and warpsim follows: linear memory is read by
 * tex1Dfetch only, with no addressing or filtering; wrap and mirror need
 * normalized coordinates and become clamp without them; read mode
 * cudaReadModeNormalizedFloat promotes 8- and 16-bit integers only; linear
 * filtering needs a texture that returns floats.  Mipmapped arrays,
 * resource views and sRGB conversion are refused with a message. */
#include <stdlib.h>
#include <string.h>
#include "cudart_ctx.h"

static ws_tex_kind tex_kind(enum cudaChannelFormatKind f)
{
    return f == cudaChannelFormatKindSigned ? WS_TEX_SIGNED
         : f == cudaChannelFormatKindUnsigned ? WS_TEX_UNSIGNED : WS_TEX_FLOAT;
}

/* The texture's format from a channel descriptor. */
static bool set_format(ws_texture *t, const struct cudaChannelFormatDesc *d)
{
    uint32_t bytes = cr_channel_bytes(d, "cudaCreateTextureObject");
    if (!bytes) return false;
    t->kind = (uint8_t)tex_kind(d->f);
    t->channel_bytes = (uint8_t)(d->x / 8);
    t->channels = (uint8_t)(bytes / t->channel_bytes);
    return true;
}

/* [addr, addr + size) must be device memory the program allocated. */
static bool device_range(cr_context *c, const void *p, uint64_t size)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    cr_alloc *al = cr_alloc_find(c, a, size);
    return al ? !al->managed : ws_devmem_valid(c->mem, a, size ? size : 1);
}

static cudaError_t refuse(const char *what)
{
    cr_note("cudaCreateTextureObject: %s", what);
    return cudaErrorNotSupported;
}

static cudaError_t invalid(const char *what)
{
    cr_note("cudaCreateTextureObject: %s", what);
    return cudaErrorInvalidValue;
}

/* Where the texels are and how many: from the resource description. */
static cudaError_t set_resource(cr_context *c, ws_texture *t, const struct cudaResourceDesc *r)
{
    if (r->flags != 0) return cudaErrorInvalidValue;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        const cr_array *a = cr_array_find(c, r->res.array.array);
        if (!a) return cudaErrorInvalidResourceHandle;
        if (!set_format(t, &a->desc)) return cudaErrorInvalidChannelDescriptor;
        t->dims = (uint8_t)(a->depth ? 3 : a->height ? 2 : 1);
        t->base = a->addr;
        t->pitch = a->pitch;
        t->slice = a->slice;
        t->width = (uint32_t)a->width;
        t->height = (uint32_t)a->height;
        t->depth = (uint32_t)a->depth;
        return cudaSuccess;
    }
    case cudaResourceTypeLinear: {
        if (!set_format(t, &r->res.linear.desc)) return cudaErrorInvalidChannelDescriptor;
        uint64_t texel = ws_tex_texel_bytes(t), n = r->res.linear.sizeInBytes / texel;
        if ((uintptr_t)r->res.linear.devPtr % CR_TEXTURE_BASE_ALIGNMENT)
            return invalid("linear memory must start at a multiple of textureAlignment");
        if (n == 0 || n > UINT32_MAX || !device_range(c, r->res.linear.devPtr, n * texel))
            return invalid("the linear memory is not sizeInBytes of device memory");
        t->linear = true;
        t->dims = 1;
        t->base = (uint64_t)(uintptr_t)r->res.linear.devPtr;
        t->width = (uint32_t)n;
        return cudaSuccess;
    }
    case cudaResourceTypePitch2D: {
        if (!set_format(t, &r->res.pitch2D.desc)) return cudaErrorInvalidChannelDescriptor;
        uint64_t w = r->res.pitch2D.width, h = r->res.pitch2D.height, pitch = r->res.pitch2D.pitchInBytes;
        if ((uintptr_t)r->res.pitch2D.devPtr % CR_TEXTURE_BASE_ALIGNMENT || pitch % CR_TEXTURE_PITCH_ALIGNMENT)
            return invalid("pitch2D memory must start at a multiple of textureAlignment and have a pitch "
                           "that is a multiple of texturePitchAlignment (32 bytes)");
        if (w == 0 || h == 0 || w > UINT32_MAX || h > UINT32_MAX || w * ws_tex_texel_bytes(t) > pitch ||
            !device_range(c, r->res.pitch2D.devPtr, pitch * (h - 1) + w * ws_tex_texel_bytes(t)))
            return invalid("the pitch2D memory is not height rows of pitchInBytes of device memory");
        t->dims = 2;
        t->base = (uint64_t)(uintptr_t)r->res.pitch2D.devPtr;
        t->pitch = pitch;
        t->width = (uint32_t)w;
        t->height = (uint32_t)h;
        return cudaSuccess;
    }
    case cudaResourceTypeMipmappedArray:
        return refuse("mipmapped arrays are not supported by warpsim");
    default:
        return cudaErrorInvalidValue;
    }
}

/* How texels are sampled: from the texture description. */
static cudaError_t set_sampling(ws_texture *t, const struct cudaTextureDesc *d)
{
    if (d->sRGB) return refuse("sRGB conversion is not supported by warpsim");
    if (t->linear) return cudaSuccess;     /* tex1Dfetch: no addressing, no filtering */
    t->normalized_coords = d->normalizedCoords != 0;
    for (int k = 0; k < 3; k++) {
        int m = d->addressMode[k];
        if (m < cudaAddressModeWrap || m > cudaAddressModeBorder) return cudaErrorInvalidValue;
        if (!t->normalized_coords && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
            m = cudaAddressModeClamp;
        t->address[k] = (uint8_t)m;
    }
    if (d->filterMode != cudaFilterModePoint && d->filterMode != cudaFilterModeLinear) return cudaErrorInvalidValue;
    if (d->readMode != cudaReadModeElementType && d->readMode != cudaReadModeNormalizedFloat)
        return cudaErrorInvalidValue;
    t->read_normalized = d->readMode == cudaReadModeNormalizedFloat && t->kind != WS_TEX_FLOAT &&
                         t->channel_bytes < 4;
    t->filter_linear = d->filterMode == cudaFilterModeLinear;
    if (t->filter_linear && !ws_tex_returns_float(t)) {     /* the H200's answer too */
        cr_note("cudaCreateTextureObject: linear filtering needs a texture that returns floats (a float "
                "format, or an 8- or 16-bit integer one read with cudaReadModeNormalizedFloat)");
        return cudaErrorInvalidFilterSetting;
    }
    memcpy(t->border, d->borderColor, sizeof t->border);
    return cudaSuccess;
}

/* A free slot of the table (a destroyed texture's, or a new one). */
static cudaError_t new_slot(cr_context *c, size_t *slot)
{
    for (size_t i = 0; i < c->ntextures; i++)
        if (!c->textures[i].live) {
            *slot = i;
            return cudaSuccess;
        }
    if (c->ntextures == c->captextures) {
        size_t n = c->captextures ? c->captextures * 2 : 16;
        ws_texture *t = realloc(c->textures, n * sizeof *t);
        if (!t) return cudaErrorMemoryAllocation;
        c->textures = t;
        cr_texobj *o = realloc(c->texobjs, n * sizeof *o);
        if (!o) return cudaErrorMemoryAllocation;
        c->texobjs = o;
        c->captextures = n;
    }
    *slot = c->ntextures++;
    c->textures[*slot].live = false;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                              const struct cudaResourceDesc *pResDesc,
                                              const struct cudaTextureDesc *pTexDesc,
                                              const struct cudaResourceViewDesc *pResViewDesc)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!pTexObject || !pResDesc || !pTexDesc) return cr_ret(c, cudaErrorInvalidValue);
    if (pResViewDesc) return cr_ret(c, refuse("resource views are not supported by warpsim"));
    ws_texture t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 3; k++) t.address[k] = WS_TEX_CLAMP;
    if ((e = set_resource(c, &t, pResDesc)) != cudaSuccess || (e = set_sampling(&t, pTexDesc)) != cudaSuccess)
        return cr_ret(c, e);
    size_t slot;
    if ((e = new_slot(c, &slot)) != cudaSuccess) return cr_ret(c, e);
    t.live = true;
    c->textures[slot] = t;
    c->texobjs[slot] = (cr_texobj){*pResDesc, *pTexDesc};
    *pTexObject = (cudaTextureObject_t)slot + 1;
    return cudaSuccess;
}

/* The live texture object h, or NULL. */
static cr_texobj *texobj(cr_context *c, cudaTextureObject_t h)
{
    return h >= 1 && h <= c->ntextures && c->textures[h - 1].live ? &c->texobjs[h - 1] : NULL;
}

CR_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (texObject == 0) return cudaSuccess;
    if (!texobj(c, texObject)) return cr_ret(c, cudaErrorInvalidValue);
    c->textures[texObject - 1].live = false;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaTextureObject_t texObject)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_texobj *o = texobj(c, texObject);
    if (!pResDesc || !o) return cr_ret(c, cudaErrorInvalidValue);
    *pResDesc = o->res;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                      cudaTextureObject_t texObject)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_texobj *o = texobj(c, texObject);
    if (!pTexDesc || !o) return cr_ret(c, cudaErrorInvalidValue);
    *pTexDesc = o->tex;
    return cudaSuccess;
}

void cr_textures_reset(cr_context *c)
{
    for (size_t i = 0; i < c->narrays; i++) free(c->arrays[i]);
    c->narrays = 0;
    c->ntextures = 0;
}
