/* Loading a PTX module and launching its kernels: the interface the
 * command line and the runtime library use. */
#ifndef WARPSIM_SIM_H
#define WARPSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../mem/device_memory.h"
#include "texture.h"

/* The front end's module and function (frontend/ptx/ptx_ir.h): loading
 * reads them, nothing after loading does. */
typedef struct ptx_module ptx_module;
typedef struct ptx_function ptx_function;

typedef struct ws_dim3 { uint32_t x, y, z; } ws_dim3;

/* What went wrong, formatted for the user: a load error names the PTX
 * file:line:col; a kernel fault names kernel, block, thread, PC and source
 * line, in the manner of compute-sanitizer. */
typedef enum ws_error_kind {
#define X(kind, cuda_code, cuda_name) kind,
#include "error_kinds.def"
#undef X
} ws_error_kind;

typedef struct ws_error {
    char msg[1024];
    ws_error_kind kind;     /* what the runtime reports (error_kinds.def maps it) */
} ws_error;

/* The CUDA runtime error a kind is reported as (error_kinds.def): its
 * cudaError value and its name ("cudaErrorInvalidConfiguration"). */
int ws_error_cuda_code(ws_error_kind kind);
const char *ws_error_cuda_name(ws_error_kind kind);
/* The launch was refused by its limits (launch_check.h): nothing ran. */
bool ws_error_launch_refused(ws_error_kind kind);

/* Sets e's message (printf-style) and kind. */
void ws_error_set(ws_error *e, ws_error_kind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

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

/* The stall reasons a timed launch tells apart (ws_stall, timing.h). */
#define WS_PC_STALL_KINDS 11

/* Counters of one instruction (pc) of a program, added to by every launch
 * that is given them (ws_launch.pc_counts): what sim/trace/lines.h sums
 * per source line.  Same meanings as ws_launch_stats's. */
typedef struct ws_pc_counts {
    uint64_t warp_insts, thread_insts;
    uint64_t branches, divergent_branches;
    uint64_t shared_requests[3], shared_wavefronts[3], shared_bank_conflicts[3];   /* ld, st, atom */
    uint64_t global_requests[3], global_sectors[3];                                  /* ld, st, atom */
    /* Sectors the global requests would take were each request's lanes
     * to touch consecutive, 32 B aligned bytes: ceil(lanes * size / 32). */
    uint64_t global_ideal_sectors[3];
    /* Address step from one lane to the next in the first global access
     * with two lanes or more (between its two lowest lanes; stride_known):
     * explains a poor sectors per request. */
    int64_t lane_stride;
    uint32_t stride_known, access_size;
    uint64_t stall[WS_PC_STALL_KINDS];  /* warp-cycles a warp stood at this pc, per ws_stall */
    /* Timed only: sectors of this pc's global and local accesses looked up
     * in L1 (loads) and at L2 (L1 misses, stores, atomics), and how many
     * hit; as ws_timing_stats's l1_ and l2_ counters, per pc. */
    uint64_t l1_sectors, l1_hit_sectors, l2_sectors, l2_hit_sectors;
} ws_pc_counts;

enum { WS_ACC_LD, WS_ACC_ST, WS_ACC_ATOM };

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
    uint32_t checks;            /* WS_CHECK_*: sanitizer-style checks (docs/FAULTS.md) */
    FILE *report_out;           /* where the checks report; NULL = stderr */
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

/* Memory counters of one kind of access (loads, stores or atomics). */
typedef struct ws_shared_counts {
    uint64_t requests;          /* warp-level instructions that accessed shared memory */
    uint64_t wavefronts, bank_conflicts;
} ws_shared_counts;

typedef struct ws_global_counts {
    uint64_t requests, sectors, lines;  /* lines: 128 B, the course's "transactions" */
} ws_global_counts;

typedef struct ws_launch_stats {
    uint64_t warp_insts;        /* warp-level instructions issued (smsp__inst_executed.sum) */
    uint64_t thread_insts;      /* sum of active lanes over those (smsp__thread_inst_executed.sum) */
    uint64_t branches, divergent_branches;
    uint64_t blocks, warps;
    /* Shared memory (ld/st/atom/red .shared and generic addresses that fall
     * in shared memory), by the bank rule of sim/mem/shared_banks.h:
     * l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st,atom}.sum and
     * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,atom}.sum.
     * atom counts atom and red. */
    ws_shared_counts shared_ld, shared_st, shared_atom;
    /* Global memory (.global and generic addresses that fall there), by the
     * rule of sim/mem/coalescer.h: l1tex__t_requests_pipe_lsu_mem_global_op_*
     * and l1tex__t_sectors_pipe_lsu_mem_global_op_*, plus 128 B lines. */
    ws_global_counts global_ld, global_st, global_atom;
    /* ld.const: requests, and distinct addresses summed over them (the
     * constant cache serves one address at a time, broadcast to the lanes
     * that read it). */
    uint64_t const_requests, const_addresses;
    /* Warp-synchronous operations that executed without every lane of
     * their membermask (undefined in the PTX ISA; docs/SEMANTICS.md). */
    uint64_t warpsync_partial;
} ws_launch_stats;

/* Runs the kernel to completion.  Returns true on success; on a fault
 * returns false with the fault described in *err (memory written before the
 * fault stays written, as on a GPU). */
bool ws_launch_kernel(ws_program *p, const ws_kernel *k, const ws_launch *l,
                      ws_launch_stats *stats, ws_error *err);

/* Parameter layout of a function's .param list: byte offset and size of
 * parameter i, and the total size of the packed parameter buffer.  The
 * rule itself; a loaded kernel carries the result (ws_kernel_params). */
uint32_t ws_param_offset(const ptx_function *f, int i);
uint32_t ws_param_size(const ptx_function *f, int i);
uint32_t ws_params_total_size(const ptx_function *f);

#endif
