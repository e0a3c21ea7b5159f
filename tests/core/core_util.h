/* Helpers shared by the core tests: parse PTX text, load it, launch. */
#ifndef WARPSIM_TEST_CORE_UTIL_H
#define WARPSIM_TEST_CORE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "frontend/ptx/ptx_parse.h"
#include "sim/core/program.h"
#include "sim/core/sim.h"

typedef struct tctx {
    ptx_module *m;
    ws_devmem *mem;
    ws_program *p;
    ws_error err;
    ws_launch_stats st;
    uint8_t params[256];
    size_t nparams;
    const ws_texture *textures;     /* the launch's texture objects */
    uint32_t ntextures;
} tctx;

/* Parses and loads; fails the test on a parse error, returns false on a
 * load error (t->err). */
static inline bool t_load(tctx *t, const char *src, const char *path)
{
    ptx_error pe;
    memset(t, 0, sizeof *t);
    t->m = ptx_parse(src, strlen(src), path, &pe);
    if (!t->m) {
        char buf[1024];
        ptx_error_format(&pe, buf, sizeof buf);
        fail_msg("parse failed: %s", buf);
    }
    t->mem = ws_devmem_create();
    assert_non_null(t->mem);
    t->p = ws_program_load(t->m, t->mem, &t->err);
    return t->p != NULL;
}

/* Parses and loads the PTX file at path; fails the test on an error. */
static inline void t_load_path(tctx *t, const char *path)
{
    ptx_error pe;
    memset(t, 0, sizeof *t);
    t->m = ptx_parse_file(path, &pe);
    if (!t->m) {
        char buf[1024];
        ptx_error_format(&pe, buf, sizeof buf);
        fail_msg("parse failed: %s", buf);
    }
    t->mem = ws_devmem_create();
    t->p = ws_program_load(t->m, t->mem, &t->err);
    if (!t->p) fail_msg("load failed: %s", t->err.msg);
}

static inline void t_load_file(tctx *t, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ptx/data/%s", WARPSIM_SOURCE_DIR, name);
    t_load_path(t, path);
}

static inline void t_free(tctx *t)
{
    ws_program_free(t->p);
    ws_devmem_destroy(t->mem);
    ptx_module_free(t->m);
}

static inline void t_param(tctx *t, const void *v, size_t size)
{
    t->nparams = (t->nparams + size - 1) / size * size;
    memcpy(t->params + t->nparams, v, size);
    t->nparams += size;
}
static inline void t_p64(tctx *t, uint64_t v) { t_param(t, &v, 8); }
static inline void t_p32(tctx *t, uint32_t v) { t_param(t, &v, 4); }

static inline uint64_t t_alloc(tctx *t, const void *init, size_t size)
{
    uint64_t a = ws_devmem_alloc(t->mem, size);
    assert_true(a != 0);
    if (init) assert_true(ws_devmem_write(t->mem, a, init, size));
    return a;
}

/* Launches kernel name; returns the launch's success. */
static inline bool t_run(tctx *t, const char *name, ws_dim3 grid, ws_dim3 block,
                         uint32_t dyn_smem, FILE *out, uint64_t max_insts)
{
    const ws_kernel *k = ws_program_kernel(t->p, name);
    if (!k) fail_msg("no kernel %s", name);
    ws_launch l = {.grid = grid, .block = block, .dynamic_smem = dyn_smem, .params = t->params,
                   .params_size = t->nparams, .printf_out = out, .max_warp_insts = max_insts,
                   .textures = t->textures, .ntextures = t->ntextures};
    return ws_launch_kernel(t->p, k, &l, &t->st, &t->err);
}

#define D3(x, y, z) ((ws_dim3){(x), (y), (z)})

#endif
