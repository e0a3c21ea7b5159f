/* What nvcc's host code calls: registering the fat binary, its kernels
 * and variables (from static constructors), and launching a kernel
 * (<<<>>> pushes the configuration; the host stub pops it and calls
 * __cudaLaunchKernel or cudaLaunchKernel).  Every launch runs in the
 * simulator before the call returns. */
#include <stdlib.h>
#include <string.h>
#include "cudart_ctx.h"
#include "fatbin.h"
#include "frontend/ptx/ptx_demangle.h"
#include "sim/base/clock.h"
#include "sim/core/progress_line.h"
#include "sim/core/run.h"
#include "sim/core/timing.h"
#include "sim/trace/kernel_totals.h"
#include "sim/trace/html_report.h"
#include "sim/trace/lines.h"
#include "sim/trace/trace.h"
#include "sim/trace/host_times.h"
#include "sim/trace/summary.h"
#include "sim/core/sass_groups.h"

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need) n *= 2;
    void *p = realloc(*arr, n * elem);
    if (!p) return false;
    *arr = p;
    *cap = n;
    return true;
}

CR_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    cr_context *c = cr_ctx();
    cr_module *m = calloc(1, sizeof *m);
    if (!c || !m) {
        free(m);
        return NULL;
    }
    m->ptxas.disk = true;       /* ptxas outputs kept on disk between runs (ptxas_store.h) */
    const ws_fatbin_wrapper *w = fatCubin;
    m->fatbin = fatCubin;
    if (w && w->magic == WS_FATBIN_WRAPPER_MAGIC) {
        m->fatbin = w->data;
        if (w->version != 1) {
            cr_note("error: relocatable device code (nvcc -rdc=true) is not supported; "
                    "build without -rdc");
            m->load_error = cudaErrorNotSupported;
        }
    }
    cr_module **tail = &c->modules;
    while (*tail) tail = &(*tail)->next;
    *tail = m;
    c->nmodules++;
    return (void **)m;
}

/* The module and its kernels are registered (before main): ptxas starts
 * on it while the program runs up to its first launch. */
CR_EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
    cr_context *c = cr_ctx();
    if (c && handle) cr_module_start_ptxas(c, (cr_module *)handle);
}

/* Modules stay until the library unloads: a program's atexit handlers may
 * run in any order with respect to each other. */
CR_EXPORT void __cudaUnregisterFatBinary(void **handle)
{
    (void)handle;
}

CR_EXPORT char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

CR_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, void *tid,
                                      void *bid, void *bDim, void *gDim, int *wSize)
{
    (void)deviceName; (void)thread_limit; (void)tid; (void)bid; (void)bDim; (void)gDim; (void)wSize;
    cr_context *c = cr_ctx();
    if (!c || !handle || !deviceFun) return;
    cr_func *f = calloc(1, sizeof *f);
    if (!f || !grow((void **)&c->funcs, &c->capfuncs, c->nfuncs + 1, sizeof *c->funcs) ||
        !(f->device_name = strdup(deviceFun))) {
        free(f);
        return;
    }
    f->host_fun = hostFun;
    f->mod = (cr_module *)handle;
    f->max_dynamic_smem = -1;
    f->carveout = -1;
    f->regs = -1;
    c->funcs[c->nfuncs++] = f;
}

CR_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant,
                                 int global)
{
    (void)deviceAddress; (void)ext; (void)global;
    cr_context *c = cr_ctx();
    if (!c || !handle || !deviceName) return;
    if (!grow((void **)&c->vars, &c->capvars, c->nvars + 1, sizeof *c->vars)) return;
    cr_var *v = &c->vars[c->nvars];
    v->device_name = strdup(deviceName);
    if (!v->device_name) return;
    v->host_var = hostVar;
    v->mod = (cr_module *)handle;
    v->size = size;
    v->constant = constant != 0;
    c->nvars++;
}

CR_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant,
                                        int global)
{
    (void)handle; (void)hostVarPtrAddress; (void)deviceAddress; (void)ext; (void)size;
    (void)constant; (void)global;
    cr_note("__managed__ variable %s is not supported (cudaMallocManaged is)",
            deviceName ? deviceName : "?");
}

