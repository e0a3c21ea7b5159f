/* warpsim run: runs one kernel of a PTX file with arguments given on the
 * command line, then dumps or prints buffers and summarizes the launch.
 * Exit status: 0 success, 1 the kernel faulted or could not launch on the
 * GPU, 2 bad usage or an input that is not valid (unreadable, not PTX, or
 * PTX warpsim does not support): nothing ran. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "kernel_lookup.h"
#include "target_gpu.h"
#include "run_args.h"
#include "frontend/ptx/ptx_parse.h"
#include "frontend/ptx/ptx_query.h"
#include "sim/base/clock.h"
#include "sim/base/gpu_config.h"
#include "sim/core/kernel_regs.h"
#include "sim/core/progress_line.h"
#include "sim/core/run.h"
#include "sim/core/sass_groups.h"
#include "sim/core/sim.h"
#include "sim/core/timing.h"
#include "sim/trace/host_times.h"
#include "sim/trace/html_report.h"
#include "sim/trace/lines.h"
#include "sim/trace/summary.h"
#include "sim/trace/trace.h"

#define RUN_EXIT_FAULT 1
#define RUN_EXIT_USAGE 2

typedef struct run_state {
    runarg_options opts;
    ptx_module *module;
    ws_devmem *mem;
    ws_program *prog;
    uint64_t *addrs;        /* device address of each buffer argument, 0 for scalars */
    uint8_t *params;
    ws_lines *lines;        /* --lines, --lines-out, --report: per-pc counters; NULL = off */
    ws_html_report *report; /* --report: NULL = off */
} run_state;

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warpsim run: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return RUN_EXIT_USAGE;
}

/* --sass FILE: the memory counters and timing follow the listing's wide accesses. */
static int apply_sass(ws_program *prog, const char *path)
{
    char msg[512];
    ws_sass_listing l;
    if (!ws_sass_read(path, &l, msg, sizeof msg))
        return usage_error("--sass: %s", msg);
    ws_error err;
    ws_sass_applied a;
    bool ok = ws_program_apply_sass(prog, &l, &a, &err);
    ws_sass_free(&l);
    if (!ok)
        return usage_error("--sass: %s", err.msg);
    if (a.unmatched)
        fprintf(stderr, "warpsim run: warning: --sass: %u wide SASS accesses of %s match no group of PTX "
                "accesses; those lines count as the PTX has them\n", a.unmatched, path);
    return 0;
}

static void list_params(const ptx_function *f, ws_param_layout pl)
{
    for (int i = 0; i < f->nparams; i++) {
        const ptx_var *p = &f->params[i];
        fprintf(stderr, "  %d: %s%s %s", i, p->vec > 1 ? (p->vec == 2 ? ".v2" : ".v4") : "",
                ptx_type_name(p->type), p->name);
        if (p->count > 1)
            fprintf(stderr, "[%" PRIu64 "]", p->count);
        fprintf(stderr, "  (%u bytes)\n", pl.size[i]);
    }
}

/* Registers per thread for the occupancy rule, by the register policy
 * (kernel_regs.h): --regs, else ptxas -v, else an estimate the summary
 * flags. */
static void kernel_regs(const run_state *s, const ws_kernel *k, const ws_gpu_config *g,
                        ws_timing_options *topt)
{
    ws_regs_request rq = {.given = s->opts.regs, .ptx_path = s->opts.ptx_path, .ptx_text = NULL,
                          .ptx_len = 0, .gpu_major = g->major, .gpu_minor = g->minor, .disk = true};
    ws_kernel_regs r;
    ws_kernel_regs_resolve(s->prog, k, &rq, &r);
    topt->regs_per_thread = r.regs;
    topt->regs_estimated = r.source == WS_REGS_ESTIMATED;
}

/* Matches the --arg list against the kernel's parameters and packs the
 * parameter buffer; allocates and fills the buffers. */
