/* The runtime context: creation from the environment `warpsim exec` sets,
 * modules and their loading, lookups, and the error bookkeeping. */
#include "exec_env.h"
#include "cudart_ctx.h"
#include "cudart_trace.h"
#include "sim/trace/kernel_totals.h"
#include "sim/trace/html_report.h"
#include "sim/trace/lines.h"
#include "sim/trace/summary.h"
#include "sim/trace/trace.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fatbin.h"
#include "frontend/ptx/ptx_query.h"
#include "sim/core/kernel_regs.h"
#include "sim/core/checks.h"
#include "sim/core/launch_reuse.h"
#include "sim/core/progress_line.h"
#include "sim/base/host_malloc.h"
#include "sim/mem/l2_dram.h"
#include "sim/core/sm_shelf.h"
#include "frontend/ptx/ptxas_info.h"
#include "frontend/sass/sass_listing.h"
#include "sim/core/sass_groups.h"
#include "sim/core/thread_pool.h"

/* The CUDA runtime API is process-global by nature: nvcc's generated code
 * calls it with no handle, starting from static constructors, and programs
 * call it from anywhere.  So the runtime keeps one context, created on
 * first use and freed when the library unloads; this pointer is the only
 * mutable global in warpsim, and everything the runtime knows hangs off
 * it.  (Atomic so that two threads racing to create it agree on one.) */
static _Atomic(cr_context *) the_context;

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static cr_context *context_create(void)
{
    ws_host_malloc_tune();
    cr_context *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    const char *gpu = env(WS_ENV_GPU);
    char err[1024];
    if (ws_gpu_config_load(gpu ? gpu : "a100", &c->gpu, err, sizeof err) == 0) {
        c->gpu_ok = true;
    } else {
        fflush(stdout);
        fprintf(stderr, "warpsim: error: %s\nwarpsim: every CUDA call will return cudaErrorNoDevice\n", err);
    }
    c->mem = ws_devmem_create();
    if (!c->mem) c->gpu_ok = false;
    c->json = env(WS_ENV_JSON) && strcmp(env(WS_ENV_JSON), "0") != 0;
    c->functional = env(WS_ENV_FUNCTIONAL) && strcmp(env(WS_ENV_FUNCTIONAL), "0") != 0;
    /* repeated-launch reuse unless told to simulate all (docs/REUSE.md);
     * without memory for it every launch is simulated */
    if (!c->functional && !(env(WS_ENV_SIMULATE_ALL) && strcmp(env(WS_ENV_SIMULATE_ALL), "0") != 0))
        c->reuse = ws_reuse_create();
    /* one L2 for the timed launches: its pages made once (zeroed, it is
     * made at the first launch; without memory for it each launch makes
     * its own) */
    if (!c->functional) c->l2_kept = calloc(1, sizeof *c->l2_kept);
    if (!c->functional) c->sm_kept = calloc(1, sizeof *c->sm_kept);
    /* and one set of threads for them (thread_pool.h) */
    if (!c->functional) c->pool = ws_thread_pool_create();
    /* a launch's progress on a terminal only: pipes and files see nothing */
    const char *after = env(WS_ENV_PROGRESS_AFTER_MS);
    if (isatty(fileno(stderr)))
        c->progress = ws_progress_line_create(stderr, after ? strtoull(after, NULL, 10) * UINT64_C(1000000)
                                                            : WS_PROGRESS_SHOW_AFTER_NS, NULL, NULL);
    cr_trace_open(c);
    c->summary = stderr;
    const char *out = env(WS_ENV_SUMMARY_OUT);
    if (env(WS_ENV_NO_SUMMARY)) {
        c->summary = NULL;
    } else if (out && strcmp(out, "-") != 0) {
        FILE *f = fopen(out, "w");
        if (f) {
            c->summary = f;
            c->summary_owned = true;
        } else {
            fprintf(stderr, "warpsim: cannot write the summary to %s; writing it to stderr\n", out);
        }
    }
    const char *mode = env(WS_ENV_SUMMARY);
    ws_summary_mode m = WS_SUMMARY_FULL;
    if (mode && !ws_summary_parse_mode(mode, &m))
        fprintf(stderr, "warpsim: unknown summary mode '%s'; printing the full summary\n", mode);
    c->summary_mode = c->summary ? (int)m : WS_SUMMARY_NONE;
    c->totals = ws_kernel_totals_create();
    c->lines_text = env(WS_ENV_LINES) && strcmp(env(WS_ENV_LINES), "0") != 0;
    if (env(WS_ENV_LINES_OUT)) c->lines_out = strdup(env(WS_ENV_LINES_OUT));
    if (env(WS_ENV_REPORT) && (c->report_path = strdup(env(WS_ENV_REPORT))) &&
        !(c->report = ws_html_report_create()))
        fprintf(stderr, "warpsim: out of memory for the HTML report\n");
    if (c->lines_text || c->lines_out || c->report) c->lines = ws_lines_create();
    /* appended to: `warpsim exec` made it empty, and a program's child
     * processes add their launches */
    if (env(WS_ENV_HOST_TIMES) && !(c->host_times = fopen(env(WS_ENV_HOST_TIMES), "a")))
        fprintf(stderr, "warpsim: cannot write the host times to %s\n", env(WS_ENV_HOST_TIMES));
    const char *lim = env(WS_ENV_MAX_WARP_INSTS);
    c->max_warp_insts = lim ? strtoull(lim, NULL, 10) : WS_DEFAULT_MAX_WARP_INSTS;
    const char *progress = env(WS_ENV_PROGRESS_LIMIT), *timeout = env(WS_ENV_TIMEOUT);
    const char *cycles = env(WS_ENV_MAX_CYCLES), *checks = env(WS_ENV_CHECKS);
    c->progress_limit = progress ? strtoull(progress, NULL, 10) : 0;
    c->timeout_s = timeout ? strtod(timeout, NULL) : 0;
    c->max_cycles = cycles ? strtoull(cycles, NULL, 10) : 0;
    const char *threads = env(WS_ENV_THREADS);
    c->threads = threads ? (int32_t)strtol(threads, NULL, 10) : 0;
    if (c->threads < 0 || c->threads > 64) c->threads = 0;
    const char *every = env(WS_ENV_THREADS_EVERY_CYCLE);
    c->threads_every_cycle = every && !strcmp(every, "1");
    const char *window = env(WS_ENV_WINDOW);
    long wc = window ? strtol(window, NULL, 10) : 0;
    c->window = wc > 0 && wc <= 1000 ? (uint32_t)wc : 0;
    c->leak_check = env(WS_ENV_LEAK_CHECK) && strcmp(env(WS_ENV_LEAK_CHECK), "0") != 0;
    c->checks = (checks && strstr(checks, "race") ? WS_CHECK_RACE : 0) |
                (checks && strstr(checks, "sync") ? WS_CHECK_SYNC : 0) |
                (checks && strstr(checks, "init") ? WS_CHECK_INIT : 0);
    if ((c->checks & WS_CHECK_INIT) && c->mem) ws_devmem_track_init(c->mem);
    /* each finding shown once in the program, not at every launch (without
     * memory for it, each launch shows its own) */
    if (c->checks) c->checks_shown = calloc(1, sizeof *c->checks_shown);
    return c;
}

