/* The state of warpsim's CUDA runtime, shared by the files that implement
 * the API: the simulated device (its config and memory), the modules and
 * kernels the program registered, host allocations, and the error state.
 *
 * Errors behave as on a GPU: a failed call returns its error and records it
 * as the last error (cudaGetLastError returns and clears it); a kernel
 * fault is sticky: from then on every call returns it, until
 * cudaDeviceReset.  A launch runs to completion inside the launching call,
 * so a fault is known there; as on a GPU the launch itself still returns
 * cudaSuccess and the next call reports the fault. */
#ifndef WARPSIM_CUDART_CTX_H
#define WARPSIM_CUDART_CTX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cudart_abi.h"
#include "frontend/ptx/ptx_parse.h"
#include "sim/base/gpu_config.h"
#include "sim/core/kernel_regs.h"
#include "sim/core/sim.h"

#define CR_EXPORT __attribute__((visibility("default")))

typedef struct cr_module {
    const void *fatbin;         /* the registered fat binary (in the program's image) */
    bool loaded;                /* ptx parsed and program placed in device memory */
    cudaError_t load_error;     /* cudaSuccess until a load failed */
    char *ptx;
    size_t ptx_len;
    uint32_t ptx_arch;
    char path[64];              /* name in messages: "fatbin#N.ptx" */
    ptx_module *ptxm;
    ws_program *prog;
    ws_ptxas_cache ptxas;       /* ptxas -v on ptx, run once for all its kernels (cr_func_regs) */
    struct cr_module *next;
} cr_module;

/* A kernel as __cudaRegisterFunction named it; cudaKernel_t points here. */
typedef struct cr_func {
    const void *host_fun;       /* the host stub's address: what <<<>>> and cudaLaunchKernel pass */
    char *device_name;          /* mangled */
    cr_module *mod;
    const ws_kernel *kernel;    /* once the module is loaded */
    int32_t max_dynamic_smem;   /* cudaFuncAttributeMaxDynamicSharedMemorySize; -1 = default */
    int32_t carveout;           /* cudaFuncAttributePreferredSharedMemoryCarveout; -1 = default */
    int32_t regs;               /* per thread; -1 until asked */
    bool regs_estimated;
} cr_func;

typedef struct cr_var {
    const void *host_var;
    char *device_name;
    cr_module *mod;
    size_t size;
    bool constant;
} cr_var;

typedef struct cr_alloc {
    uint64_t addr, size;        /* what the program sees */
    uint64_t base;              /* the device allocation holding it (= addr unless managed) */
    bool managed;               /* host pages mapped at the same address, mirrored around launches */
} cr_alloc;

/* A CUDA array: texels of one channel format, laid out row after row
 * (pitch = width * elem bytes, no padding) and slice after slice in one
 * device allocation.  Programs reach it only through the runtime. */
typedef struct cr_array {
    struct cudaChannelFormatDesc desc;
    uint32_t elem;              /* bytes per element */
    uint64_t width, height, depth;  /* elements, as allocated (0 = absent dimension) */
    unsigned int flags;
    uint64_t addr, pitch, slice;    /* device address, bytes per row, bytes per 2D slice */
} cr_array;

/* What a texture object was created from, for cudaGetTextureObject*Desc. */
typedef struct cr_texobj {
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
} cr_texobj;

/* The alignments the runtime gives and asks for, as cudaDeviceProp reports
 * them on sm_80 and later: cudaMallocPitch and cudaMalloc3D pad rows to
 * 512 bytes (what an A100 or H100 returns); a pitch2D texture's pitch must
 * be a multiple of texturePitchAlignment (32).  CUDA also asks a texture's
 * base to be a multiple of textureAlignment (512), which cudaMalloc's
 * pointers are on a GPU; warpsim's cudaMalloc promises 256 (what CUDA
 * documents for it), so a texture base needs only that here. */
