/* The arguments of `warpsim run`: dimensions, kernel argument specs and
 * buffer contents; and the options `warpsim exec` shares with it (one
 * table, checked the same way).  Pure functions (plus buffer
 * initialization into device memory), so that tests can check them
 * without running a kernel.
 *
 * Every function that can fail writes a message without any prefix into
 * err (size errsize) and returns false. */
#ifndef WARPSIM_RUN_ARGS_H
#define WARPSIM_RUN_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "frontend/ptx/ptx_ir.h"
#include "sim/core/sim.h"
#include "sim/trace/summary.h"
#include "sim/trace/trace.h"

typedef enum runarg_type {
    RUNARG_I8, RUNARG_U8, RUNARG_I32, RUNARG_U32,
    RUNARG_I64, RUNARG_U64, RUNARG_F32, RUNARG_F64, RUNARG_TYPE_COUNT
} runarg_type;

typedef enum runarg_init {
    RUNARG_INIT_ZERO, RUNARG_INIT_NONE, RUNARG_INIT_IOTA, RUNARG_INIT_FILL, RUNARG_INIT_RAND, RUNARG_INIT_FILE
} runarg_init;

/* Range of rand=SEED values: integers uniform in [-100, 100] (signed types)
 * or [0, 100] (unsigned); floats uniform in [-1, 1).  Element i is made from
 * the i-th output of splitmix64 seeded with SEED, so it does not depend on
 * how the buffer is generated in pieces. */
#define RUNARG_RAND_INT_MAX 100

typedef struct runarg {
    const char *spec;       /* as written */
    bool is_buffer;
    runarg_type type;       /* scalar type, or the buffer's element type */
    uint64_t bits;          /* scalar value / fill=V value, as the type's bits */
    uint64_t count;         /* buffer elements */
    runarg_init init;
    uint64_t seed;          /* rand=SEED */
    const char *path;       /* file=PATH (points into spec) */
} runarg;

typedef struct runarg_dump { int arg; const char *path; } runarg_dump;
typedef struct runarg_print { int arg; uint64_t count; } runarg_print;

#define RUNARG_PRINT_DEFAULT 16

/* Every option of `run` and `exec`, for runarg_options.given. */
typedef enum runarg_opt {
    RUNOPT_KERNEL, RUNOPT_GRID, RUNOPT_BLOCK, RUNOPT_SMEM, RUNOPT_ARG, RUNOPT_DUMP, RUNOPT_PRINT,
    RUNOPT_REGS, RUNOPT_GPU, RUNOPT_JSON, RUNOPT_SUMMARY, RUNOPT_NO_SUMMARY, RUNOPT_SUMMARY_OUT,
    RUNOPT_LINES, RUNOPT_LINES_OUT, RUNOPT_FUNCTIONAL, RUNOPT_RACECHECK, RUNOPT_SYNCCHECK, RUNOPT_INITCHECK,
    RUNOPT_LEAK_CHECK, RUNOPT_MAX_WARP_INSTS, RUNOPT_PROGRESS_LIMIT, RUNOPT_TIMEOUT, RUNOPT_MAX_CYCLES,
    RUNOPT_TRACE, RUNOPT_TRACE_FORMAT, RUNOPT_TRACE_KERNEL, RUNOPT_TRACE_LAUNCH, RUNOPT_TRACE_BLOCK,
    RUNOPT_TRACE_WARP, RUNOPT_TRACE_PC, RUNOPT_TRACE_CYCLES, RUNOPT_TRACE_LIMIT, RUNOPT_KEEP_PTX, RUNOPT_REPORT, RUNOPT_SASS,
    RUNOPT_SIMULATE_ALL, RUNOPT_THREADS, RUNOPT_WINDOW, RUNOPT_HOST_TIMES,
    RUNOPT_COUNT
} runarg_opt;

typedef struct runarg_options {
    const char *ptx_path, *kernel;
    ws_dim3 grid, block;
    uint32_t smem;
    uint64_t max_warp_insts;            /* 0 = no limit */
    uint64_t progress_limit;            /* --progress-limit; 0 = the default */
    double timeout_s;                   /* --timeout; 0 = none */
    uint64_t max_cycles;                /* --max-cycles; 0 = none */
    int32_t threads;                    /* --threads N; 0 = the machine's cores */
    uint32_t window;                    /* --window N; 0 = warpsim's choice, 1 = cycle by cycle */
    uint32_t checks;                    /* WS_CHECK_*: --racecheck, --synccheck, --initcheck */
    bool json;                          /* --json: the summary as one JSON line */
    int summary;                        /* --summary full|short|none: ws_summary_mode */
    bool lines;                         /* --lines: the per-source-line report (stderr) */
    const char *lines_out;              /* --lines-out FILE: the same as JSON lines, NULL = none */
    const char *host_times;             /* --host-times FILE: each launch's host time (host_times.h), NULL = none */
    const char *report;                 /* --report FILE.html: the HTML report, NULL = none */
    const char *gpu;                    /* --gpu NAME or config path; default a100 */
    bool functional;                    /* --functional: no timing model */
    const char *sass;                   /* --sass FILE: SASS-informed counters, NULL = PTX-exact */
    int32_t regs;                       /* --regs N for occupancy; 0 = ptxas -v or estimate */
    const char *trace;                  /* --trace FILE ("-" = stdout), NULL = none */
    int trace_format;                   /* ws_trace_format */
    ws_trace_filter trace_filter;       /* --trace-block/-warp/-pc/-cycles/-limit (exec: -kernel/-launch) */
    /* exec's own */
    const char *summary_out;            /* --summary-out FILE */
    bool leak_check;                    /* --leak-check */
    const char *keep_ptx;               /* --keep-ptx DIR: each module's PTX is written there */
    /* Each option as given (its value, or "1" for a flag; the last of a
     * repeated one), NULL when absent: what exec hands to its runtime. */
    const char *given[RUNOPT_COUNT];
    runarg *args; int nargs;
    runarg_dump *dumps; int ndumps;
    runarg_print *prints; int nprints;
} runarg_options;

