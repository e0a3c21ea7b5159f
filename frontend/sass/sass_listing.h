/* A SASS listing as nvdisasm prints it with source lines ("nvdisasm -c -g
 * kernel.cubin"): per kernel, per source line, the memory instructions
 * ptxas made (space, load or store, bytes per lane) and the number of SASS
 * instructions.  `warpsim run --sass` reads one to count memory accesses as
 * the GPU makes them (sim/core/sass_groups.c, docs/SASS.md). */
#ifndef WARPSIM_SASS_LISTING_H
#define WARPSIM_SASS_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ws_sass_space { WS_SASS_SHARED, WS_SASS_GLOBAL } ws_sass_space;

/* count instructions of one kind on one source line. */
typedef struct ws_sass_mem {
    int32_t file;           /* index into the listing's files */
    int32_t line;
    uint8_t space;          /* ws_sass_space */
    bool store;
    uint8_t width;          /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint32_t count;
} ws_sass_mem;

/* SASS instructions (of any kind) attributed to one source line. */
typedef struct ws_sass_line {
    int32_t file, line;
    uint32_t insts;
} ws_sass_line;

typedef struct ws_sass_kernel {
    char *name;             /* as the listing names it (mangled) */
    ws_sass_mem *mem; int32_t nmem;
    ws_sass_line *lines; int32_t nlines;
    uint32_t insts;         /* all its instructions */
} ws_sass_kernel;

typedef struct ws_sass_listing {
    char *path;
    char **files; int32_t nfiles;   /* source files the listing names */
    ws_sass_kernel *kernels; int32_t nkernels;
} ws_sass_listing;

/* Reads path into *out.  False with "path:line: message" in err when the
 * file cannot be read or is not such a listing. */
bool ws_sass_read(const char *path, ws_sass_listing *out, char *err, size_t errsize);
void ws_sass_free(ws_sass_listing *l);

const ws_sass_kernel *ws_sass_find(const ws_sass_listing *l, const char *name);

/* Instructions of the kernel of that space, direction and width on a line
 * of the file whose name ends like file (a path or a base name). */
uint32_t ws_sass_count(const ws_sass_listing *l, const ws_sass_kernel *k, const char *file,
                       int32_t line, ws_sass_space space, bool store, uint32_t width);

#endif
