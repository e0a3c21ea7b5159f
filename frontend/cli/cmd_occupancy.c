/* warpsim occupancy: blocks per SM, occupancy and the limiting resource,
 * from numbers or from a kernel in a PTX file. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "kernel_lookup.h"
#include "target_gpu.h"
#include "frontend/ptx/ptx_parse.h"
#include "sim/base/gpu_config.h"
#include "sim/core/kernel_regs.h"
#include "sim/core/sim.h"
#include "sim/sched/occupancy.h"
#include "sim/sched/occupancy_report.h"
#include "sim/trace/svg_plot.h"

static const char usage_text[] =
    "usage: warpsim occupancy --gpu NAME --threads T --regs R [options]\n"
    "       warpsim occupancy FILE.ptx --kernel NAME --threads T [--gpu NAME] [options]\n"
    "\n"
    "  --gpu NAME            a config in configs/ (a100, h100, ...) or the path of a .ini\n"
    "  --threads T           threads per block\n"
    "  --regs R              registers per thread (from a PTX file: ptxas -v, else an estimate)\n"
    "  --smem BYTES          static shared memory per block (from the PTX when given)\n"
    "  --dynamic-smem BYTES  dynamic shared memory per block (a K suffix means x1024)\n"
    "  --optin               the kernel raised its dynamic shared limit to the opt-in maximum\n"
    "  --carveout PERCENT    preferred shared-memory carve-out, 0..100 (default: none)\n"
    "  --rule hardware|textbook  the rule to report first (default hardware)\n"
    "  --sweep threads|regs|smem  occupancy against one variable\n"
    "  --plot FILE.svg       draw the sweep as an SVG chart\n"
    "  --json                one JSON object (with --sweep, an array)\n";

typedef struct options {
    const char *ptx, *kernel, *gpu, *plot;
    int64_t threads, regs;
    uint64_t smem, dynamic_smem;
    bool have_threads, have_regs, have_smem, optin, json;
    bool regs_estimated;        /* regs is the register policy's estimate from the PTX */
    int32_t carveout;
    ws_occ_rule rule;
    bool sweep;
    ws_occ_sweep_var sweep_var;
} options;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "warpsim occupancy: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage_text);
    return 2;
}

