/* The register policy (kernel_regs.h). */
#include "kernel_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <signal.h>
#include <unistd.h>

#include "program.h"
#include "timing.h"
#include "../../frontend/ptx/ptxas_info.h"

/* The architecture ptxas compiles for: the GPU's, or the PTX's .target
 * (target, or NULL) where that is newer ("sm_90a" counts as 9.0). */
static void target_arch(const char *target, int32_t gpu_major, int32_t gpu_minor, int32_t *major, int32_t *minor)
{
    *major = gpu_major;
    *minor = gpu_minor;
    int32_t tmajor, tminor;
    if (target && sscanf(target, "sm_%1d%1d", &tmajor, &tminor) == 2 &&
        tmajor * 10 + tminor > *major * 10 + *minor) {
        *major = tmajor;
        *minor = tminor;
    }
}

static void ptxas_arch(const ws_program *p, const ws_regs_request *rq, int32_t *major, int32_t *minor)
{
    target_arch(p->target, rq->gpu_major, rq->gpu_minor, major, minor);
}

/* A PTX text written to a new temporary file, its path into path; false
 * (and why) when it cannot be. */
static bool write_temp_ptx(const char *text, size_t len, char *path, size_t size, char *why, size_t whysize)
{
    int fd = ptx_temp_file("warpsim-ptx", path, size);
    if (fd < 0) {
        snprintf(why, whysize, "cannot write a temporary file for ptxas in %s", ptx_temp_dir());
        return false;
    }
    bool ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    if (!ok) {
        snprintf(why, whysize, "cannot write the PTX for ptxas to a temporary file");
        unlink(path);
    }
    return ok;
}

/* An output kept on disk for text compiled for sm_MAJORMINOR into cache,
 * as a run's (true); else false, and the key a run files its output under
 * kept in cache (keyed). */
static bool from_store(const char *ptxas, const char *text, size_t len, int32_t major, int32_t minor,
                       ws_ptxas_cache *cache)
{
    cache->keyed = ptx_ptxas_key_of(ptxas, text, len, major, minor, &cache->key);
    char *out = cache->keyed ? ptx_ptxas_stored(&cache->key) : NULL;
    if (!out) return false;
    free(cache->out);
    cache->out = out;
    cache->why[0] = '\0';
    cache->major = major;
    cache->minor = minor;
    cache->ran = cache->ok = true;
    cache->keyed = false;
    return true;
}

/* A successful run's output filed on disk under the key from_store made. */
static void file_output(ws_ptxas_cache *cache)
{
    if (cache->keyed && cache->ok) ptx_ptxas_store(&cache->key, cache->out);
    cache->keyed = false;
}

/* Waits for the run started ahead: its result (ptxas names it in
 * messages) into cache as run_ptxas's; none (ran false) when the program
 * reaped it before. */
static void finish_ahead(const char *ptxas, ws_ptxas_cache *cache)
{
    free(cache->out);
    cache->out = NULL;
    cache->why[0] = '\0';
    cache->major = cache->job.major;
    cache->minor = cache->job.minor;
    int r = ptx_ptxas_finish(&cache->job, ptxas, &cache->out, cache->why, sizeof cache->why);
    cache->ran = r != -2;
    cache->ok = r == 0;
    unlink(cache->ptx_path);
    cache->started = false;
    file_output(cache);
}

void ws_ptxas_cache_free(ws_ptxas_cache *cache)
{
    if (cache->started) {       /* not asked for: stopped, not waited out */
        kill((pid_t)cache->job.pid, SIGKILL);
        finish_ahead("ptxas", cache);
    }
    free(cache->out);
    bool disk = cache->disk;
    memset(cache, 0, sizeof *cache);
    cache->disk = disk;
}

void ws_ptxas_start_ahead(ws_ptxas_cache *cache, const char *ptx_text, size_t ptx_len, int32_t gpu_major,
                          int32_t gpu_minor)
{
    char ptxas[1024], why[512];
    if (cache->started || cache->ran || ptx_find_ptxas(ptxas, sizeof ptxas) != 0) return;
    /* the .target directive, as the parser will read it */
    char target[16] = "";
    const char *end = ptx_text + ptx_len;
    for (const char *t = ptx_text; t + 8 < end; t++) {
        if ((t != ptx_text && t[-1] != '\n') || memcmp(t, ".target", 7) != 0) continue;
        for (t += 7; t < end && (*t == ' ' || *t == '\t'); t++) {}
        size_t n = 0;
        while (t + n < end && n < sizeof target - 1 && (isalnum((unsigned char)t[n]) || t[n] == '_')) n++;
        memcpy(target, t, n);
        target[n] = '\0';
        break;
    }
    int32_t major, minor;
    target_arch(target[0] ? target : NULL, gpu_major, gpu_minor, &major, &minor);
    if (cache->disk && from_store(ptxas, ptx_text, ptx_len, major, minor, cache)) return;
    if (!write_temp_ptx(ptx_text, ptx_len, cache->ptx_path, sizeof cache->ptx_path, why, sizeof why)) return;
    if (ptx_ptxas_start(ptxas, cache->ptx_path, major, minor, &cache->job, why, sizeof why) != 0) {
        unlink(cache->ptx_path);
        return;
    }
    cache->started = true;
    cache->runs++;
}

/* ptxas -v on the PTX (a file, or the text written to a temporary one),
 * its output or why there is none kept in cache. */
static void run_ptxas(const char *ptxas, int32_t major, int32_t minor, const ws_regs_request *rq,
                      ws_ptxas_cache *cache)
{
    if (cache->started) {
        finish_ahead(ptxas, cache);
        if (cache->ran && cache->major == major && cache->minor == minor) return;
    }
    if (cache->disk) {
        size_t len = rq->ptx_len;
        char *file = rq->ptx_text ? NULL : rq->ptx_path ? ptx_read_whole_file(rq->ptx_path, &len) : NULL;
        const char *text = rq->ptx_text ? rq->ptx_text : file;
        bool found = text && from_store(ptxas, text, len, major, minor, cache);
        free(file);
        if (found) return;
    }
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
        file_output(cache);
        return;
    }
    char path[1024];
    if (!write_temp_ptx(rq->ptx_text, rq->ptx_len, path, sizeof path, cache->why, sizeof cache->why)) {
        cache->ok = false;
        cache->keyed = false;
        return;
    }
    cache->ok = ptx_ptxas_run(ptxas, path, major, minor, &cache->out, cache->why, sizeof cache->why) == 0;
    unlink(path);
    file_output(cache);
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
        ws_ptxas_cache own = {.disk = rq->disk};    /* no caller's cache: this kernel's run alone */
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