typedef enum runarg_status { RUNARG_OK, RUNARG_HELP, RUNARG_ERROR } runarg_status;

/* Parses `run`'s argv (argv[0] = "run").  On RUNARG_OK the caller frees
 * opts with runarg_options_free; on RUNARG_HELP and RUNARG_ERROR nothing
 * needs freeing.  Checks everything that does not need the PTX: dims and
 * their limits, arg specs, that --dump/--print name buffer arguments. */
runarg_status runarg_parse_cmdline(int argc, char **argv, runarg_options *opts,
                                   char *err, size_t errsize);
/* Parses `exec`'s argv (argv[0] = "exec"): its options, then the program
 * and its arguments from *program on (after "--", or the first word that
 * is not an option).  Checks the options as runarg_parse_cmdline does;
 * the same results and freeing. */
runarg_status runarg_parse_exec(int argc, char **argv, runarg_options *opts, int *program,
                                char *err, size_t errsize);
void runarg_options_free(runarg_options *opts);
void runarg_print_help(FILE *out);

bool runarg_parse_type(const char *s, size_t len, runarg_type *t);
const char *runarg_type_name(runarg_type t);
uint32_t runarg_type_size(runarg_type t);
bool runarg_type_is_float(runarg_type t);
bool runarg_type_is_signed(runarg_type t);

/* A value of type t: decimal or 0x hex integers (negative only for signed
 * types; hex gives the bit pattern); floats as decimal, hex float, inf, nan,
 * or PTX bit patterns 0fXXXXXXXX (f32) / 0dXXXXXXXXXXXXXXXX (f64). */
bool runarg_parse_value(runarg_type t, const char *s, uint64_t *bits, char *err, size_t errsize);

/* "X[,Y[,Z]]", each a positive decimal; missing components are 1. */
bool runarg_parse_dim3(const char *s, ws_dim3 *d, char *err, size_t errsize);
bool runarg_check_block(ws_dim3 d, char *err, size_t errsize);
bool runarg_check_grid(ws_dim3 d, char *err, size_t errsize);

/* One --arg SPEC; spec must outlive a. */
bool runarg_parse_spec(const char *spec, runarg *a, char *err, size_t errsize);

/* Bytes a kernel parameter receives for a: the scalar's size, or 8 for a
 * device pointer. */
uint32_t runarg_param_bytes(const runarg *a);

/* Whether a may fill a kernel parameter whose PTX type is pt (a scalar
 * parameter; the caller has checked that the sizes agree): a float only a
 * .f or .b parameter, an integer only a .s, .u or .b one (i32 and u32 alike
 * for .s32, .u32 and .b32), a device pointer only a 64-bit .u, .s or .b
 * one.  When it may not, fits receives the --arg forms that would, e.g.
 * "i32:V or u32:V". */
bool runarg_fits_ptx_type(const runarg *a, ptx_type pt, char *fits, size_t size);
uint64_t runarg_buffer_bytes(const runarg *a);

/* The most bytes warpsim writes into one buffer for its INIT (iota, fill,
 * rand, file): each takes host memory.  zero and none buffers write
 * nothing, so they are bounded by the GPU's device memory alone. */
#define RUNARG_MAX_WRITTEN_BYTES (UINT64_C(4) << 30)

/* Whether the buffers of o fit: their sizes together within device_bytes
 * (the GPU's totalGlobalMem, named gpu in the message), and each written
 * one within RUNARG_MAX_WRITTEN_BYTES.  Checked before anything is
 * allocated. */
bool runarg_check_buffer_sizes(const runarg *args, int nargs, uint64_t device_bytes, const char *gpu,
                               char *err, size_t errsize);

/* Elements [first, first+n) of a zero/iota/fill/rand buffer, little-endian. */
void runarg_generate(const runarg *a, uint64_t first, uint64_t n, uint8_t *out);

/* Writes a buffer's initial contents at addr (which must hold
 * runarg_buffer_bytes(a) zeroed bytes); for file=PATH checks that the file
 * holds exactly COUNT elements. */
bool runarg_init_buffer(const runarg *a, ws_devmem *mem, uint64_t addr, char *err, size_t errsize);

/* Formats one little-endian element for people: integers in decimal,
 * floats in the shortest form that reads back to the same value. */
void runarg_format(runarg_type t, const uint8_t *elem, char *buf, size_t size);

/* Stores the low runarg_type_size(t) bytes of bits little-endian. */
void runarg_store(runarg_type t, uint64_t bits, uint8_t *out);
uint64_t runarg_load(runarg_type t, const uint8_t *in);

#endif