CR_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               void *stream)
{
    cr_context *c = cr_ctx();
    if (!c || c->npushed >= CR_MAX_PUSHED) return 1;
    cr_launch_config *p = &c->pushed[c->npushed++];
    p->grid = gridDim;
    p->block = blockDim;
    p->shmem = sharedMem;
    p->stream = stream;
    return 0;
}

CR_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                 void *stream)
{
    cr_context *c = cr_ctx();
    if (!c || c->npushed == 0) return cudaErrorMissingConfiguration;
    cr_launch_config *p = &c->pushed[--c->npushed];
    *gridDim = p->grid;
    *blockDim = p->block;
    *sharedMem = p->shmem;
    if (stream) *(void **)stream = p->stream;
    return cudaSuccess;
}

CR_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    cr_context *c = cr_ctx();
    if (!c || !kernel) return cudaErrorInvalidValue;
    for (size_t i = 0; i < c->nfuncs; i++)
        if (c->funcs[i]->host_fun == hostFun) {
            *kernel = c->funcs[i];
            return cudaSuccess;
        }
    *kernel = NULL;
    return cudaErrorInvalidDeviceFunction;
}

/* The CUDA error a failed launch reports: the one a GPU returns for the
 * kind of failure the simulator found (sim/base/error_kinds.def, whose
 * codes must be the runtime's own). */
