/* The fat binary reader.
 *
 * Layout, as nvcc 13 writes it (all little-endian):
 *   header (16 bytes): u32 magic 0xBA55ED50, u16 version, u16 header size,
 *                      u64 size of the entries that follow
 *   entry header:      u16 kind (1 PTX, 2 ELF), u16 version, u32 header size,
 *                      u64 payload size (padded to 8),
 *                      +16 u32 compressed size (0 when not compressed),
 *                      +28 u32 arch (80 = sm_80 / compute_80),
 *                      +40 u64 flags (0x2000: LZ4 block, 0x8000: zstd frame),
 *                      +56 u64 uncompressed size (when compressed)
 *   payload:           right after the entry header.
 * Several fat binaries may follow one another. */
#include "fatbin.h"

#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FLAG_LZ4  UINT64_C(0x2000)
#define FLAG_ZSTD UINT64_C(0x8000)
#define MAX_UNCOMPRESSED (UINT64_C(1) << 31)
/* The most an entry's text can expand: an LZ4 block grows at most about
 * 255 times (a length byte of 255 adds 255 bytes); zstd more in theory,
 * but PTX text compresses less than 20 times.  A header that claims more
 * is damaged, and is refused before its size is allocated. */
#define MAX_RATIO_LZ4  UINT64_C(256)
#define MAX_RATIO_ZSTD UINT64_C(1024)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

uint64_t ws_fatbin_size(const void *data, size_t avail)
{
    const uint8_t *p = data;
    if (!p || avail < WS_FATBIN_HEADER_SIZE || rd32(p) != WS_FATBIN_MAGIC) return 0;
    uint16_t hsize = rd16(p + 6);
    uint64_t body = rd64(p + 8);
    if (hsize < WS_FATBIN_HEADER_SIZE || body > UINT64_MAX - hsize) return 0;
    return hsize + body;
}

int ws_fatbin_list(const void *data, size_t size, ws_fatbin_entry *out, int max,
                   char *err, size_t errsize)
{
    const uint8_t *base = data;
    uint64_t off = 0;
    int n = 0;
    if (size < WS_FATBIN_HEADER_SIZE) {
        snprintf(err, errsize, "fat binary: %zu bytes, too short for a header", size);
        return -1;
    }
    while (off + WS_FATBIN_HEADER_SIZE <= size) {
        const uint8_t *h = base + off;
        if (rd32(h) != WS_FATBIN_MAGIC) {
            if (off > 0) break;     /* padding after the last binary */
            snprintf(err, errsize, "fat binary: bad magic 0x%08x (expected 0x%08x)",
                     rd32(h), WS_FATBIN_MAGIC);
            return -1;
        }
        uint64_t total = ws_fatbin_size(h, size - off);
        if (total == 0 || total > size - off) {
            snprintf(err, errsize, "fat binary at offset %llu: size %llu runs past the %zu bytes given",
                     (unsigned long long)off, (unsigned long long)total, size);
            return -1;
        }
        uint64_t p = off + rd16(h + 6), end = off + total;
        while (p < end) {
            if (end - p < 16) {
                snprintf(err, errsize, "fat binary: truncated entry header at offset %llu",
                         (unsigned long long)p);
                return -1;
            }
            const uint8_t *e = base + p;
            uint32_t ehsize = rd32(e + 4);
            uint64_t psize = rd64(e + 8);
            if (ehsize < 16 || ehsize > end - p || psize > end - p - ehsize) {
                snprintf(err, errsize, "fat binary: entry at offset %llu runs past the binary",
                         (unsigned long long)p);
                return -1;
            }
            ws_fatbin_entry ent;
            memset(&ent, 0, sizeof ent);
            ent.kind = rd16(e);
            ent.payload = e + ehsize;
            ent.payload_size = psize;
            ent.uncompressed_size = psize;
            if (ehsize >= 32) ent.arch = rd32(e + 28);
            if (ehsize >= 48) ent.flags = rd64(e + 40);
            if (ent.flags & (FLAG_LZ4 | FLAG_ZSTD)) {
                if (ehsize < 64) {
                    snprintf(err, errsize, "fat binary: compressed entry with a %u-byte header", ehsize);
                    return -1;
                }
                ent.codec = ent.flags & FLAG_ZSTD ? WS_CODEC_ZSTD : WS_CODEC_LZ4;
                uint32_t csize = rd32(e + 16);
                if (csize != 0 && csize <= psize) ent.payload_size = csize;
                ent.uncompressed_size = rd64(e + 56);
            }
            if (n < max) out[n] = ent;
            n++;
            p += ehsize + psize;
        }
        off = end;
        while (off < size && off % 8) off++;
    }
    return n;
}

