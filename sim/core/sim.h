/* Loading a PTX module and launching its kernels: the interface the
 * command line and the runtime library use. */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../base/dims.h"
#include "../base/error.h"
#include "../base/stats.h"
#include "../mem/device_memory.h"
#include "texture.h"

/* The front end's module and function (frontend/ptx/ptx_ir.h): loading
 * reads them, nothing after loading does. */
typedef struct ptx_module ptx_module;
typedef struct ptx_function ptx_function;

typedef struct ws_program ws_program;   /* a module decoded and placed in device memory */
typedef struct ws_kernel ws_kernel;     /* one decoded .entry */

/* Decodes every function of m and allocates and initializes its module-level
 * .global and .const variables in mem.  m must outlive the program.  NULL
 * with *err filled when something in m cannot be executed. */
ws_program *ws_program_load(const ptx_module *m, ws_devmem *mem, ws_error *err);
void ws_program_free(ws_program *p);

/* The kernel named name (mangled or demangled), or NULL. */
const ws_kernel *ws_program_kernel(const ws_program *p, const char *name);
const ptx_function *ws_kernel_function(const ws_kernel *k);
/* The kernel's name as the PTX spells it (mangled). */
const char *ws_kernel_name(const ws_kernel *k);

/* A kernel's parameter buffer as laid out once when the program loaded:
 * parameter i at offset[i], size[i] bytes; total bytes in all.  Valid as
 * long as the program. */
typedef struct ws_param_layout {
    int32_t count;
    const uint32_t *offset, *size;
    uint32_t total;
} ws_param_layout;
ws_param_layout ws_kernel_params(const ws_kernel *k);

/* Bytes of static shared memory a block of k has: the .shared variables
 * it and the functions it calls use, laid out as the simulator lays them
 * out (the one computation of it; occupancy, the runtime and check read
 * this). */
uint32_t ws_kernel_static_smem(const ws_kernel *k);

/* The device address of a module-level variable, or 0. */
uint64_t ws_program_symbol(const ws_program *p, const char *name, uint64_t *size);

/* The instruction limit the command line and the runtime apply unless told
 * otherwise: a kernel that never ends (a spinning loop) faults after this
 * many warp instructions rather than run forever, while course-sized
 * kernels (a naive 512^3 matmul issues about 42 million) stay far below. */
/* No limit by default: long legitimate launches run to their end; a
 * launch that spins is stopped by the progress limit instead. */
#define WS_DEFAULT_MAX_WARP_INSTS 0
/* About 5 seconds of functional simulation of one spinning warp; far more
 * than any course kernel issues between two stores (docs/FAULTS.md). */
#define WS_DEFAULT_PROGRESS_LIMIT (UINT64_C(1) << 24)

/* Instructions in p's code: the size of a ws_pc_counts array for it. */
uint32_t ws_program_code_size(const ws_program *p);

/* Where instruction pc came from: its PTX line, and the .cu file and line
 * of its .loc (cu_file NULL and cu_line 0 without line info). */
typedef struct ws_pc_source {
    int32_t ptx_line;
    const char *cu_file;
    int32_t cu_line;
} ws_pc_source;
void ws_program_pc_source(const ws_program *p, uint32_t pc, ws_pc_source *out);
/* The PTX file p was loaded from, or NULL. */
const char *ws_program_path(const ws_program *p);