static void module_unload(cr_module *m)
{
    ws_program_free(m->prog);
    m->prog = NULL;
    if (m->ptxm) ptx_module_free(m->ptxm);
    m->ptxm = NULL;
    m->loaded = false;
    m->load_error = cudaSuccess;
    ws_ptxas_cache_free(&m->ptxas);
}

static void free_allocs(cr_context *c)
{
    for (size_t i = 0; i < c->nallocs; i++)
        if (c->allocs[i].managed)
            munmap((void *)(uintptr_t)c->allocs[i].addr, c->allocs[i].size);
    c->nallocs = 0;
    c->bytes_allocated = 0;
    for (size_t i = 0; i < c->nhost; i++) free(c->host_allocs[i]);
    c->nhost = 0;
}

/* At the end of the program: the per-kernel totals and the per-line
 * report. */
static void final_reports(cr_context *c)
{
    FILE *out = c->summary ? c->summary : stderr;
    if (c->summary_mode != WS_SUMMARY_NONE) {
        if (c->json) ws_kernel_totals_json(out, c->totals);
        else ws_kernel_totals_text(out, c->totals);
    }
    if (c->lines && c->lines_out) {
        FILE *f = fopen(c->lines_out, "w");
        if (f) ws_lines_json(f, c->lines, !c->functional);
        if (!f || fclose(f) != 0) fprintf(stderr, "warpsim: cannot write the per-line report to %s\n", c->lines_out);
    }
    if (c->lines && c->lines_text) ws_lines_text(out, c->lines, !c->functional);
    if (c->report) {
        FILE *f = fopen(c->report_path, "w");
        bool written = f && ws_html_report_write(f, c->report, c->lines) == 0;
        if ((f && fclose(f) != 0) || !written)
            fprintf(stderr, "warpsim: cannot write the HTML report to %s\n", c->report_path);
    }
    fflush(out);
}

