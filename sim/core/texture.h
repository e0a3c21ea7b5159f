/* Textures: the descriptor a launch carries for each texture object, and
 * the texture unit's fetch (addressing, filtering, format conversion) as
 * the CUDA C++ Programming Guide's "Texture Fetching" appendix defines it.
 *
 * The runtime owns the table of descriptors (one per live
 * cudaTextureObject_t) and hands it to each launch read-only; a kernel's
 * texture handle is the table index plus one, so 0 is never a texture. */
#ifndef WARPSIM_TEXTURE_H
#define WARPSIM_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../mem/device_memory.h"

typedef enum ws_tex_kind { WS_TEX_SIGNED, WS_TEX_UNSIGNED, WS_TEX_FLOAT } ws_tex_kind;

/* Values as cudaTextureAddressMode numbers them. */
typedef enum ws_tex_address {
    WS_TEX_WRAP = 0, WS_TEX_CLAMP = 1, WS_TEX_MIRROR = 2, WS_TEX_BORDER = 3
} ws_tex_address;

typedef struct ws_texture {
    bool live;                  /* false: destroyed, or never created */
    bool linear;                /* cudaResourceTypeLinear: tex1Dfetch only, no addressing */
    uint8_t dims;               /* 1, 2 or 3 */
    uint8_t kind;               /* ws_tex_kind of each channel */
    uint8_t channels;           /* 1, 2 or 4 */
    uint8_t channel_bytes;      /* 1, 2 or 4 (float: 2 = half, 4 = float) */
    uint8_t address[3];         /* ws_tex_address per dimension (wrap/mirror need normalized) */
    bool filter_linear;         /* cudaFilterModeLinear (float results only) */
    bool normalized_coords;
    bool read_normalized;       /* cudaReadModeNormalizedFloat on an 8- or 16-bit integer format */
    uint32_t border[4];         /* cudaTextureDesc::borderColor, as bits */
    uint64_t base;              /* device address of texel (0, 0, 0) */
    uint64_t pitch;             /* bytes from one row to the next */
    uint64_t slice;             /* bytes from one 2D slice to the next */
    uint32_t width, height, depth;  /* in texels; 1 for absent dimensions */
} ws_texture;

/* Whether the texture returns floats (float texels, or integers read as
 * normalized floats) rather than integers. */
bool ws_tex_returns_float(const ws_texture *t);

/* Bytes of one texel. */
uint32_t ws_tex_texel_bytes(const ws_texture *t);

/* One texture fetch.  coords hold dims values: floats (int_coords false:
 * tex1D/2D/3D, normalized or not as t says) or texel indices (int_coords
 * true: tex1Dfetch).  out receives the four channels as 32-bit register
 * values: float bits when the texture returns floats, else integers;
 * channels the format lacks read 0, alpha 1.  *addr receives the address of
 * the first texel read (t->base when none was), for the timing model.
 * False when a texel lies outside device memory (*addr is then that texel). */
bool ws_tex_fetch(const ws_texture *t, const ws_devmem *mem, const uint32_t coords[3],
                  bool int_coords, uint32_t out[4], uint64_t *addr);

/* tld4 (tex2Dgather): channel comp (0..3) of the four texels that bilinear
 * filtering at (x, y) would weigh, in the order the PTX ISA gives:
 * (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
bool ws_tex_gather(const ws_texture *t, const ws_devmem *mem, const uint32_t coords[2],
                   int comp, uint32_t out[4], uint64_t *addr);

#endif
