/* CUDA arrays and channel formats: cudaMallocArray, cudaMalloc3DArray,
 * the copies to, from and between arrays, and their queries.  An array is
 * device memory laid out densely, row after row and slice after slice
 * (cudart_ctx.h); only textures read it (cudart_texture.c), and 3D copies
 * (cudart_pitched.c).  Layered and cubemap arrays, mipmaps and surfaces
 * are refused with a message. */
#include <stdlib.h>
#include <string.h>
#include "cudart_ctx.h"

CR_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){x, y, z, w, f};
}

uint32_t cr_channel_bytes(const struct cudaChannelFormatDesc *d, const char *call)
{
    const int bits[4] = {d->x, d->y, d->z, d->w};
    int n = 0;
    while (n < 4 && bits[n]) n++;
    bool ok = n == 1 || n == 2 || n == 4;
    for (int i = 0; i < 4; i++)
        ok = ok && (i < n ? bits[i] == bits[0] : bits[i] == 0);
    ok = ok && (bits[0] == 8 || bits[0] == 16 || bits[0] == 32);
    ok = ok && (d->f == cudaChannelFormatKindSigned || d->f == cudaChannelFormatKindUnsigned ||
                (d->f == cudaChannelFormatKindFloat && bits[0] >= 16));
    if (!ok) {
        cr_note("%s: channel format {%d, %d, %d, %d, kind %d} is not supported by warpsim: it takes 1, 2 "
                "or 4 channels of one size (8, 16 or 32 bits; float 16 or 32), signed, unsigned or float",
                call, d->x, d->y, d->z, d->w, (int)d->f);
        return 0;
    }
    return (uint32_t)(n * bits[0] / 8);
}

cr_array *cr_array_find(cr_context *c, const void *handle)
{
    for (size_t i = 0; handle && i < c->narrays; i++)
        if (c->arrays[i] == handle) return c->arrays[i];
    return NULL;
}

static cudaError_t array_alloc(cr_array **out, const struct cudaChannelFormatDesc *desc,
                               struct cudaExtent ext, unsigned int flags, const char *call)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!out || !desc) return cr_ret(c, cudaErrorInvalidValue);
    *out = NULL;
    if (flags & (cudaArrayLayered | cudaArrayCubemap)) {
        cr_note("%s: layered and cubemap arrays are not supported by warpsim", call);
        return cr_ret(c, cudaErrorNotSupported);
    }
    if (flags & ~(unsigned)(cudaArraySurfaceLoadStore | cudaArrayTextureGather))
        return cr_ret(c, cudaErrorInvalidValue);
    uint32_t elem = cr_channel_bytes(desc, call);
    if (!elem) return cr_ret(c, cudaErrorInvalidChannelDescriptor);
    if (ext.width == 0 || (ext.height == 0 && ext.depth != 0)) return cr_ret(c, cudaErrorInvalidValue);
    uint64_t rows = (ext.height ? ext.height : 1), slices = (ext.depth ? ext.depth : 1);
    if (ext.width > (UINT64_C(1) << 32) || rows > (UINT64_C(1) << 32) || slices > (UINT64_C(1) << 32))
        return cr_ret(c, cudaErrorInvalidValue);
    uint64_t pitch = ext.width * elem, size = pitch * rows * slices;
    if (size > c->gpu.totalGlobalMem - c->bytes_allocated) return cr_ret(c, cudaErrorMemoryAllocation);
    cr_array *a = calloc(1, sizeof *a);
    if (!a) return cr_ret(c, cudaErrorMemoryAllocation);
    if (c->narrays == c->caparrays) {
        size_t n = c->caparrays ? c->caparrays * 2 : 16;
        cr_array **arr = realloc(c->arrays, n * sizeof *arr);
        if (!arr) {
            free(a);
            return cr_ret(c, cudaErrorMemoryAllocation);
        }
        c->arrays = arr;
        c->caparrays = n;
    }
    *a = (cr_array){*desc, elem, ext.width, ext.height, ext.depth, flags, 0, pitch, pitch * rows};
    a->addr = ws_devmem_alloc(c->mem, size);
    if (!a->addr) {
        free(a);
        return cr_ret(c, cudaErrorMemoryAllocation);
    }
    c->bytes_allocated += size;
    c->arrays[c->narrays++] = a;
    *out = a;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                      size_t width, size_t height, unsigned int flags)
{
    return array_alloc(array, desc, (struct cudaExtent){width, height, 0}, flags, "cudaMallocArray");
}

CR_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned int flags)
{
    return array_alloc(array, desc, extent, flags, "cudaMalloc3DArray");
}

static uint64_t array_bytes(const cr_array *a)
{
    return a->slice * (a->depth ? a->depth : 1);
}

CR_EXPORT cudaError_t cudaFreeArray(cudaArray_t array)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!array) return cudaSuccess;
    for (size_t i = 0; i < c->narrays; i++) {
        cr_array *a = c->arrays[i];
        if (a != array) continue;
        ws_devmem_free(c->mem, a->addr);
        c->bytes_allocated -= array_bytes(a);
        free(a);
        c->arrays[i] = c->arrays[--c->narrays];
        return cudaSuccess;
    }
    return cr_ret(c, cudaErrorInvalidValue);
}

