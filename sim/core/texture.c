/* The texture unit's fetch, following the CUDA C++ Programming Guide,
 * appendix "Texture Fetching":
 *   - normalized coordinates are scaled by the texture's size first;
 *   - nearest-point sampling reads texel floor(x);
 *   - linear filtering reads texels i = floor(x - 0.5) and i + 1 (per
 *     dimension) and weighs them with alpha = frac(x - 0.5), held in 9-bit
 *     fixed point with 8 fractional bits (rounded to nearest here: the guide
 *     gives the format, not the rounding).  The weight of each texel of a
 *     2D footprint, the product of two such weights, is itself rounded to 8
 *     fractional bits, and a 3D footprint weighs two such 2D ones by the
 *     third weight: what an H200 computes (validation/results/
 *     h200_texture_probe.txt; its 3D results differ from this by up to
 *     0.2 % in rare samples);
 *   - addressing applies to each texel index read: clamp to the edge, a
 *     border colour outside, wrap (index modulo the size) or mirror (the
 *     index reflected at each edge).  Wrap and mirror exist only with
 *     normalized coordinates; the runtime turns them into clamp otherwise,
 *     as cudaCreateTextureObject documents;
 *   - integer texels read in cudaReadModeNormalizedFloat map to [0, 1]
 *     (unsigned: v / (2^n - 1)) or [-1, 1] (signed: max(v / (2^(n-1) - 1), -1));
 *   - tex1Dfetch on linear memory reads texel i, and 0 outside [0, width). */
#include "texture.h"

#include <math.h>
#include <string.h>

bool ws_tex_returns_float(const ws_texture *t)
{
    return t->kind == WS_TEX_FLOAT || t->read_normalized;
}

uint32_t ws_tex_texel_bytes(const ws_texture *t)
{
    return (uint32_t)t->channels * t->channel_bytes;
}

/* One texel's four channels, as the texture returns them. */
typedef struct texel {
    float f[4];         /* when the texture returns floats */
    uint32_t i[4];      /* when it returns integers */
} texel;

static uint32_t le32(const uint8_t *p, uint32_t n)
{
    uint32_t v = 0;
    for (uint32_t k = 0; k < n; k++) v |= (uint32_t)p[k] << (8 * k);
    return v;
}

static int32_t sext(uint32_t v, uint32_t bytes)
{
    uint32_t shift = 32 - 8 * bytes;
    return (int32_t)(v << shift) >> shift;
}

static float channel_float(const ws_texture *t, const uint8_t *p)
{
    uint32_t n = t->channel_bytes, v = le32(p, n);
    if (t->kind == WS_TEX_FLOAT) {
        if (n == 2) {
            _Float16 h;
            uint16_t u = (uint16_t)v;
            memcpy(&h, &u, 2);
            return (float)h;
        }
        float f;
        memcpy(&f, &v, 4);
        return f;
    }
    if (t->kind == WS_TEX_UNSIGNED) return (float)v / (float)((1u << (8 * n)) - 1);
    float f = (float)sext(v, n) / (float)((1u << (8 * n - 1)) - 1);
    return f < -1.0f ? -1.0f : f;
}

static uint32_t channel_int(const ws_texture *t, const uint8_t *p)
{
    uint32_t v = le32(p, t->channel_bytes);
    return t->kind == WS_TEX_SIGNED ? (uint32_t)sext(v, t->channel_bytes) : v;
}

/* Channels the format lacks read as 0, alpha as 1 (graphics APIs' rule). */
static void texel_default(texel *x)
{
    for (int c = 0; c < 4; c++) {
        x->f[c] = c == 3 ? 1.0f : 0.0f;
        x->i[c] = c == 3 ? 1u : 0u;
    }
}

static void texel_border(const ws_texture *t, texel *x)
{
    for (int c = 0; c < 4; c++) {
        memcpy(&x->f[c], &t->border[c], 4);
        x->i[c] = t->border[c];    /* integer borders are float bit patterns, reinterpreted */
    }
}

/* Texel index i along a dimension of n texels after addressing; -1 when it
 * falls in the border. */
static int64_t address(int64_t i, uint32_t n, uint8_t mode)
{
    int64_t m, period = 2 * (int64_t)n;
    switch (mode) {
    case WS_TEX_WRAP:
        m = i % n;
        return m < 0 ? m + n : m;
    case WS_TEX_MIRROR:
        m = i % period;
        if (m < 0) m += period;
        return m < n ? m : period - 1 - m;
    case WS_TEX_BORDER:
        return i < 0 || i >= n ? -1 : i;
    default:
        return i < 0 ? 0 : i >= n ? (int64_t)n - 1 : i;
    }
}

/* floor(u) as an integer, far-off and NaN coordinates kept finite (the
 * addressing modes map any of them into the texture or the border). */
static int64_t floor_index(float u)
{
    if (isnan(u)) return 0;
    if (u > 1e12f) return INT64_C(1000000000000);
    if (u < -1e12f) return -INT64_C(1000000000000);
    return (int64_t)floorf(u);
}