/* A whole number in [0, max]; "K"/"KB" multiplies by 1024 when allow_k. */
static bool parse_number(const char *s, bool allow_k, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    if (allow_k && (!strcmp(end, "K") || !strcmp(end, "KB") || !strcmp(end, "k"))) {
        v *= 1024;
        end += strlen(end);
    }
    if (*end || v > max)
        return false;
    *out = v;
    return true;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->carveout = WS_OCC_CARVEOUT_DEFAULT;
    o->rule = WS_OCC_HARDWARE;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (o->ptx)
                return usage_error("more than one file given ('%s')", a);
            o->ptx = a;
            continue;
        }
        if (!strcmp(a, "--optin")) { o->optin = true; continue; }
        if (!strcmp(a, "--json")) { o->json = true; continue; }
        /* Options with a value: "--name value" or "--name=value". */
        char name[32];
        const char *val;
        char *eq = strchr(a, '=');
        if (eq) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", a);
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            val = argv[++i];
        }
        uint64_t v;
        if (!strcmp(name, "--gpu")) {
            o->gpu = val;
        } else if (!strcmp(name, "--kernel")) {
            o->kernel = val;
        } else if (!strcmp(name, "--plot")) {
            o->plot = val;
        } else if (!strcmp(name, "--threads")) {
            if (!parse_number(val, false, 1u << 30, &v) || v == 0)
                return usage_error("--threads needs a positive whole number, not '%s'", val);
            o->threads = (int64_t)v;
            o->have_threads = true;
        } else if (!strcmp(name, "--regs")) {
            if (!parse_number(val, false, 1u << 20, &v))
                return usage_error("--regs needs a whole number, not '%s'", val);
            o->regs = (int64_t)v;
            o->have_regs = true;
        } else if (!strcmp(name, "--smem")) {
            if (!parse_number(val, true, UINT64_C(1) << 40, &o->smem))
                return usage_error("--smem needs a number of bytes, not '%s'", val);
            o->have_smem = true;
        } else if (!strcmp(name, "--dynamic-smem")) {
            if (!parse_number(val, true, UINT64_C(1) << 40, &o->dynamic_smem))
                return usage_error("--dynamic-smem needs a number of bytes, not '%s'", val);
        } else if (!strcmp(name, "--carveout")) {
            if (!parse_number(val, false, 100, &v))
                return usage_error("--carveout needs a percentage 0..100, not '%s'", val);
            o->carveout = (int32_t)v;
        } else if (!strcmp(name, "--rule")) {
            if (!strcmp(val, "hardware"))
                o->rule = WS_OCC_HARDWARE;
            else if (!strcmp(val, "textbook"))
                o->rule = WS_OCC_TEXTBOOK;
            else
                return usage_error("--rule is hardware or textbook, not '%s'", val);
        } else if (!strcmp(name, "--sweep")) {
            o->sweep = true;
            if (!strcmp(val, "threads"))
                o->sweep_var = WS_SWEEP_THREADS;
            else if (!strcmp(val, "regs"))
                o->sweep_var = WS_SWEEP_REGS;
            else if (!strcmp(val, "smem"))
                o->sweep_var = WS_SWEEP_SMEM;
            else
                return usage_error("--sweep is threads, regs or smem, not '%s'", val);
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (o->plot && !o->sweep)
        return usage_error("%s needs --sweep threads|regs|smem", "--plot");
    if (!o->have_threads && !(o->sweep && o->sweep_var == WS_SWEEP_THREADS))
        return usage_error("%s is required", "--threads T");
    if (!o->threads)
        o->threads = 256;  /* only the sweep over threads gets here: no point to mark */
    if (o->kernel && !o->ptx)
        return usage_error("%s needs a PTX file", "--kernel");
    if (o->ptx && !o->kernel)
        return usage_error("a PTX file needs --kernel NAME (%s)", o->ptx);
    return 0;
}

/* Registers per thread by the register policy (kernel_regs.h): ptxas -v
 * when installed, else an estimate from the PTX, said to be one. */
static int kernel_regs(options *o, const ws_program *prog, const ws_kernel *k, const char *gpu,
                       uint64_t smem)
{
    ws_gpu_config g;
    char err[2048];
    if (ws_gpu_config_load(gpu, &g, err, sizeof err)) {
        fprintf(stderr, "warpsim occupancy: %s\n", err);
        return 2;
    }
    ws_regs_request rq = {.given = 0, .ptx_path = o->ptx, .ptx_text = NULL, .ptx_len = 0,
                          .gpu_major = g.major, .gpu_minor = g.minor, .disk = true};
    ws_kernel_regs r;
    ws_kernel_regs_resolve(prog, k, &rq, &r);
    const char *name = ws_kernel_function(k)->name;
    o->regs = r.regs;
    o->regs_estimated = r.source == WS_REGS_ESTIMATED;
    if (o->regs_estimated) {
        /* the report's own line in text; beside the JSON (which flags it) on stderr */
        fprintf(o->json ? stderr : stdout, "estimate: %s uses about %d registers per thread, estimated "
                "from the PTX (%s; give --regs R for the exact number)\n", name, r.regs, r.why);
        return 0;
    }
    if (!o->json)
        printf("ptxas -v: %s uses %d registers, %llu bytes of static shared memory\n",
               name, r.regs, (unsigned long long)r.ptxas_smem);
    if (r.ptxas_smem != smem)
        fprintf(stderr, "warpsim occupancy: warning: the PTX declares %llu bytes of static shared memory, "
                        "ptxas reports %llu\n", (unsigned long long)smem, (unsigned long long)r.ptxas_smem);
    return 0;
}

