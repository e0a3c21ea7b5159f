/* Reading the fat binary that nvcc embeds in a program: the list of its
 * entries (PTX text or ELF cubins, per architecture), and the PTX text of
 * the entry a GPU of a given compute capability can run, decompressed
 * (nvcc 13 compresses entries with zstd by default, LZ4 with
 * --compress-mode=speed).  Works on a bounded buffer: a damaged header
 * gives an error, never a read outside it. */
#ifndef WARPSIM_FATBIN_H
#define WARPSIM_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_FATBIN_MAGIC 0xBA55ED50u
#define WS_FATBIN_HEADER_SIZE 16

/* The wrapper nvcc's host code passes to __cudaRegisterFatBinary. */
#define WS_FATBIN_WRAPPER_MAGIC 0x466243B1
typedef struct ws_fatbin_wrapper {
    int32_t magic;
    int32_t version;            /* 1: data is a fat binary; 2: relocatable (-rdc) parts */
    const void *data;
    void *filename_or_fatbins;
} ws_fatbin_wrapper;

typedef enum ws_fatbin_kind { WS_FATBIN_PTX = 1, WS_FATBIN_ELF = 2 } ws_fatbin_kind;
typedef enum ws_fatbin_codec { WS_CODEC_NONE, WS_CODEC_LZ4, WS_CODEC_ZSTD } ws_fatbin_codec;

typedef struct ws_fatbin_entry {
    uint16_t kind;              /* ws_fatbin_kind (others are listed, not used) */
    uint32_t arch;              /* 80 for sm_80 / compute_80 */
    uint64_t flags;
    ws_fatbin_codec codec;
    const uint8_t *payload;     /* inside the buffer given to ws_fatbin_list */
    uint64_t payload_size;      /* bytes stored (compressed size when compressed) */
    uint64_t uncompressed_size; /* bytes after decompression (= payload_size when not compressed) */
} ws_fatbin_entry;

/* Total size (header included) of the fat binary at data, read from its
 * header, or 0 when data does not start with a fat binary header. */
uint64_t ws_fatbin_size(const void *data, size_t avail);

/* Lists the entries of the fat binary (or of several concatenated ones) in
 * data[0..size).  Returns the number of entries (up to max are stored in
 * out), or -1 with a message in err. */
int ws_fatbin_list(const void *data, size_t size, ws_fatbin_entry *out, int max,
                   char *err, size_t errsize);

/* The PTX entry with the highest arch <= max_arch, or NULL. */
const ws_fatbin_entry *ws_fatbin_pick_ptx(const ws_fatbin_entry *e, int n, uint32_t max_arch);

/* The text of an entry, decompressed, NUL-terminated, without the NUL
 * padding nvcc appends; the caller frees *text.  Returns 0, or -1 with a
 * message in err. */
int ws_fatbin_payload(const ws_fatbin_entry *e, char **text, size_t *len, char *err, size_t errsize);

/* All of the above: the PTX for a GPU of compute capability max_arch
 * (major*10+minor) out of the fat binary at data.  *arch receives the
 * chosen entry's arch.  Returns 0, or -1 with a message in err that says
 * what the binary holds when none fits. */
int ws_fatbin_extract_ptx(const void *data, size_t size, uint32_t max_arch,
                          char **text, size_t *len, uint32_t *arch, char *err, size_t errsize);

#endif