#define CR_PITCH_ALIGNMENT 512
#define CR_TEXTURE_ALIGNMENT 512
#define CR_TEXTURE_BASE_ALIGNMENT 256
#define CR_TEXTURE_PITCH_ALIGNMENT 32

typedef struct cr_launch_config {
    dim3 grid, block;
    size_t shmem;
    void *stream;
} cr_launch_config;

#define CR_MAX_PUSHED 16

/* Bytes of a cooperative launch's workspace: grid-wide synchronization
 * counts arrivals in its second word. */
#define CR_COOP_WORKSPACE 256

typedef struct cr_context {
    ws_gpu_config gpu;
    bool gpu_ok;                /* false: the config did not load; calls return cudaErrorNoDevice */
    ws_devmem *mem;
    cr_module *modules;
    int nmodules;
    cr_func **funcs; size_t nfuncs, capfuncs;
    cr_var *vars; size_t nvars, capvars;
    cr_alloc *allocs; size_t nallocs, capallocs;
    void **host_allocs; size_t nhost, caphost;   /* cudaMallocHost / cudaHostAlloc */
    cr_array **arrays; size_t narrays, caparrays;
    ws_texture *textures;       /* texture object h is textures[h - 1]: what launches read */
    cr_texobj *texobjs;         /* parallel to textures */
    size_t ntextures, captextures;
    uint64_t bytes_allocated;
    cudaError_t last_error;
    cudaError_t sticky_error;
    cr_launch_config pushed[CR_MAX_PUSHED];
    int npushed;
    FILE *summary;              /* per-launch summaries; NULL = off */
    bool summary_owned, json;
    int summary_mode;           /* WARPSIM_SUMMARY: ws_summary_mode */
    struct ws_kernel_totals *totals;    /* every launch, per kernel, for the end of the program */
    struct ws_lines *lines;     /* WARPSIM_LINES / WARPSIM_LINES_OUT: per-pc counters, or NULL */
    bool lines_text;            /* WARPSIM_LINES: the per-line report as text at the end */
    char *lines_out;            /* WARPSIM_LINES_OUT: the same as JSON lines into this file */
    struct ws_html_report *report;  /* WARPSIM_REPORT: the HTML report's launches, or NULL */
    char *report_path;          /* ... and the file it goes to at the end */
    FILE *host_times;           /* WARPSIM_HOST_TIMES: each launch's host time (host_times.h), or NULL */
    bool functional;            /* WARPSIM_FUNCTIONAL: no timing model */
    struct ws_trace *trace;     /* WARPSIM_TRACE: the issue trace of every launch, or NULL */
    FILE *trace_out;
    uint64_t trace_cycles;      /* the program's simulated cycles so far: the trace's timeline */
    uint64_t max_warp_insts;
    uint64_t progress_limit;        /* 0 = the default */
    double timeout_s;               /* wall-clock seconds per launch; 0 = none */
    uint64_t max_cycles;            /* simulated cycles per launch; 0 = none */
    int32_t threads;                /* threads the SMs run on; 0 = the machine's cores */
    bool threads_every_cycle;       /* tests: no measuring which way is faster */
    uint32_t window;                /* cycles per window (timing_window.h); 0 = warpsim's choice */
    uint32_t checks;                /* WS_CHECK_*: --racecheck, --synccheck, --initcheck */
    bool leak_check;                /* --leak-check: report what was never freed, at exit */
    struct ws_reuse_cache *reuse;   /* timed launches for reuse (docs/REUSE.md); NULL = --simulate-all */
    struct ws_check_shown *checks_shown;    /* the checks' findings shown so far (checks.h); NULL: none asked */
    struct ws_l2_dram *l2_kept;     /* the timed launches' L2, kept from one to the next (ws_l2_init_again) */
    struct ws_sm_shelf *sm_kept;    /* and their SMs' L1s and load/store queues (sm_shelf.h) */
    struct ws_thread_pool *pool;    /* the timed launches' threads, kept likewise (NULL: each starts its own) */
    uint64_t launches;          /* launches made so far: the summary's launch numbers */
    uint64_t coop_workspace;    /* cooperative launches' workspace in device memory; 0: none made */
    struct ws_progress_line *progress;  /* stderr is a terminal: each long launch's progress */
    double sim_ms;              /* simulated time so far, for events */
    bool noted_event_time, noted_regs_estimate, noted_printf_limit, noted_streams;
} cr_context;