static void context_destroy(cr_context *c)
{
    if (!c) return;
    ws_reuse_destroy(c->reuse);
    free(c->checks_shown);
    if (c->l2_kept) ws_l2_free(c->l2_kept);
    free(c->l2_kept);
    ws_sm_shelf_free(c->sm_kept);
    free(c->sm_kept);
    ws_thread_pool_free(c->pool);
    ws_progress_line_free(c->progress);
    ws_kernel_totals_free(c->totals);
    ws_lines_free(c->lines);
    free(c->lines_out);
    if (c->host_times) fclose(c->host_times);
    ws_html_report_free(c->report);
    free(c->report_path);
    for (size_t i = 0; i < c->nfuncs; i++) {
        free(c->funcs[i]->device_name);
        free(c->funcs[i]);
    }
    free(c->funcs);
    for (size_t i = 0; i < c->nvars; i++) free(c->vars[i].device_name);
    free(c->vars);
    while (c->modules) {
        cr_module *m = c->modules;
        c->modules = m->next;
        module_unload(m);
        free(m->ptx);
        free(m);
    }
    free_allocs(c);
    cr_textures_reset(c);
    free(c->allocs);
    free(c->host_allocs);
    free(c->arrays);
    free(c->textures);
    free(c->texobjs);
    ws_devmem_destroy(c->mem);
    if (c->summary_owned) fclose(c->summary);
    cr_trace_close(c);
    free(c);
}

cr_context *cr_ctx(void)
{
    cr_context *c = atomic_load(&the_context);
    if (c) return c;
    cr_context *fresh = context_create();
    if (!fresh) return NULL;
    cr_context *expected = NULL;
    if (atomic_compare_exchange_strong(&the_context, &expected, fresh)) return fresh;
    context_destroy(fresh);
    return expected;
}

/* --leak-check: device memory the program never freed, as compute-sanitizer
 * reports it at exit. */
static void report_leaks(const cr_context *c)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < c->nallocs; i++) bytes += c->allocs[i].size;
    if (c->nallocs == 0) return;
    fprintf(stderr, "warpsim leak check: %zu allocation(s), %llu bytes, never freed with cudaFree:",
            c->nallocs, (unsigned long long)bytes);
    for (size_t i = 0; i < c->nallocs && i < 10; i++)
        fprintf(stderr, "%s %llu bytes at 0x%llx", i ? ";" : "", (unsigned long long)c->allocs[i].size,
                (unsigned long long)c->allocs[i].addr);
    fprintf(stderr, "%s\n", c->nallocs > 10 ? "; ..." : "");
}

__attribute__((destructor)) static void cr_unload(void)
{
    cr_context *c = atomic_exchange(&the_context, NULL);
    if (c) {
        fflush(stdout);
        final_reports(c);
        if (c->leak_check) report_leaks(c);
    }
    context_destroy(c);
}

cudaError_t cr_ret(cr_context *c, cudaError_t err)
{
    if (c && err != cudaSuccess) c->last_error = err;
    return err;
}

