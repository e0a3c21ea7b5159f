/* The register policy (kernel_regs.h). */
#include "kernel_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program.h"
#include "timing.h"
#include "../../frontend/ptx/ptxas_info.h"

/* The architecture ptxas compiles for: the GPU's, or the PTX's .target
 * where that is newer ("sm_90a" counts as 9.0). */
static void ptxas_arch(const ws_program *p, const ws_regs_request *rq, int32_t *major, int32_t *minor)
{
    *major = rq->gpu_major;
    *minor = rq->gpu_minor;
    int32_t tmajor, tminor;
    if (p->target && sscanf(p->target, "sm_%1d%1d", &tmajor, &tminor) == 2 &&
        tmajor * 10 + tminor > *major * 10 + *minor) {
        *major = tmajor;
        *minor = tminor;
    }
}

void ws_ptxas_cache_free(ws_ptxas_cache *cache)
{
    free(cache->out);
    memset(cache, 0, sizeof *cache);
}

/* ptxas -v on the PTX (a file, or the text written to a temporary one),
 * its output or why there is none kept in cache. */
static void run_ptxas(const char *ptxas, int32_t major, int32_t minor, const ws_regs_request *rq,
                      ws_ptxas_cache *cache)
{
    free(cache->out);
    cache->out = NULL;
    cache->why[0] = '\0';
    cache->major = major;
    cache->minor = minor;
    cache->ran = true;
    cache->runs++;
    if (rq->ptx_path) {
        cache->ok = ptx_ptxas_run(ptxas, rq->ptx_path, major, minor, &cache->out, cache->why,
                                  sizeof cache->why) == 0;
        return;
    }
    const char *tmp = getenv("TMPDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/warpsim-ptx-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(cache->why, sizeof cache->why, "cannot write a temporary file for ptxas in %s",
                 tmp && *tmp ? tmp : "/tmp");
        cache->ok = false;
        return;
    }
    bool ok = write(fd, rq->ptx_text, rq->ptx_len) == (ssize_t)rq->ptx_len;
    close(fd);
    if (!ok)
        snprintf(cache->why, sizeof cache->why, "cannot write the PTX for ptxas to a temporary file");
    cache->ok = ok && ptx_ptxas_run(ptxas, path, major, minor, &cache->out, cache->why,
                                    sizeof cache->why) == 0;
    unlink(path);
}

/* The kernel's registers and static shared memory from ptxas's output,
 * running ptxas only when the cache holds no run for this architecture. */
static bool from_ptxas(const char *ptxas, const char *mangled, int32_t major, int32_t minor,
                       const ws_regs_request *rq, ws_ptxas_cache *cache, ws_kernel_regs *out)
{
    if (!cache->ran || cache->major != major || cache->minor != minor)
        run_ptxas(ptxas, major, minor, rq, cache);
    if (!cache->ok) {
        snprintf(out->why, sizeof out->why, "%s", cache->why);
        return false;
    }
    return ptx_ptxas_entry(cache->out, ptxas, mangled, &out->regs, &out->ptxas_smem, out->why,
                           sizeof out->why) == 0;
}

void ws_kernel_regs_resolve(const ws_program *p, const ws_kernel *k, const ws_regs_request *rq,
                            ws_kernel_regs *out)
{
    memset(out, 0, sizeof *out);
    if (rq->given > 0) {
        out->regs = rq->given;
        out->source = WS_REGS_GIVEN;
        return;
    }
    char ptxas[1024];
    int32_t major, minor;
    ptxas_arch(p, rq, &major, &minor);
    if (ptx_find_ptxas(ptxas, sizeof ptxas) != 0) {
        snprintf(out->why, sizeof out->why, "ptxas not found (on PATH, $CUDA_HOME/bin or "
                 "/usr/local/cuda/bin)");
    } else if (rq->ptx_path || rq->ptx_text) {
        ws_ptxas_cache own = {0};       /* no caller's cache: this kernel's run alone */
        ws_ptxas_cache *cache = rq->ptxas_cache ? rq->ptxas_cache : &own;
        bool ok = from_ptxas(ptxas, ws_kernel_name(k), major, minor, rq, cache, out);
        ws_ptxas_cache_free(&own);
        if (ok) {
            out->source = WS_REGS_PTXAS;
            out->have_ptxas_smem = true;
            return;
        }
    } else {
        snprintf(out->why, sizeof out->why, "no PTX text to give ptxas");
    }
    for (char *c = out->why; *c; c++)     /* ptxas's own lines, kept on one */
        if (*c == '\n') *c = ' ';
    out->regs = ws_estimate_regs(p, k);
    out->source = WS_REGS_ESTIMATED;
}
