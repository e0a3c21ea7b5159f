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
#include "frontend/ptx/ptx_query.h"
#include "sim/core/timing.h"
#include "sim/trace/kernel_totals.h"
#include "sim/trace/lines.h"
#include "sim/trace/trace.h"
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

CR_EXPORT void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
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
 * kind of failure the simulator found. */
static cudaError_t error_code(ws_error_kind kind)
{
    static const cudaError_t codes[] = {
        [WS_ERR_NONE] = cudaErrorLaunchFailure,
        [WS_ERR_INPUT] = cudaErrorLaunchFailure,
        [WS_ERR_LAUNCH_CONFIG] = cudaErrorInvalidConfiguration,
        [WS_ERR_NO_MEMORY] = cudaErrorMemoryAllocation,
        [WS_ERR_ILLEGAL_ADDRESS] = cudaErrorIllegalAddress,
        [WS_ERR_MISALIGNED] = cudaErrorMisalignedAddress,
        [WS_ERR_ASSERT] = cudaErrorAssert,
        [WS_ERR_TIMEOUT] = cudaErrorLaunchTimeout,
        [WS_ERR_KERNEL_FAULT] = cudaErrorLaunchFailure,
    };
    return (size_t)kind < sizeof codes / sizeof codes[0] ? codes[kind] : cudaErrorLaunchFailure;
}

static void kernel_display_name(const cr_func *f, char *buf, size_t size)
{
    if (!ptx_demangle(f->device_name, buf, size, NULL, 0)) snprintf(buf, size, "%s", f->device_name);
}

static cudaError_t launch(const void *fn, dim3 grid, dim3 block, void **args, size_t shmem)
{
    cudaError_t e;
    cr_context *c = cr_enter(&e);
    if (!c) return e;
    cr_func *f;
    if ((e = cr_func_lookup(c, fn, &f)) != cudaSuccess) return cr_ret(c, e);
    const ws_gpu_config *g = &c->gpu;
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > (uint64_t)g->maxThreadsPerBlock || block.x > 1024 ||
        block.y > 1024 || block.z > 64 || grid.x == 0 || grid.y == 0 || grid.z == 0 ||
        grid.x > INT32_MAX || grid.y > 65535 || grid.z > 65535)
        return cr_ret(c, cudaErrorInvalidConfiguration);
    const ptx_function *pf = ws_kernel_function(f->kernel);
    uint64_t static_smem = ptx_kernel_static_smem(f->mod->ptxm, pf);
    uint64_t max_dyn = f->max_dynamic_smem >= 0 ? (uint64_t)f->max_dynamic_smem
                       : g->sharedMemPerBlock > static_smem ? g->sharedMemPerBlock - static_smem : 0;
    if (shmem > max_dyn || static_smem + shmem > g->sharedMemPerBlockOptin) {
        char name[256];
        kernel_display_name(f, name, sizeof name);
        cr_note("error: kernel %s asks for %zu bytes of dynamic shared memory; its limit is %llu "
                "(raise it with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...))",
                name, shmem, (unsigned long long)max_dyn);
        return cr_ret(c, cudaErrorInvalidValue);
    }
    uint32_t total = ws_params_total_size(pf);
    if (pf->nparams > 0 && !args) return cr_ret(c, cudaErrorInvalidValue);
    uint8_t *params = calloc(1, total ? total : 1);
    if (!params) return cr_ret(c, cudaErrorMemoryAllocation);
    for (int32_t i = 0; i < pf->nparams; i++)
        memcpy(params + ws_param_offset(pf, i), args[i], ws_param_size(pf, i));

    ws_launch l = {
        .grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
        .dynamic_smem = (uint32_t)shmem, .params = params, .params_size = total,
        .printf_out = NULL, .max_warp_insts = c->max_warp_insts,
        .progress_limit = c->progress_limit, .timeout_s = c->timeout_s, .checks = c->checks,
        .sm_count = (uint32_t)g->multiProcessorCount,
        .warps_per_sm = (uint32_t)(g->maxThreadsPerMultiProcessor / g->warpSize),
        .textures = c->textures, .ntextures = (uint32_t)c->ntextures,
    };
    char name[256];
    kernel_display_name(f, name, sizeof name);
    if (c->lines) l.pc_counts = ws_lines_counters(c->lines, f->mod->prog, name);
    ws_launch_stats st;
    ws_timing_stats ts;
    memset(&ts, 0, sizeof ts);
    ws_error err;
    ws_timing_options topt = ws_timing_defaults();
    topt.regs_per_thread = cr_func_regs(c, f);
    topt.optin = true;      /* the limit the program set was checked above */
    topt.trace = c->trace;
    topt.max_cycles = c->max_cycles;
    if (c->trace) ws_trace_begin_launch(c->trace, name, c->trace_cycles);
    cr_managed_sync(c, true);
    bool ok = c->functional ? ws_launch_kernel(f->mod->prog, f->kernel, &l, &st, &err)
                            : ws_launch_timed(f->mod->prog, f->kernel, &l, g, &topt, &st, &ts, &err);
    cr_managed_sync(c, false);
    free(params);

    /* Simulated time for cudaEvent: the timing model's cycles at the
     * config's clock.  Functional only: as if every SM sub-partition
     * issued one warp instruction per cycle. */
    double issue_per_cycle = (double)g->multiProcessorCount *
                             (g->subPartitionsPerMultiprocessor > 0 ? g->subPartitionsPerMultiprocessor : 4);
    if (!c->functional) {
        c->sim_ms += ts.time_ns / 1e6;
        c->trace_cycles += ts.cycles;
    }
    else if (g->clockRate > 0 && issue_per_cycle > 0)
        c->sim_ms += (double)st.warp_insts / issue_per_cycle / (double)g->clockRate;

    if (ok && c->totals) ws_kernel_totals_add(c->totals, name, &st, c->functional ? NULL : &ts);
    if (ok && c->summary_mode != WS_SUMMARY_NONE) {
        ws_summary_info info = {name, l.grid, l.block, l.dynamic_smem,
                                c->functional ? NULL : g->name, c->functional ? NULL : &ts,
                                ws_program_sass_source(f->mod->prog)};
        fflush(stdout);
        if (c->json) ws_summary_json(c->summary, &info, &st);
        else if (c->summary_mode == WS_SUMMARY_SHORT) ws_summary_short(c->summary, &info, &st);
        else ws_summary_text(c->summary, &info, &st);
        fflush(c->summary);
    }
    if (!ok) {
        cudaError_t code = error_code(err.kind);
        /* A bad configuration or no memory fails the launch call alone, as
         * on a GPU; a kernel fault is sticky. */
        if (err.kind == WS_ERR_LAUNCH_CONFIG || err.kind == WS_ERR_NO_MEMORY) {
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
    return launch(kernel, gridDim, blockDim, args, sharedMem);
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
    return launch(func, gridDim, blockDim, args, sharedMem);
}

CR_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}