#define X(kind, cuda_code, cuda_name) \
    _Static_assert((cuda_code) == (int)cuda_name, #kind " is reported as " #cuda_name);
#include "sim/base/error_kinds.def"
#undef X

static cudaError_t error_code(ws_error_kind kind)
{
    return (cudaError_t)ws_error_cuda_code(kind);
}

static void kernel_display_name(const cr_func *f, char *buf, size_t size)
{
    if (!ptx_demangle(f->device_name, buf, size, NULL, 0)) snprintf(buf, size, "%s", f->device_name);
}

/* The kernel's arguments packed as its .param list lays them out (the
 * layout computed when its module loaded), into l. */
static cudaError_t pack_params(const ws_kernel *k, void **args, ws_launch *l, uint8_t **out)
{
    ws_param_layout pl = ws_kernel_params(k);
    if (pl.count > 0 && !args) return cudaErrorInvalidValue;
    uint8_t *params = calloc(1, pl.total ? pl.total : 1);
    if (!params) return cudaErrorMemoryAllocation;
    for (int32_t i = 0; i < pl.count; i++)
        memcpy(params + pl.offset[i], args[i], pl.size[i]);
    l->params = params;
    l->params_size = pl.total;
    *out = params;
    return cudaSuccess;
}

/* Simulated time for cudaEvent: the timing model's cycles at the config's
 * clock.  Functional only: as if every SM sub-partition issued one warp
 * instruction per cycle. */
static void add_sim_time(cr_context *c, const ws_launch_stats *st, const ws_timing_stats *ts)
{
    const ws_gpu_config *g = &c->gpu;
    double issue_per_cycle = (double)g->multiProcessorCount *
                             (g->subPartitionsPerMultiprocessor > 0 ? g->subPartitionsPerMultiprocessor : 4);
    uint64_t cycles = c->functional ? st->warp_insts : ts->cycles;  /* functional: one step a cycle */
    if (c->trace) ws_trace_end_launch(c->trace, cycles);
    c->trace_cycles += cycles;
    if (!c->functional)
        c->sim_ms += ts->time_ns / 1e6;
    else if (g->clockRate > 0 && issue_per_cycle > 0)
        c->sim_ms += (double)st->warp_insts / issue_per_cycle / (double)g->clockRate;
}

/* A cooperative launch's workspace (ws_launch.grid_workspace), made at
 * the first and zeroed for each: its blocks count their arrivals at
 * grid-wide barriers there.  0 when out of memory. */
static uint64_t coop_workspace(cr_context *c)
{
    if (!c->coop_workspace) c->coop_workspace = ws_devmem_alloc(c->mem, CR_COOP_WORKSPACE);
    if (c->coop_workspace && !ws_devmem_fill(c->mem, c->coop_workspace, 0, CR_COOP_WORKSPACE)) return 0;
    return c->coop_workspace;
}

/* Why a cooperative launch of f cannot run (its error, with a note
 * saying why), or cudaSuccess: its blocks must all be resident at once,
 * as the GPU requires. */
static cudaError_t coop_check(cr_context *c, cr_func *f, dim3 grid, dim3 block, size_t shmem)
{
    uint64_t threads = (uint64_t)block.x * block.y * block.z, blocks = (uint64_t)grid.x * grid.y * grid.z;
    if (threads > INT32_MAX) return cudaErrorInvalidValue;
    int per_sm = cr_blocks_per_sm(c, f, (int)threads, shmem);
    uint64_t fit = (uint64_t)per_sm * (uint64_t)c->gpu.multiProcessorCount;
    if (blocks > fit) {
        cr_note("error: cooperative launch of %llu blocks: at most %llu can be resident at once (%d an SM on %d SMs)",
                (unsigned long long)blocks, (unsigned long long)fit, per_sm, c->gpu.multiProcessorCount);
        return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

static cudaError_t launch(const void *fn, dim3 grid, dim3 block, void **args, size_t shmem, bool cooperative)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_func *f;
    if ((e = cr_func_lookup(c, fn, &f)) != cudaSuccess) return cr_ret(c, e);
    const ws_gpu_config *g = &c->gpu;
    char name[256];
    kernel_display_name(f, name, sizeof name);
    ws_launch l = {
        .grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
        /* past 4 GiB: still more than any limit */
        .dynamic_smem = shmem > UINT32_MAX ? UINT32_MAX : (uint32_t)shmem,
        .params = NULL, .params_size = 0,
        .printf_out = NULL, .max_warp_insts = c->max_warp_insts,
        .progress_limit = c->progress_limit, .timeout_s = c->timeout_s, .checks = c->checks,
        .checks_shown = c->checks_shown,
        .sm_count = (uint32_t)g->multiProcessorCount,
        .warps_per_sm = (uint32_t)(g->maxThreadsPerMultiProcessor / g->warpSize),
        .textures = c->textures, .ntextures = (uint32_t)c->ntextures,
    };
    ws_run_options ro = {.gpu = g, .functional = c->functional,
                         .max_dynamic_smem = f->max_dynamic_smem >= 0 ? f->max_dynamic_smem : WS_SMEM_LIMIT_DEFAULT,
                         .timing = ws_timing_defaults()};
    ro.timing.regs_per_thread = cr_func_regs(c, f);
    ro.timing.regs_estimated = f->regs_estimated;
    ro.timing.optin = true;     /* the limit the program set is the check's */
    ro.timing.max_cycles = c->max_cycles;
    ro.timing.threads = c->threads;
    ro.timing.threads_every_cycle = c->threads_every_cycle;
    ro.timing.window_cycles = c->window;
    ro.timing.l2_kept = c->l2_kept;
    ro.timing.sm_kept = c->sm_kept;
    ro.timing.pool = c->pool;
    ws_error err;
    /* refused before anything is traced or copied: the call fails alone, as on a GPU */
    if (!ws_run_check(f->kernel, &l, &ro, &err)) {
        cr_note("error: %s", err.msg);
        return cr_ret(c, error_code(err.kind));
    }
    if (cooperative && (e = coop_check(c, f, grid, block, shmem)) != cudaSuccess) return cr_ret(c, e);
    if (cooperative && !(l.grid_workspace = coop_workspace(c))) return cr_ret(c, cudaErrorMemoryAllocation);
    uint8_t *params = NULL;
    if ((e = pack_params(f->kernel, args, &l, &params)) != cudaSuccess) return cr_ret(c, e);
    if (c->lines) l.pc_counts = ws_lines_counters(c->lines, f->mod->prog, name);
    ws_launch_stats st;
    memset(&st, 0, sizeof st);
    ws_timing_stats ts;
    memset(&ts, 0, sizeof ts);
    if (c->report && !c->functional) ro.timing.timeline = ws_html_report_timeline(c->report, g);
    if (c->trace) ws_trace_begin_launch(c->trace, name, c->trace_cycles);
    if (c->trace && ws_trace_launch_on(c->trace)) {
        if (c->functional) l.trace = c->trace;
        else ro.timing.trace = c->trace;
    }
    cr_managed_sync(c, true);
    ws_run_reuse reuse = {.cache = c->reuse, .launch_no = ++c->launches, .reused_from = 0};
    l.progress = c->progress;
    if (c->progress) ws_progress_line_begin(c->progress, name, !c->functional);
    uint64_t started_ns = ws_clock_ns();
    bool ok = ws_run_reusing(f->mod->prog, f->kernel, &l, &ro, &reuse, &st, &ts, &err);
    uint64_t host_ns = ws_clock_ns() - started_ns;
    if (c->progress) ws_progress_line_end(c->progress);
    cr_managed_sync(c, false);
    free(params);

    add_sim_time(c, &st, &ts);
    if (ok) {
        if (c->totals && ws_kernel_totals_add(c->totals, name, &st, c->functional ? NULL : &ts) &&
            reuse.reused_from)
            ws_kernel_totals_mark_reused(c->totals, name, &st, reuse.other_inputs);
        ws_summary_info info = {.kernel = name, .grid = l.grid, .block = l.block, .dynamic_smem = l.dynamic_smem,
                                .gpu = c->functional ? NULL : g->name, .timing = c->functional ? NULL : &ts,
                                .sass = ws_program_sass_source(f->mod->prog),
                                .launch_no = reuse.launch_no, .reused_from = reuse.reused_from,
                                .reused_other_inputs = reuse.other_inputs,
                                .reuse_missed = reuse.reused_from ? 0 : reuse.miss.launch_no,
                                .reuse_missed_addr = reuse.miss.addr,
                                .reuse_missed_freed = reuse.miss.freed};
        if (info.reuse_missed)
            ws_devmem_allocation_of(c->mem, info.reuse_missed_addr, &info.reuse_missed_base,
                                    &info.reuse_missed_size);
        if (c->report)
            ws_html_report_add(c->report, &(ws_html_launch){.info = &info, .stats = &st,
                                                            .gpu = c->functional ? NULL : g, .kernel = f->kernel,
                                                            .carveout = ro.timing.carveout, .optin = ro.timing.optin});
        ws_summary_write(c->summary, (ws_summary_mode)c->summary_mode, c->json, &info, &st);
        if (c->host_times)
            ws_host_time_write(c->host_times,
                               &(ws_host_time){.kernel = name, .launch_no = reuse.launch_no, .threads = c->threads,
                                               .functional = c->functional, .reused = reuse.reused_from != 0,
                                               .host_ns = host_ns, .warp_insts = st.warp_insts,
                                               .cycles = ts.cycles,
                                               .windows = &ts.host, .program = f->mod->prog});
    }
    if (!ok) {
        cudaError_t code = error_code(err.kind);
        /* A launch refused by its limits or out of memory fails the launch
         * call alone, as on a GPU; a kernel fault is sticky. */
        if (ws_error_launch_refused(err.kind) || err.kind == WS_ERR_NO_MEMORY) {
            cr_note("error: %s", err.msg);
            return cr_ret(c, code);
        }
        cr_note("kernel fault (%s): %s", cudaGetErrorName(code), err.msg);
        c->sticky_error = code;
        c->last_error = code;
    }
    return cudaSuccess;
}

CR_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    if (!kernel) return cr_ret(cr_ctx(), cudaErrorInvalidDeviceFunction);
    return launch(kernel, gridDim, blockDim, args, sharedMem, false);
}

CR_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void **args, size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

CR_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    if (!func) return cr_ret(cr_ctx(), cudaErrorInvalidDeviceFunction);
    return launch(func, gridDim, blockDim, args, sharedMem, false);
}

CR_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* A launch whose blocks may synchronize the whole grid
 * (cooperative_groups this_grid().sync()): every block resident at once,
 * and a workspace for the grid's barriers (%envreg1, %envreg2). */
CR_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream)
{
    (void)stream;
    if (!func) return cr_ret(cr_ctx(), cudaErrorInvalidDeviceFunction);
    return launch(func, gridDim, blockDim, args, sharedMem, true);
}

CR_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                                       void **args, size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}