/* Fills regs and static shared memory from the kernel in o->ptx. */
static int from_ptx(options *o, const char **gpu)
{
    ptx_error perr;
    ptx_module *m = ptx_parse_file(o->ptx, &perr);
    if (!m) {
        ptx_error_print(&perr, stderr);
        return 2;
    }
    ws_devmem *mem = ws_devmem_create();
    ws_error lerr;
    ws_program *prog = mem ? ws_program_load(m, mem, &lerr) : NULL;
    int rc = 0;
    const ptx_function *f = prog ? cli_find_kernel("occupancy", m, o->kernel) : NULL;
    const ws_kernel *k = f ? ws_program_kernel(prog, f->name) : NULL;
    if (!prog)
        fprintf(stderr, "%s\n", mem ? lerr.msg : "warpsim occupancy: error: out of memory");
    if (!k) {
        rc = 2;
        goto done;
    }
    if (!*gpu) {
        *gpu = cli_gpu_for_target(m->target);
        if (!*gpu) {
            fprintf(stderr, "warpsim occupancy: error: %s targets %s; say which GPU with --gpu NAME\n",
                    o->ptx, m->target);
            rc = 2;
            goto done;
        }
    }
    uint64_t smem = ws_kernel_static_smem(k);
    if (!o->have_smem)
        o->smem = smem;
    if (!o->have_regs)
        rc = kernel_regs(o, prog, k, *gpu, smem);
done:
    ws_program_free(prog);
    ws_devmem_destroy(mem);
    ptx_module_free(m);
    return rc;
}

static int write_plot(const options *o, const ws_gpu_config *g, const ws_occ_input *in,
                      const ws_occ_sweep_point *pts, size_t n, const ws_occ_result *cur)
{
    double *buf = malloc(sizeof(double) * n * 3);
    if (!buf) {
        fprintf(stderr, "warpsim occupancy: error: out of memory\n");
        return 1;
    }
    double *x = buf, *hw = buf + n, *tb = buf + 2 * n;
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)pts[i].x;
        hw[i] = 100.0 * pts[i].hw.occupancy;
        tb[i] = 100.0 * pts[i].tb.occupancy;
    }
    ws_svg_series s[2] = {
        {"hardware rule", x, hw, n, "#1f77b4", false, true},
        {"textbook rule", x, tb, n, "#ff7f0e", true, true},
    };
    if (o->rule == WS_OCC_TEXTBOOK) {
        ws_svg_series t = s[0];
        s[0] = s[1];
        s[1] = t;
    }
    char title[256], xlabel[64], mark[128];
    const char *var = ws_occ_sweep_var_name(o->sweep_var);
    snprintf(title, sizeof title, "Occupancy on %s (sm_%d%d) against %s", g->name, g->major,
             g->minor, o->sweep_var == WS_SWEEP_THREADS ? "block size"
             : o->sweep_var == WS_SWEEP_REGS ? "registers per thread" : "dynamic shared memory");
    snprintf(xlabel, sizeof xlabel, "%s", o->sweep_var == WS_SWEEP_THREADS ? "threads per block"
             : o->sweep_var == WS_SWEEP_REGS ? "registers per thread" : "dynamic shared memory per block (bytes)");
    double mx = o->sweep_var == WS_SWEEP_THREADS ? in->threads
              : o->sweep_var == WS_SWEEP_REGS ? in->regs : (double)in->dynamic_smem;
    snprintf(mark, sizeof mark, "%s = %.0f: %.1f %%", var, mx, 100.0 * cur->occupancy);
    ws_svg_chart c = {title, xlabel, "occupancy (% of max warps)", x[0], x[n - 1], 0, 100,
                      s, 2, o->have_threads || o->sweep_var != WS_SWEEP_THREADS,
                      mx, 100.0 * cur->occupancy, mark};
    FILE *f = fopen(o->plot, "w");
    int rc = 0;
    if (!f || ws_svg_line_chart(f, &c)) {
        fprintf(stderr, "warpsim occupancy: error: cannot write %s\n", o->plot);
        rc = 1;
    }
    if (f && fclose(f) && !rc) {
        fprintf(stderr, "warpsim occupancy: error: cannot write %s\n", o->plot);
        rc = 1;
    }
    free(buf);
    if (!rc && !o->json)
        printf("wrote %s\n", o->plot);
    return rc;
}