/* The runtime's one context, created on first use. */
cr_context *cr_ctx(void);

/* Records err as the last error (unless cudaSuccess) and returns it. */
cudaError_t cr_ret(cr_context *c, cudaError_t err);

/* The common prologue: the context, or NULL with *err set to the error the
 * call must return (no device, or a sticky error). */
cr_context *cr_enter(cudaError_t *err);

/* One line on stderr naming a call warpsim does not implement; returns
 * cudaErrorNotSupported (also recorded as the last error). */
cudaError_t cr_unsupported(const char *call);

/* A message on stderr, prefixed "warpsim: ", stdout flushed first so the
 * two streams stay in order on a terminal. */
void cr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Starts ptxas on the module's PTX now (ws_ptxas_start_ahead), when its
 * PTX for the GPU is there: a program sets up its inputs while ptxas
 * compiles, and its first launch waits for the registers less. */
void cr_module_start_ptxas(cr_context *c, cr_module *m);

/* Parses and places the module's PTX if not done yet. */
cudaError_t cr_module_load(cr_context *c, cr_module *m);

/* The registered kernel whose host stub is host_fun, its module loaded. */
cudaError_t cr_func_lookup(cr_context *c, const void *host_fun, cr_func **out);

/* The device address and size of a registered variable, its module loaded. */
cudaError_t cr_symbol_lookup(cr_context *c, const void *symbol, uint64_t *addr, uint64_t *size);

/* The allocation containing [addr, addr+size), or NULL. */
cr_alloc *cr_alloc_find(cr_context *c, uint64_t addr, uint64_t size);

/* Copies n bytes in the direction kind names (cudaMemcpyKind), checking
 * that each side is where kind says; sets n bytes at p (device or managed
 * memory) to value.  Return the error, without recording it. */
cudaError_t cr_copy(cr_context *c, void *dst, const void *src, size_t n, int kind);
cudaError_t cr_fill(cr_context *c, void *p, int value, size_t n);

/* The array a handle names, or NULL. */
cr_array *cr_array_find(cr_context *c, const void *handle);

/* Bytes per element of a channel format, or 0 (with a note naming what is
 * wrong) for one warpsim's arrays and textures do not take: 1, 2 or 4
 * channels of 8, 16 or 32 bits (float: 16 or 32), all of one size. */
uint32_t cr_channel_bytes(const struct cudaChannelFormatDesc *d, const char *call);

/* Frees the arrays and texture objects (cudaDeviceReset, unload). */
void cr_textures_reset(cr_context *c);

/* Copies the managed allocations host -> device (before) or device ->
 * host (after a launch). */
void cr_managed_sync(cr_context *c, bool to_device);

/* Registers per thread of a kernel (ptxas -v when available, else an
 * estimate flagged in f->regs_estimated). */
int32_t cr_func_regs(cr_context *c, cr_func *f);

/* Blocks of f (threads each, dynamic_smem bytes of dynamic shared memory)
 * resident on one SM at once, as cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * gives it (cudart_func.c); 0 when none fits. */
int cr_blocks_per_sm(cr_context *c, cr_func *f, int threads, size_t dynamic_smem);

/* Frees every device allocation and module placement (cudaDeviceReset). */
void cr_device_reset(cr_context *c);

/* API functions that other parts of the runtime call. */
cudaError_t cudaMalloc(void **devPtr, size_t size);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

#endif
