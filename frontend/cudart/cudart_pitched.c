/* Pitched and 3D memory: cudaMallocPitch and cudaMalloc3D, the 2D and 3D
 * copies and memsets, as the CUDA Runtime API documents them.  Rows are
 * padded to CR_PITCH_ALIGNMENT bytes.  A 3D copy is a copy of
 * extent.height * extent.depth rows, each between two places that are
 * either a pitched pointer (host or device) or a CUDA array (cudart_array.c):
 *   - a pointer's positions are in bytes, an array's in its elements;
 *   - the extent's width is in bytes, or in the array's elements when one
 *     takes part;
 *   - a pointer's slices are ysize rows of pitch bytes. */
#include <string.h>
#include "cudart_ctx.h"

CR_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch) return cr_ret(cr_ctx(), cudaErrorInvalidValue);
    size_t p = (width + CR_PITCH_ALIGNMENT - 1) / CR_PITCH_ALIGNMENT * CR_PITCH_ALIGNMENT;
    if (p == 0) p = CR_PITCH_ALIGNMENT;
    if (height != 0 && p > SIZE_MAX / height) return cr_ret(cr_ctx(), cudaErrorMemoryAllocation);
    cudaError_t e = cudaMalloc(devPtr, p * height);
    if (e == cudaSuccess) *pitch = p;
    return e;
}

CR_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr) return cr_ret(cr_ctx(), cudaErrorInvalidValue);
    size_t pitch = 0, rows = extent.height * extent.depth;
    if (extent.depth && rows / extent.depth != extent.height) return cr_ret(cr_ctx(), cudaErrorMemoryAllocation);
    void *p = NULL;
    cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, rows);
    if (e != cudaSuccess) return e;
    *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, int kind)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (width > dpitch || width > spitch) return cr_ret(c, cudaErrorInvalidValue);
    for (size_t r = 0; r < height; r++) {
        e = cr_copy(c, (uint8_t *)dst + r * dpitch, (const uint8_t *)src + r * spitch, width, kind);
        if (e) return cr_ret(c, e);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                        size_t width, size_t height, int kind)
{
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                        size_t width, size_t height, int kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CR_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                             size_t width, size_t height, int kind, cudaStream_t s)
{
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, s);
}

/* height rows of width bytes, pitch apart, set to value. */
static cudaError_t fill_rows(cr_context *c, uint8_t *p, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch) return cudaErrorInvalidPitchValue;
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cr_fill(c, p + r * pitch, value, width);
        if (e) return e;
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return cr_ret(c, fill_rows(c, devPtr, pitch, value, width, height));
}

CR_EXPORT cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

CR_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t s)
{
    (void)s;
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

CR_EXPORT cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                             size_t height, cudaStream_t s)
{
    return cudaMemset2DAsync(devPtr, pitch, value, width, height, s);
}

CR_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    if (extent.depth > 1 && pitchedDevPtr.ysize < extent.height) return cr_ret(c, cudaErrorInvalidValue);
    size_t slice = pitchedDevPtr.pitch * pitchedDevPtr.ysize;
    for (size_t z = 0; z < extent.depth; z++) {
        e = fill_rows(c, (uint8_t *)pitchedDevPtr.ptr + z * slice, pitchedDevPtr.pitch, value,
                      extent.width, extent.height);
        if (e) return cr_ret(c, e);
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return cudaMemset3D(pitchedDevPtr, value, extent);
}

CR_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                        cudaStream_t s)
{
    (void)s;
    return cudaMemset3D(pitchedDevPtr, value, extent);
}

CR_EXPORT cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                             struct cudaExtent extent, cudaStream_t s)
{
    return cudaMemset3DAsync(pitchedDevPtr, value, extent, s);
}

/* One side of a 3D copy, in bytes: row y of slice z starts at
 * base + (pos.z + z) * slice + (pos.y + y) * pitch + pos.x. */
typedef struct region {
    uint8_t *base;
    size_t pitch, slice;
    struct cudaPos pos;
    const cr_array *array;      /* NULL for a pitched pointer */
} region;

static cudaError_t side(cr_context *c, cudaArray_t array, struct cudaPitchedPtr ptr, struct cudaPos pos,
                        region *r)
{
    if (array && ptr.ptr) return cudaErrorInvalidValue;     /* one of the two, not both */
    if (array) {
        const cr_array *a = cr_array_find(c, array);
        if (!a) return cudaErrorInvalidResourceHandle;
        *r = (region){(uint8_t *)(uintptr_t)a->addr, a->pitch, a->slice, pos, a};
        r->pos.x *= a->elem;       /* an array's positions count its elements */
        return cudaSuccess;
    }
    if (!ptr.ptr) return cudaErrorInvalidValue;
    *r = (region){ptr.ptr, ptr.pitch, ptr.pitch * ptr.ysize, pos, NULL};
    return cudaSuccess;
}

/* Whether width bytes of rows x slices from the side's position lie in it:
 * in its rows (pitch), and for an array in its height and depth; a
 * pointer's slices must hold the rows when there is more than one. */
static bool fits(const region *r, const struct cudaPitchedPtr *ptr, size_t width, size_t rows, size_t slices)
{
    if (r->pos.x > r->pitch || width > r->pitch - r->pos.x) return false;
    if (!r->array) return slices <= 1 || r->pos.y + rows <= ptr->ysize;
    size_t h = r->array->height ? r->array->height : 1, d = r->array->depth ? r->array->depth : 1;
    return r->pos.y + rows <= h && r->pos.z + slices <= d;
}

static cudaError_t copy3d(cr_context *c, const struct cudaMemcpy3DParms *p)
{
    if (!p) return cudaErrorInvalidValue;
    region s, d;
    cudaError_t e;
    if ((e = side(c, p->srcArray, p->srcPtr, p->srcPos, &s)) != cudaSuccess ||
        (e = side(c, p->dstArray, p->dstPtr, p->dstPos, &d)) != cudaSuccess)
        return e;
    if (s.array && d.array && s.array->elem != d.array->elem) return cudaErrorInvalidValue;
    /* the extent's width counts the array's elements when one takes part */
    size_t elem = s.array ? s.array->elem : d.array ? d.array->elem : 1;
    size_t width = p->extent.width * elem, rows = p->extent.height, slices = p->extent.depth;
    if (!fits(&s, &p->srcPtr, width, rows, slices) || !fits(&d, &p->dstPtr, width, rows, slices))
        return cudaErrorInvalidValue;
    /* a row of an array is device memory whatever kind says (the runtime
     * corrects such a kind, as CUDA's does) */
    int kind = s.array || d.array ? cudaMemcpyDefault : (int)p->kind;
    for (size_t z = 0; z < slices; z++)
        for (size_t y = 0; y < rows; y++) {
            uint8_t *dst = d.base + (d.pos.z + z) * d.slice + (d.pos.y + y) * d.pitch + d.pos.x;
            const uint8_t *src = s.base + (s.pos.z + z) * s.slice + (s.pos.y + y) * s.pitch + s.pos.x;
            if ((e = cr_copy(c, dst, src, width, kind)) != cudaSuccess) return e;
        }
    return cudaSuccess;
}

CR_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    return cr_ret(c, copy3d(c, p));
}

CR_EXPORT cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    return cudaMemcpy3D(p);
}

CR_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy3D(p);
}

CR_EXPORT cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    return cudaMemcpy3DAsync(p, s);
}