typedef struct ws_launch {
    ws_dim3 grid, block;
    uint32_t dynamic_smem;      /* bytes of extern .shared */
    const uint8_t *params;      /* packed as the kernel's .param list lays them out */
    size_t params_size;
    FILE *printf_out;           /* device printf goes here; NULL = stdout */
    uint64_t max_warp_insts;    /* 0 = no limit; past it the launch faults */
    /* Warp instructions in a row with no sign of progress (no store, no
     * atomic that changed memory, no barrier completed, no thread exited)
     * after which the launch is stopped as spinning; 0 = the default
     * WS_DEFAULT_PROGRESS_LIMIT, UINT64_MAX = never. */
    uint64_t progress_limit;
    double timeout_s;           /* wall-clock seconds for the launch; 0 = no limit */
    /* A cooperative launch's workspace in device memory, what %envreg1 and
     * %envreg2 read (its high and low words) and grid-wide synchronization
     * counts its blocks' arrivals in; 0 for any other launch. */
    uint64_t grid_workspace;
    uint32_t checks;            /* WS_CHECK_*: sanitizer-style checks (docs/FAULTS.md) */
    FILE *report_out;           /* where the checks report; NULL = stderr */
    /* Findings earlier launches showed, not shown again (checks.h); NULL:
     * the launch shows all of its own. */
    struct ws_check_shown *checks_shown;
    /* The GPU's SMs and warp slots per SM, for %nsmid, %smid and %nwarpid
     * in a functional launch (a timed one takes its config's); 0 = one SM
     * of 64 warps. */
    uint32_t sm_count, warps_per_sm;
    const ws_texture *textures; /* the texture objects a tex handle h names: textures[h - 1] */
    uint32_t ntextures;         /* (read-only; owned by whoever launches, e.g. the runtime) */
    /* Per-pc counters (ws_program_code_size entries) the launch adds to;
     * NULL = none kept (the default: nothing extra on the hot path). */
    ws_pc_counts *pc_counts;
    /* The issue trace of a functional launch (sim/trace/trace.h): one
     * event per warp step, its cycle the launch's step count; NULL = none.
     * A timed launch takes its trace from ws_timing_options. */
    struct ws_trace *trace;
    /* The progress line (progress_line.h) the launch polls every
     * WS_PROGRESS_POLL_STEPS warp instructions; NULL = none. */
    struct ws_progress_line *progress;
} ws_launch;

enum { WS_CHECK_RACE = 1u << 0, WS_CHECK_SYNC = 1u << 1, WS_CHECK_INIT = 1u << 2 };

/* Runs the kernel to completion.  Returns true on success; on a fault
 * returns false with the fault described in *err (memory written before the
 * fault stays written, as on a GPU). */
bool ws_launch_kernel(ws_program *p, const ws_kernel *k, const ws_launch *l,
                      ws_launch_stats *stats, ws_error *err);

/* ws_launch_kernel for a launch whose threads pass no values to one
 * another, through memory or otherwise (its results do not depend on the
 * order its blocks run in: launch_reuse.h, ws_reuse_find_timing): its
 * blocks apart, each of up to nthreads threads a stretch of them in order
 * (pool's where there is one), every global store put off and made at the
 * end, once every block ran without a fault, where expect is given the
 * statistics equal *expect, and the checks of quiet_checks (WS_CHECK_*,
 * run with their findings counted and shown nowhere) found nothing.  The
 * statistics go to *stats.
 *   WS_APART_DONE     run, stores made
 *   WS_APART_FAULT    a fault (*err) or out of memory: no store made but
 *                     where the memory ran out while making them
 *   WS_APART_OTHER    other statistics than expected: no store made
 *   WS_APART_FOUND    the quiet checks found something: no store made
 *   WS_APART_NOT_RUN  not for this way: checked, traced, cooperative,
 *                     counted per line, printing to a file of its own, a
 *                     store through a generic address (it may be the
 *                     thread's own local memory, read back before the end)
 *                     or out of memory before it began; nothing done */
typedef enum ws_apart_result {
    WS_APART_DONE, WS_APART_FAULT, WS_APART_OTHER, WS_APART_FOUND, WS_APART_NOT_RUN
} ws_apart_result;
struct ws_thread_pool;
ws_apart_result ws_launch_kernel_apart(ws_program *p, const ws_kernel *k, const ws_launch *l,
                                       const ws_launch_stats *expect, uint32_t quiet_checks,
                                       ws_launch_stats *stats, ws_error *err, int32_t nthreads,
                                       struct ws_thread_pool *pool);

/* Parameter layout of a function's .param list: byte offset and size of
 * parameter i, and the total size of the packed parameter buffer.  The
 * rule itself; a loaded kernel carries the result (ws_kernel_params). */
uint32_t ws_param_offset(const ptx_function *f, int i);
uint32_t ws_param_size(const ptx_function *f, int i);
uint32_t ws_params_total_size(const ptx_function *f);

#endif