cr_context *cr_enter(cudaError_t *err)
{
    cr_context *c = cr_ctx();
    if (!c) {
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    if (!c->gpu_ok) {
        *err = cr_ret(c, cudaErrorNoDevice);
        return NULL;
    }
    if (c->sticky_error) {
        *err = c->sticky_error;
        return NULL;
    }
    *err = cudaSuccess;
    return c;
}

void cr_note(const char *fmt, ...)
{
    fflush(stdout);
    va_list ap;
    va_start(ap, fmt);
    fputs("warpsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

cudaError_t cr_unsupported(const char *call)
{
    cr_note("%s is not supported by warpsim; it returns cudaErrorNotSupported", call);
    return cr_ret(cr_ctx(), cudaErrorNotSupported);
}

static void program_name(char *buf, size_t size)
{
    char exe[512];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(buf, size, "program");
        return;
    }
    exe[n] = '\0';
    const char *slash = strrchr(exe, '/');
    const char *base = slash ? slash + 1 : exe;
    size_t len = strlen(base);
    if (len >= size) len = size - 1;
    memcpy(buf, base, len);
    buf[len] = '\0';
}

/* WARPSIM_SASS (warpsim exec --sass FILE): SASS-informed counters for the
 * module whose kernels the listing has; other modules stay PTX-exact. */
static void apply_sass(ws_program *prog)
{
    const char *path = env(WS_ENV_SASS);
    if (!path) return;
    char msg[512];
    ws_sass_listing l;
    if (!ws_sass_read(path, &l, msg, sizeof msg)) {
        cr_note("warning: --sass: %s; counting PTX-exact", msg);
        return;
    }
    ws_error err;
    ws_sass_applied a;
    if (ws_program_apply_sass(prog, &l, &a, &err) && a.unmatched)
        cr_note("warning: --sass: %u wide SASS accesses of %s match no group of PTX accesses", a.unmatched, path);
    ws_sass_free(&l);
}

/* The module's PTX for the GPU, out of its fat binary (once); false, and
 * why in err, when it has none. */
static bool module_ptx(const cr_context *c, cr_module *m, char *err, size_t errsize)
{
    if (m->ptx) return true;
    uint32_t arch = (uint32_t)(c->gpu.major * 10 + c->gpu.minor);
    uint64_t size = ws_fatbin_size(m->fatbin, SIZE_MAX);
    if (size == 0) {
        snprintf(err, errsize, "the registered device code is not a fat binary");
        return false;
    }
    if (ws_fatbin_extract_ptx(m->fatbin, (size_t)size, arch, &m->ptx, &m->ptx_len, &m->ptx_arch, err, errsize) != 0)
        return false;
    char prog[40];
    program_name(prog, sizeof prog);
    snprintf(m->path, sizeof m->path, "%s.compute_%u.ptx", prog, m->ptx_arch);
    return true;
}

void cr_module_start_ptxas(cr_context *c, cr_module *m)
{
    char err[1024];
    if (c->gpu_ok && !m->load_error && module_ptx(c, m, err, sizeof err))
        ws_ptxas_start_ahead(&m->ptxas, m->ptx, m->ptx_len, c->gpu.major, c->gpu.minor);
}

cudaError_t cr_module_load(cr_context *c, cr_module *m)
{
    if (m->loaded) return cudaSuccess;
    if (m->load_error) return m->load_error;
    char err[1024];
    if (!module_ptx(c, m, err, sizeof err)) {
        cr_note("error: no kernel image is available for execution on the device "
                "(cudaErrorNoKernelImageForDevice): cannot load the program's device code for %s "
                "(compute %d.%d): %s", c->gpu.name, c->gpu.major, c->gpu.minor, err);
        return m->load_error = cudaErrorNoKernelImageForDevice;
    }
    const char *dump = env(WS_ENV_KEEP_PTX);
    if (dump) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dump, m->path);
        FILE *f = fopen(path, "w");
        if (f) {
            fwrite(m->ptx, 1, m->ptx_len, f);
            fclose(f);
        }
    }
    ptx_error perr;
    m->ptxm = ptx_parse(m->ptx, m->ptx_len, m->path, &perr);
    if (!m->ptxm) {
        /* every error the parser found (up to PTX_MAX_ERRORS), as `warpsim check` */
        ptx_error_format(&perr, err, sizeof err);
        cr_note("%s", err);
        for (int i = 0; i < perr.nmore && i < PTX_MAX_ERRORS - 1; i++)
            cr_note("%s:%d:%d: error: %s", perr.file, perr.more[i].line, perr.more[i].col, perr.more[i].msg);
        cr_note("the module's PTX is refused (cudaErrorInvalidPtx); warpsim exec --keep-ptx DIR keeps it");
        return m->load_error = cudaErrorInvalidPtx;
    }
    /* the fat binary's PTX entry was picked by its arch; its .target decides too */
    if (!ptx_target_fits(m->ptxm, c->gpu.major, c->gpu.minor, err, sizeof err)) {
        cr_note("error: no kernel image is available for execution on the device "
                "(cudaErrorNoKernelImageForDevice): %s (%s, %s)", err, c->gpu.name, m->path);
        ptx_module_free(m->ptxm);
        m->ptxm = NULL;
        return m->load_error = cudaErrorNoKernelImageForDevice;
    }
    ws_error werr;
    m->prog = ws_program_load(m->ptxm, c->mem, &werr);
    if (!m->prog) {
        cr_note("%s", werr.msg);
        ptx_module_free(m->ptxm);
        m->ptxm = NULL;
        return m->load_error = cudaErrorInvalidPtx;
    }
    apply_sass(m->prog);
    m->loaded = true;
    for (size_t i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->mod == m)
            c->funcs[i]->kernel = ws_program_kernel(m->prog, c->funcs[i]->device_name);
    return cudaSuccess;
}