static int prepare_args(run_state *s, const ptx_function *f, ws_param_layout pl)
{
    const runarg_options *o = &s->opts;
    if (o->nargs != f->nparams) {
        char shown[1024];
        cli_kernel_display_name(f, shown, sizeof shown);
        usage_error("kernel %s takes %d parameter%s but %d --arg %s given", shown, f->nparams,
                    f->nparams == 1 ? "" : "s", o->nargs, o->nargs == 1 ? "was" : "were");
        if (f->nparams)
            list_params(f, pl);
        return RUN_EXIT_USAGE;
    }
    for (int i = 0; i < o->nargs; i++) {
        const runarg *a = &o->args[i];
        const ptx_var *p = &f->params[i];
        uint32_t want = pl.size[i], have = runarg_param_bytes(a);
        if (want != have) {
            usage_error("argument %d '%s' is %u bytes (%s) but parameter %d '%s' (%s) is %u bytes",
                        i, a->spec, have, a->is_buffer ? "a device pointer" : "a scalar",
                        i, p->name, ptx_type_name(p->type), want);
            list_params(f, pl);
            return RUN_EXIT_USAGE;
        }
        char fits[128];
        bool scalar_param = p->vec <= 1 && p->count <= 1;   /* not a struct's .b8 array */
        if (scalar_param && !runarg_fits_ptx_type(a, p->type, fits, sizeof fits)) {
            usage_error("argument %d '%s' is %s but parameter %d '%s' is %s: give %s",
                        i, a->spec, a->is_buffer ? "a device pointer" : runarg_type_name(a->type),
                        i, p->name, ptx_type_name(p->type), fits);
            list_params(f, pl);
            return RUN_EXIT_USAGE;
        }
    }
    /* the buffers must fit the GPU's memory (the one the launch runs on,
     * or under --functional the one the PTX is built for); a config that
     * does not load is reported with the launch */
    const char *gpu_name = o->gpu ? o->gpu : cli_gpu_for_target(s->module->target);
    ws_gpu_config gpu;
    char msg[512];
    if (!ws_gpu_config_load(gpu_name ? gpu_name : "a100", &gpu, msg, sizeof msg) &&
        !runarg_check_buffer_sizes(o->args, o->nargs, gpu.totalGlobalMem, gpu.name, msg, sizeof msg))
        return usage_error("%s", msg);
    s->params = calloc(pl.total ? pl.total : 1, 1);
    s->addrs = calloc(o->nargs ? (size_t)o->nargs : 1, sizeof *s->addrs);
    if (!s->params || !s->addrs)
        return usage_error("out of memory");
    for (int i = 0; i < o->nargs; i++) {
        const runarg *a = &o->args[i];
        uint8_t *dst = s->params + pl.offset[i];
        if (!a->is_buffer) {
            runarg_store(a->type, a->bits, dst);
            continue;
        }
        uint64_t bytes = runarg_buffer_bytes(a);
        uint64_t addr = ws_devmem_alloc(s->mem, bytes);
        if (!addr)
            return usage_error("argument %d '%s': cannot allocate %" PRIu64 " bytes of device memory",
                               i, a->spec, bytes);
        if (!runarg_init_buffer(a, s->mem, addr, msg, sizeof msg))
            return usage_error("argument %d: %s", i, msg);
        s->addrs[i] = addr;
        runarg_store(RUNARG_U64, addr, dst);
    }
    return 0;
}

static int dump_buffer(const run_state *s, const runarg_dump *d)
{
    const runarg *a = &s->opts.args[d->arg];
    FILE *f = fopen(d->path, "wb");
    if (!f)
        return usage_error("--dump %d: cannot write '%s': %s", d->arg, d->path, strerror(errno));
    uint8_t buf[64 * 1024];
    uint64_t total = runarg_buffer_bytes(a);
    bool ok = true;
    for (uint64_t done = 0; ok && done < total;) {
        size_t n = total - done < sizeof buf ? (size_t)(total - done) : sizeof buf;
        ok = ws_devmem_read(s->mem, s->addrs[d->arg] + done, buf, n) && fwrite(buf, 1, n, f) == n;
        done += n;
    }
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        return usage_error("--dump %d: cannot write '%s'", d->arg, d->path);
    return 0;
}

static void print_buffer(const run_state *s, const runarg_print *p)
{
    const runarg *a = &s->opts.args[p->arg];
    uint64_t n = p->count < a->count ? p->count : a->count;
    uint32_t es = runarg_type_size(a->type);
    printf("arg %d %s: first %" PRIu64 " of %" PRIu64 " elements\n", p->arg, a->spec, n, a->count);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t elem[8];
        char text[64];
        if (!ws_devmem_read(s->mem, s->addrs[p->arg] + i * es, elem, es))
            memset(elem, 0, sizeof elem);
        runarg_format(a->type, elem, text, sizeof text);
        if (i % 8 == 0)
            printf("  [%" PRIu64 "]", i);
        printf(" %s", text);
        if (i % 8 == 7 || i + 1 == n)
            putchar('\n');
    }
}

/* --host-times FILE: the launch's line (host_times.h). */
static int write_host_time(const runarg_options *o, const ws_host_time *t)
{
    FILE *f = fopen(o->host_times, "w");
    if (!f) return usage_error("cannot write '%s': %s", o->host_times, strerror(errno));
    ws_host_time_write(f, t);
    if (fclose(f) != 0) return usage_error("writing '%s' failed", o->host_times);
    return 0;
}

/* The per-source-line report: text on stderr (--lines), JSON lines into
 * --lines-out FILE. */