const ws_fatbin_entry *ws_fatbin_pick_ptx(const ws_fatbin_entry *e, int n, uint32_t max_arch)
{
    const ws_fatbin_entry *best = NULL;
    for (int i = 0; i < n; i++)
        if (e[i].kind == WS_FATBIN_PTX && e[i].arch <= max_arch && (!best || e[i].arch > best->arch))
            best = &e[i];
    return best;
}

int ws_fatbin_payload(const ws_fatbin_entry *e, char **text, size_t *len, char *err, size_t errsize)
{
    *text = NULL;
    *len = 0;
    if (e->uncompressed_size > MAX_UNCOMPRESSED) {
        snprintf(err, errsize, "fat binary entry claims %llu bytes uncompressed",
                 (unsigned long long)e->uncompressed_size);
        return -1;
    }
    uint64_t ratio = e->codec == WS_CODEC_LZ4 ? MAX_RATIO_LZ4 : MAX_RATIO_ZSTD;
    if (e->codec != WS_CODEC_NONE && e->uncompressed_size / ratio > e->payload_size) {
        snprintf(err, errsize, "fat binary entry claims %llu bytes uncompressed from %llu compressed: damaged",
                 (unsigned long long)e->uncompressed_size, (unsigned long long)e->payload_size);
        return -1;
    }
    size_t cap = (size_t)e->uncompressed_size;
    char *buf = malloc(cap + 1);
    if (!buf) {
        snprintf(err, errsize, "out of memory for a %zu-byte fat binary entry", cap);
        return -1;
    }
    size_t got = 0;
    if (e->codec == WS_CODEC_NONE) {
        memcpy(buf, e->payload, cap);
        got = cap;
    } else if (e->codec == WS_CODEC_ZSTD) {
        size_t r = ZSTD_decompress(buf, cap, e->payload, (size_t)e->payload_size);
        if (ZSTD_isError(r)) {
            snprintf(err, errsize, "fat binary entry (zstd): %s", ZSTD_getErrorName(r));
            free(buf);
            return -1;
        }
        got = r;
    } else {
        if (e->payload_size > INT32_MAX || cap > INT32_MAX) {
            snprintf(err, errsize, "fat binary entry (lz4) too large");
            free(buf);
            return -1;
        }
        int r = LZ4_decompress_safe((const char *)e->payload, buf, (int)e->payload_size, (int)cap);
        if (r < 0) {
            snprintf(err, errsize, "fat binary entry (lz4): corrupt compressed data");
            free(buf);
            return -1;
        }
        got = (size_t)r;
    }
    buf[got] = '\0';
    *text = buf;
    *len = strlen(buf);     /* the PTX ends at the first NUL of the padding */
    return 0;
}

int ws_fatbin_extract_ptx(const void *data, size_t size, uint32_t max_arch,
                          char **text, size_t *len, uint32_t *arch, char *err, size_t errsize)
{
    ws_fatbin_entry ents[64];
    int n = ws_fatbin_list(data, size, ents, 64, err, errsize);
    if (n < 0) return -1;
    if (n > 64) n = 64;
    const ws_fatbin_entry *e = ws_fatbin_pick_ptx(ents, n, max_arch);
    if (!e) {
        char have[256] = "";
        size_t used = 0;
        for (int i = 0; i < n && used < sizeof have - 32; i++)
            used += (size_t)snprintf(have + used, sizeof have - used, "%s%s_%u", used ? ", " : "",
                                     ents[i].kind == WS_FATBIN_PTX ? "compute" : "sm", ents[i].arch);
        snprintf(err, errsize,
                 "no PTX for compute_%u or lower in the program (it holds: %s); warpsim runs PTX: "
                 "build with -arch=sm_%u, which embeds compute_%u PTX",
                 max_arch, n ? have : "nothing", max_arch, max_arch);
        return -1;
    }
    if (arch) *arch = e->arch;
    return ws_fatbin_payload(e, text, len, err, errsize);
}