CR_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_array *a = cr_array_find(c, array);
    if (!a) return cr_ret(c, cudaErrorInvalidResourceHandle);
    if (desc) *desc = a->desc;
    if (extent) *extent = (struct cudaExtent){a->width, a->height, a->depth};
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_array *a = cr_array_find(c, array);
    if (!desc) return cr_ret(c, cudaErrorInvalidValue);
    if (!a) return cr_ret(c, cudaErrorInvalidResourceHandle);
    *desc = a->desc;
    return cudaSuccess;
}

/* The device address of byte x of row y of a (the first slice), after
 * checking that width bytes of height rows from there lie inside it. */
static cudaError_t array_at(cr_context *c, const void *handle, size_t x, size_t y, size_t width,
                            size_t height, uint8_t **at)
{
    cr_array *a = cr_array_find(c, handle);
    if (!a) return cudaErrorInvalidResourceHandle;
    size_t rows = a->height ? a->height : 1;
    if (x > a->pitch || width > a->pitch - x || y > rows || height > rows - y) return cudaErrorInvalidValue;
    *at = (uint8_t *)(uintptr_t)(a->addr + y * a->pitch + x);
    return cudaSuccess;
}

/* The device address of count bytes from (x, y) of a, read row after row. */
static cudaError_t array_span(cr_context *c, const void *handle, size_t x, size_t y, size_t count,
                              uint8_t **at)
{
    cr_array *a = cr_array_find(c, handle);
    if (!a) return cudaErrorInvalidResourceHandle;
    uint64_t off = (uint64_t)y * a->pitch + x;
    if (x > a->pitch || off > array_bytes(a) || count > array_bytes(a) - off) return cudaErrorInvalidValue;
    *at = (uint8_t *)(uintptr_t)(a->addr + off);
    return cudaSuccess;
}

/* A 2D copy where an array stands on one side or both: its rows are
 * device memory whatever kind says, as in CUDA (which corrects the kind). */
static cudaError_t copy_rows(cr_context *c, uint8_t *dst, size_t dpitch, const uint8_t *src, size_t spitch,
                             size_t width, size_t height)
{
    if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cr_copy(c, dst + r * dpitch, src + r * spitch, width, cudaMemcpyDefault);
        if (e) return e;
    }
    return cudaSuccess;
}

static bool kind_ok(int kind)
{
    return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault;
}

CR_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!kind_ok(kind)) return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    uint8_t *at;
    if ((e = array_at(c, dst, wOffset, hOffset, width, height, &at)) != cudaSuccess) return cr_ret(c, e);
    return cr_ret(c, copy_rows(c, at, cr_array_find(c, dst)->pitch, src, spitch, width, height));
}

CR_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!kind_ok(kind)) return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    uint8_t *at;
    if ((e = array_at(c, src, wOffset, hOffset, width, height, &at)) != cudaSuccess) return cr_ret(c, e);
    return cr_ret(c, copy_rows(c, dst, dpitch, at, cr_array_find(c, src)->pitch, width, height));
}

CR_EXPORT cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!kind_ok(kind)) return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    uint8_t *d, *s;
    if ((e = array_at(c, dst, wOffsetDst, hOffsetDst, width, height, &d)) != cudaSuccess ||
        (e = array_at(c, src, wOffsetSrc, hOffsetSrc, width, height, &s)) != cudaSuccess)
        return cr_ret(c, e);
    return cr_ret(c, copy_rows(c, d, cr_array_find(c, dst)->pitch, s, cr_array_find(c, src)->pitch,
                               width, height));
}

CR_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!kind_ok(kind)) return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    uint8_t *at;
    if ((e = array_span(c, dst, wOffset, hOffset, count, &at)) != cudaSuccess) return cr_ret(c, e);
    return cr_ret(c, cr_copy(c, at, src, count, cudaMemcpyDefault));
}

CR_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!kind_ok(kind)) return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    uint8_t *at;
    if ((e = array_span(c, src, wOffset, hOffset, count, &at)) != cudaSuccess) return cr_ret(c, e);
    return cr_ret(c, cr_copy(c, dst, at, count, cudaMemcpyDefault));
}

CR_EXPORT cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (!kind_ok(kind)) return cr_ret(c, cudaErrorInvalidMemcpyDirection);
    uint8_t *d, *s;
    if ((e = array_span(c, dst, wOffsetDst, hOffsetDst, count, &d)) != cudaSuccess ||
        (e = array_span(c, src, wOffsetSrc, hOffsetSrc, count, &s)) != cudaSuccess)
        return cr_ret(c, e);
    return cr_ret(c, cr_copy(c, d, s, count, cudaMemcpyDefault));
}

/* The per-thread-stream and stream-ordered forms: streams run in order. */
CR_EXPORT cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, int kind)
{
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t spitch, size_t width, size_t height,
                                               int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void *src, size_t spitch, size_t width,
                                                    size_t height, int kind, cudaStream_t s)
{
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, s);
}

CR_EXPORT cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                 int kind)
{
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                 int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width,
                                                      size_t height, int kind, cudaStream_t s)
{
    return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, s);
}

CR_EXPORT cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc,
                                                    size_t hOffsetSrc, size_t width, size_t height, int kind)
{
    return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height,
                                    kind);
}

CR_EXPORT cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, int kind)
{
    return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                  const void *src, size_t count, int kind, cudaStream_t s)
{
    return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, s);
}

CR_EXPORT cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t count, int kind)
{
    return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

CR_EXPORT cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t count, int kind, cudaStream_t s)
{
    return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, s);
}

CR_EXPORT cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, int kind)
{
    return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}