static int write_lines(const run_state *s)
{
    const runarg_options *o = &s->opts;
    if (o->lines_out) {
        FILE *f = strcmp(o->lines_out, "-") ? fopen(o->lines_out, "w") : stdout;
        if (!f)
            return usage_error("cannot write '%s': %s", o->lines_out, strerror(errno));
        ws_lines_json(f, s->lines, !o->functional);
        if (f != stdout ? fclose(f) != 0 : fflush(f) != 0)
            return usage_error("writing '%s' failed", o->lines_out);
    }
    if (o->lines)
        ws_lines_text(stderr, s->lines, !o->functional);
    if (o->report) {
        FILE *f = fopen(o->report, "w");
        if (!f)
            return usage_error("cannot write '%s': %s", o->report, strerror(errno));
        bool written = ws_html_report_write(f, s->report, s->lines) == 0;
        if (fclose(f) != 0 || !written)
            return usage_error("writing '%s' failed", o->report);
    }
    return 0;
}

static int run(run_state *s)
{
    const runarg_options *o = &s->opts;
    FILE *probe = fopen(o->ptx_path, "r");
    if (!probe)
        return usage_error("cannot read '%s': %s", o->ptx_path, strerror(errno));
    struct stat sb;
    bool is_dir = fstat(fileno(probe), &sb) == 0 && S_ISDIR(sb.st_mode);
    fclose(probe);
    if (is_dir)
        return usage_error("cannot read '%s': it is a directory", o->ptx_path);

    ptx_error perr;
    s->module = ptx_parse_file(o->ptx_path, &perr);
    if (!s->module) {
        ptx_error_print(&perr, stderr);
        return RUN_EXIT_USAGE;
    }
    s->mem = ws_devmem_create();
    if (!s->mem)
        return usage_error("out of memory");
    if (o->checks & WS_CHECK_INIT)
        ws_devmem_track_init(s->mem);
    ws_error err;
    s->prog = ws_program_load(s->module, s->mem, &err);
    if (!s->prog) {
        fprintf(stderr, "%s\n", err.msg);
        return RUN_EXIT_USAGE;
    }
    if (o->sass) {
        int sass_rc = apply_sass(s->prog, o->sass);
        if (sass_rc)
            return sass_rc;
    }
    const ptx_function *f = cli_find_kernel("run", s->module, o->kernel);
    const ws_kernel *k = f ? ws_program_kernel(s->prog, f->name) : NULL;
    if (!k)
        return RUN_EXIT_USAGE;
    ws_param_layout pl = ws_kernel_params(k);
    int rc = prepare_args(s, f, pl);
    if (rc)
        return rc;

    char shown[1024];
    cli_kernel_display_name(f, shown, sizeof shown);
    if (o->lines || o->lines_out || o->report) {
        s->lines = ws_lines_create();
        s->report = o->report ? ws_html_report_create() : NULL;
        if (!s->lines || (o->report && !s->report))
            return usage_error("out of memory");
    }
    ws_launch l = {
        .grid = o->grid, .block = o->block, .dynamic_smem = o->smem,
        .params = s->params, .params_size = pl.total,
        .printf_out = stdout, .max_warp_insts = o->max_warp_insts,
        .progress_limit = o->progress_limit, .timeout_s = o->timeout_s, .checks = o->checks,
        .pc_counts = s->lines ? ws_lines_counters(s->lines, s->prog, shown) : NULL,
    };
    if (s->lines && !l.pc_counts)
        return usage_error("out of memory");
    ws_launch_stats st;
    ws_timing_stats ts;
    ws_gpu_config gpu;
    /* by default the GPU the PTX was built for (a100 for sm_80, h100 for sm_90) */
    const char *gpu_name = o->gpu ? o->gpu : cli_gpu_for_target(s->module->target);
    if (!gpu_name)
        gpu_name = "a100";
    if (!o->functional) {
        char cerr[1024];
        if (ws_gpu_config_load(gpu_name, &gpu, cerr, sizeof cerr))
            return usage_error("--gpu: %s", cerr);
        /* as the CUDA driver refuses a launch whose PTX targets a newer GPU */
        char why[256];
        if (!ptx_target_fits(s->module, gpu.major, gpu.minor, why, sizeof why)) {
            fprintf(stderr, "warpsim run: error: no kernel image is available for execution on the device "
                    "(cudaErrorNoKernelImageForDevice): %s (--gpu %s); choose a --gpu that has it\n",
                    why, gpu_name);
            return RUN_EXIT_FAULT;
        }
    }
    /* --functional runs no GPU: only the limits every GPU has apply */
    ws_run_options ro = {.gpu = o->functional ? NULL : &gpu, .functional = o->functional,
                         .max_dynamic_smem = WS_SMEM_LIMIT_OPTIN, .timing = ws_timing_defaults()};
    if (!o->functional)
        kernel_regs(s, k, &gpu, &ro.timing);
    ro.timing.optin = true;     /* --smem is the size asked for, as after cudaFuncSetAttribute */
    ro.timing.max_cycles = o->max_cycles;
    ro.timing.threads = o->threads;
    ro.timing.window_cycles = o->window;
    if (s->report && !o->functional)
        ro.timing.timeline = ws_html_report_timeline(s->report, &gpu);
    FILE *trace_out = NULL;
    if (o->trace) {
        trace_out = strcmp(o->trace, "-") ? fopen(o->trace, "w") : stdout;
        if (!trace_out)
            return usage_error("cannot write the trace to '%s': %s", o->trace, strerror(errno));
        ro.timing.trace = ws_trace_open(trace_out, (ws_trace_format)o->trace_format, &o->trace_filter);
        if (!ro.timing.trace) {
            if (trace_out != stdout) fclose(trace_out);
            return usage_error("out of memory");
        }
        if (!o->functional) ws_trace_set_clock(ro.timing.trace, gpu.clockRate);
        ws_trace_begin_launch(ro.timing.trace, shown, 0);
        if (o->functional) l.trace = ro.timing.trace;
    }
    fflush(stdout);
    /* a long launch's progress, on a terminal only (docs/REUSE.md) */
    ws_progress_line *progress = isatty(fileno(stderr))
        ? ws_progress_line_create(stderr, WS_PROGRESS_SHOW_AFTER_NS, NULL, NULL) : NULL;
    if (progress) ws_progress_line_begin(progress, shown, !o->functional);
    l.progress = progress;
    uint64_t started_ns = ws_clock_ns();
    bool ok = ws_run(s->prog, k, &l, &ro, &st, &ts, &err);
    uint64_t host_ns = ws_clock_ns() - started_ns;
    if (progress) ws_progress_line_end(progress);
    ws_progress_line_free(progress);
    if (ro.timing.trace) {
        /* closed even after a fault: the events up to it are what explains it */
        ws_trace_end_launch(ro.timing.trace, o->functional ? st.warp_insts : ts.cycles);
        ws_trace_close(ro.timing.trace);
        if (trace_out != stdout && fclose(trace_out) != 0 && ok) {
            fprintf(stderr, "warpsim run: error: writing the trace to '%s' failed\n", o->trace);
            return RUN_EXIT_USAGE;
        }
    }
    if (!ok) {
        fflush(stdout);
        fprintf(stderr, "%s%s\n", ws_error_launch_refused(err.kind) ? "warpsim run: error: " : "", err.msg);
        return RUN_EXIT_FAULT;
    }
    for (int i = 0; i < o->ndumps; i++)
        if ((rc = dump_buffer(s, &o->dumps[i])) != 0)
            return rc;
    for (int i = 0; i < o->nprints; i++)
        print_buffer(s, &o->prints[i]);
    ws_summary_info info = {.kernel = shown, .grid = o->grid, .block = o->block, .dynamic_smem = o->smem,
                            .gpu = o->functional ? NULL : gpu_name, .timing = o->functional ? NULL : &ts,
                            .sass = ws_program_sass_source(s->prog), .launch_no = 0, .reused_from = 0};
    ws_summary_write(stderr, (ws_summary_mode)o->summary, o->json, &info, &st);
    if (o->host_times && (rc = write_host_time(o, &(ws_host_time){
                              .kernel = shown, .launch_no = 1, .threads = o->threads, .functional = o->functional,
                              .host_ns = host_ns, .warp_insts = st.warp_insts, .cycles = ts.cycles,
                              .windows = &ts.host, .program = s->prog})) != 0)
        return rc;
    if (s->report &&
        !ws_html_report_add(s->report, &(ws_html_launch){.info = &info, .stats = &st,
                                                         .gpu = o->functional ? NULL : &gpu, .kernel = k,
                                                         .carveout = ro.timing.carveout, .optin = ro.timing.optin}))
        return usage_error("out of memory");
    return s->lines ? write_lines(s) : 0;
}

int cli_run(int argc, char **argv)
{
    run_state s;
    memset(&s, 0, sizeof s);
    char err[1024];
    switch (runarg_parse_cmdline(argc, argv, &s.opts, err, sizeof err)) {
    case RUNARG_HELP:
        runarg_print_help(stdout);
        return 0;
    case RUNARG_ERROR:
        return usage_error("%s", err);
    case RUNARG_OK:
        break;
    }
    int rc = run(&s);
    free(s.params);
    free(s.addrs);
    ws_lines_free(s.lines);
    ws_html_report_free(s.report);
    if (s.prog)
        ws_program_free(s.prog);
    if (s.mem)
        ws_devmem_destroy(s.mem);
    if (s.module)
        ptx_module_free(s.module);
    runarg_options_free(&s.opts);
    return rc;
}