static int sweep(const options *o, const ws_gpu_config *g, const ws_occ_input *in,
                 const ws_occ_result *cur)
{
    size_t n = ws_occ_sweep(g, in, o->sweep_var, NULL, 0);
    ws_occ_sweep_point *pts = malloc(sizeof *pts * (n ? n : 1));
    if (!pts) {
        fprintf(stderr, "warpsim occupancy: error: out of memory\n");
        return 1;
    }
    ws_occ_sweep(g, in, o->sweep_var, pts, n);
    if (o->json) {
        printf("[");
        for (size_t i = 0; i < n; i++) {
            printf("%s{\"x\": %lld, \"result\": ", i ? ",\n " : "", (long long)pts[i].x);
            ws_occ_print_json(stdout, o->rule == WS_OCC_HARDWARE ? &pts[i].hw : &pts[i].tb);
            printf("}");
        }
        printf("]\n");
    } else {
        printf("%s: occupancy against %s\n", g->name, ws_occ_sweep_var_name(o->sweep_var));
        ws_occ_print_sweep(stdout, o->sweep_var, o->rule, pts, n);
    }
    int rc = o->plot ? write_plot(o, g, in, pts, n, cur) : 0;
    free(pts);
    return rc;
}

int cli_occupancy(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return 0;
        }
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc;
    const char *gpu = o.gpu;
    if (o.ptx) {
        rc = from_ptx(&o, &gpu);
        if (rc)
            return rc;
    } else {
        if (!gpu)
            return usage_error("%s is required", "--gpu NAME");
        if (!o.have_regs)
            return usage_error("%s is required (or give a PTX file and --kernel)", "--regs R");
    }

    ws_gpu_config g;
    char err[2048];
    if (ws_gpu_config_load(gpu, &g, err, sizeof err)) {
        fprintf(stderr, "warpsim occupancy: %s\n", err);
        return strstr(err, "unknown GPU") ? 2 : 1;
    }
    if (o.regs > g.maxRegsPerThread) {
        fprintf(stderr, "warpsim occupancy: error: --regs %lld: a thread can have at most %d registers on %s\n",
                (long long)o.regs, g.maxRegsPerThread, g.name);
        return 2;
    }
    ws_occ_input in = {.threads = (int32_t)(o.threads > INT32_MAX ? INT32_MAX : o.threads),
                       .regs = (int32_t)o.regs, .static_smem = o.smem, .dynamic_smem = o.dynamic_smem,
                       .carveout = o.carveout, .optin = o.optin, .regs_estimated = o.regs_estimated};
    ws_occ_result hw, tb;
    ws_occupancy(&g, &in, WS_OCC_HARDWARE, &hw);
    ws_occupancy(&g, &in, WS_OCC_TEXTBOOK, &tb);
    const ws_occ_result *shown = o.rule == WS_OCC_HARDWARE ? &hw : &tb;
    if (o.sweep)
        return sweep(&o, &g, &in, shown);

    /* The text report ends with the launch error, if any, on stdout. */
    if (o.json) {
        ws_occ_print_json(stdout, shown);
        printf("\n");
    } else
        ws_occ_print_report(stdout, &g, gpu, &in, o.rule, &hw, &tb);
    if (hw.error != WS_OCC_OK && o.json) {
        char msg[1024];
        ws_occ_format_error(&g, &in, &hw, msg, sizeof msg);
        fprintf(stderr, "warpsim occupancy: error: the block cannot launch: %s\n", msg);
        return 1;
    }
    return hw.error != WS_OCC_OK ? 1 : 0;
}