typedef struct fetch {
    const ws_texture *t;
    const ws_devmem *mem;
    uint64_t first;     /* address of the first texel read, 0 before any */
    uint64_t bad;       /* the texel outside device memory, 0 when none */
} fetch;

static uint32_t dim_size(const ws_texture *t, int d)
{
    uint32_t n = d == 0 ? t->width : d == 1 ? t->height : t->depth;
    return n ? n : 1;
}

/* The texel at integer coordinates idx[0..dims), addressed. */
static void read_texel(fetch *f, const int64_t idx[3], int dims, texel *x)
{
    const ws_texture *t = f->t;
    int64_t at[3] = {0, 0, 0};
    for (int d = 0; d < dims; d++) {
        at[d] = address(idx[d], dim_size(t, d), t->address[d]);
        if (at[d] < 0) {
            texel_border(t, x);
            return;
        }
    }
    uint64_t a = t->base + (uint64_t)at[0] * ws_tex_texel_bytes(t) + (uint64_t)at[1] * t->pitch +
                 (uint64_t)at[2] * t->slice;
    uint8_t buf[16];
    texel_default(x);
    if (!f->first) f->first = a;
    if (!ws_devmem_read(f->mem, a, buf, ws_tex_texel_bytes(t))) {
        if (!f->bad) f->bad = a;
        return;
    }
    for (int c = 0; c < t->channels; c++) {
        const uint8_t *p = buf + c * t->channel_bytes;
        x->f[c] = channel_float(t, p);
        x->i[c] = channel_int(t, p);
    }
}

static float coord(const ws_texture *t, const uint32_t *coords, int d)
{
    float u;
    memcpy(&u, &coords[d], 4);
    return t->normalized_coords ? u * (float)dim_size(t, d) : u;
}

/* The 9-bit fixed-point weight of frac(v): 8 fractional bits. */
static float weight(float v, int64_t i)
{
    float a = v - (float)i;
    return rintf(a * 256.0f) / 256.0f;
}

static void finish(const fetch *f, const texel *x, bool as_float, uint32_t out[4], uint64_t *addr)
{
    for (int c = 0; c < 4; c++) {
        if (as_float) memcpy(&out[c], &x->f[c], 4);
        else out[c] = x->i[c];
    }
    *addr = f->bad ? f->bad : f->first ? f->first : f->t->base;
}

bool ws_tex_fetch(const ws_texture *t, const ws_devmem *mem, const uint32_t coords[3],
                  bool int_coords, uint32_t out[4], uint64_t *addr)
{
    fetch f = {t, mem, 0, 0};
    texel x;
    texel_default(&x);
    int dims = t->dims;
    bool as_float = ws_tex_returns_float(t);
    if (int_coords) {
        int64_t idx[3] = {(int32_t)coords[0], dims > 1 ? (int32_t)coords[1] : 0,
                          dims > 2 ? (int32_t)coords[2] : 0};
        if (t->linear && (idx[0] < 0 || idx[0] >= t->width)) {
            memset(out, 0, 4 * sizeof *out);
            *addr = t->base;
            return true;
        }
        read_texel(&f, idx, dims, &x);
    } else if (!t->filter_linear) {
        int64_t idx[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++) idx[d] = floor_index(coord(t, coords, d));
        read_texel(&f, idx, dims, &x);
    } else {
        /* the 2^dims texels around x - 0.5, weighed per dimension */
        int64_t base[3] = {0, 0, 0};
        float w[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++) {
            float u = coord(t, coords, d) - 0.5f;
            base[d] = floor_index(u);
            w[d] = isnan(u) ? 0.0f : weight(u, base[d]);
        }
        float acc[4] = {0, 0, 0, 0};
        for (int corner = 0; corner < (1 << dims); corner++) {
            int64_t idx[3] = {0, 0, 0};
            float k = 1.0f;
            for (int d = 0; d < dims; d++) {
                int hi = corner >> d & 1;
                idx[d] = base[d] + hi;
                k *= hi ? w[d] : 1.0f - w[d];
                if (d == 1) k = rintf(k * 256.0f) / 256.0f;
            }
            texel c;
            read_texel(&f, idx, dims, &c);
            for (int ch = 0; ch < 4; ch++) acc[ch] += k * c.f[ch];
        }
        for (int ch = 0; ch < 4; ch++) x.f[ch] = acc[ch];
    }
    finish(&f, &x, as_float, out, addr);
    return f.bad == 0;
}

bool ws_tex_gather(const ws_texture *t, const ws_devmem *mem, const uint32_t coords[2],
                   int comp, uint32_t out[4], uint64_t *addr)
{
    static const int corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    fetch f = {t, mem, 0, 0};
    int64_t i = floor_index(coord(t, coords, 0) - 0.5f), j = floor_index(coord(t, coords, 1) - 0.5f);
    bool as_float = ws_tex_returns_float(t);
    texel x;
    for (int k = 0; k < 4; k++) {
        int64_t idx[3] = {i + corner[k][0], j + corner[k][1], 0};
        texel c;
        read_texel(&f, idx, 2, &c);
        x.f[k] = c.f[comp & 3];
        x.i[k] = c.i[comp & 3];
    }
    finish(&f, &x, as_float, out, addr);
    return f.bad == 0;
}