cudaError_t cr_func_lookup(cr_context *c, const void *host_fun, cr_func **out)
{
    *out = NULL;
    for (size_t i = 0; i < c->nfuncs; i++) {
        cr_func *f = c->funcs[i];
        if (f->host_fun != host_fun && (const void *)f != host_fun) continue;
        cudaError_t e = cr_module_load(c, f->mod);
        if (e) return e;
        if (!f->kernel) {
            cr_note("error: kernel %s is not in the program's PTX", f->device_name);
            return cudaErrorInvalidDeviceFunction;
        }
        *out = f;
        return cudaSuccess;
    }
    return cudaErrorInvalidDeviceFunction;
}

cudaError_t cr_symbol_lookup(cr_context *c, const void *symbol, uint64_t *addr, uint64_t *size)
{
    for (size_t i = 0; i < c->nvars; i++) {
        cr_var *v = &c->vars[i];
        if (v->host_var != symbol) continue;
        cudaError_t e = cr_module_load(c, v->mod);
        if (e) return e;
        *addr = ws_program_symbol(v->mod->prog, v->device_name, size);
        if (!*addr) {
            cr_note("error: variable %s is not in the program's PTX", v->device_name);
            return cudaErrorInvalidSymbol;
        }
        return cudaSuccess;
    }
    return cudaErrorInvalidSymbol;
}

cr_alloc *cr_alloc_find(cr_context *c, uint64_t addr, uint64_t size)
{
    for (size_t i = 0; i < c->nallocs; i++) {
        cr_alloc *a = &c->allocs[i];
        if (addr >= a->addr && addr - a->addr <= a->size && size <= a->size - (addr - a->addr))
            return a;
    }
    return NULL;
}

void cr_managed_sync(cr_context *c, bool to_device)
{
    for (size_t i = 0; i < c->nallocs; i++) {
        cr_alloc *a = &c->allocs[i];
        if (!a->managed) continue;
        void *host = (void *)(uintptr_t)a->addr;
        if (to_device) ws_devmem_write(c->mem, a->addr, host, a->size);
        else ws_devmem_read(c->mem, a->addr, host, a->size);
    }
}

int32_t cr_func_regs(cr_context *c, cr_func *f)
{
    if (f->regs >= 0) return f->regs;
    ws_regs_request rq = {.given = 0, .ptx_path = NULL, .ptx_text = f->mod->ptx, .ptx_len = f->mod->ptx_len,
                          .gpu_major = c->gpu.major, .gpu_minor = c->gpu.minor, .ptxas_cache = &f->mod->ptxas};
    ws_kernel_regs r;
    ws_kernel_regs_resolve(f->mod->prog, f->kernel, &rq, &r);
    f->regs = r.regs;
    f->regs_estimated = r.source == WS_REGS_ESTIMATED;
    if (f->regs_estimated && !c->noted_regs_estimate) {
        c->noted_regs_estimate = true;
        cr_note("note: %s; register counts are estimated from the PTX (the summary marks them)", r.why);
    }
    return f->regs;
}

void cr_device_reset(cr_context *c)
{
    ws_reuse_clear(c->reuse);     /* its records name the kernels freed here */
    if (c->checks_shown) c->checks_shown->n = 0;    /* so do the findings shown */
    for (cr_module *m = c->modules; m; m = m->next) module_unload(m);
    for (size_t i = 0; i < c->nfuncs; i++) c->funcs[i]->kernel = NULL;
    free_allocs(c);
    cr_textures_reset(c);
    ws_devmem_destroy(c->mem);
    c->mem = ws_devmem_create();
    c->coop_workspace = 0;
    c->gpu_ok = c->mem != NULL;
    if ((c->checks & WS_CHECK_INIT) && c->mem) ws_devmem_track_init(c->mem);
    c->last_error = cudaSuccess;
    c->sticky_error = cudaSuccess;
    c->npushed = 0;
}
