/* warpsim exec: runs a CUDA program with warpsim's libcudart.so.13 in place
 * of NVIDIA's, so that every kernel it launches runs in the simulator.
 *
 * The program must be linked against the shared runtime (nvcc -cudart
 * shared); that is checked by reading the NEEDED entries of its ELF
 * dynamic section.  The options are parsed and checked by run_args.c's
 * table, as `warpsim run`'s are, and reach the library through the
 * environment names of frontend/cudart/exec_env.h. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../cudart/exec_env.h"
#include "commands.h"
#include "run_args.h"
#include "frontend/sass/sass_listing.h"
#include "sim/trace/trace.h"
#include "sim/base/gpu_config.h"
#include "sim/base/host_malloc.h"

#define CUDART_SONAME "libcudart.so.13"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim exec [--gpu NAME] [--summary-out FILE] [--json] [--summary full|short|none]\n"
            "                    [--lines] [--lines-out FILE] [--report FILE.html] [--sass FILE]\n"
            "                    [--functional] [--simulate-all] [--keep-ptx DIR]\n"
            "                    [--trace FILE [--trace-format text|json|chrome] [--trace-kernel K]\n"
            "                     [--trace-launch N] [--trace-block N] [--trace-warp N] [--trace-pc A:B]\n"
            "                     [--trace-cycles A:B] [--trace-limit N]]\n"
            "                    [--racecheck] [--synccheck] [--initcheck] [--leak-check] [--timeout S]\n"
            "                    [--progress-limit N]\n"
            "                    [--max-cycles N] [--max-warp-insts N] [--threads N] [--host-times FILE]\n"
            "                    -- PROGRAM [ARGS...]\n"
            "\n"
            "Runs PROGRAM (built with nvcc -cudart shared) with every kernel simulated.\n"
            "Its output is left as it is; a summary of each kernel launch goes to stderr\n"
            "(or FILE).\n"
            "\n"
            "  --gpu NAME          GPU config to simulate (default a100)\n"
            "  --summary-out FILE  write the per-launch summaries to FILE\n"
            "  --json              one JSON object per launch instead of text, and at the\n"
            "                      end one per kernel with its totals ({\"totals\":NAME,...})\n"
            "  --summary MODE      full (default), short (one line per launch) or none;\n"
            "                      full and short end with each kernel's totals over\n"
            "                      all its launches (count, min/median/max cycles)\n"
            "  --no-summary        the same as --summary none\n"
            "  --lines             at the end, where each kernel's work went per source\n"
            "                      line (build with warpsim nvcc, which adds -lineinfo),\n"
            "                      most costly first, summed over all launches\n"
            "  --lines-out FILE    the same as JSON lines: one object per kernel and line\n"
            "  --report FILE.html  at the end, one self-contained HTML page per program:\n"
            "                      per kernel its summary, occupancy, per-line table\n"
            "                      beside the source, charts and issue timeline\n"
            "  --sass FILE         count and time memory accesses as the SASS listing FILE\n"
            "                      (nvdisasm -c -g of the program's cubin) has them (docs/SASS.md)\n"
            "  --trace FILE        write the issue trace of every launch to FILE (- for\n"
            "                      stdout, where the program's output goes too), the\n"
            "                      launches one after another on one timeline; with\n"
            "                      --functional each warp instruction takes one cycle\n"
            "  --trace-format F    text (default), json or chrome (Perfetto; docs/TRACE.md)\n"
            "  --trace-kernel K    only launches of kernel K: its name as the summary shows\n"
            "                      it (template arguments and scope may be left out), or\n"
            "                      its number in the order of first launch (0 = the first)\n"
            "  --trace-launch N    only the N-th of those launches (0 = the first)\n"
            "  --trace-block N, --trace-warp N, --trace-pc A:B, --trace-cycles A:B\n"
            "                      as for 'warpsim run' (cycles count from each launch's start)\n"
            "  --trace-limit N     stop the trace after N events, with a note (default %u;\n"
            "                      0 = no limit)\n"
            "  --keep-ptx DIR      write the PTX of each module the program loads into DIR\n"
            "                      (made when missing), named as warpsim's messages cite it\n"
            "  --functional        compute the results without the timing model (faster;\n"
            "                      cudaEvent times then assume one instruction per cycle)\n"
            "  --simulate-all      simulate every launch in detail; by default a launch\n"
            "                      identical to an earlier one (same kernel, configuration,\n"
            "                      arguments and bytes read) takes that launch's outputs and\n"
            "                      timing, one reading other values that steer no branch,\n"
            "                      guard or address takes its timing and runs functionally\n"
            "                      for its outputs, and its summary says so (docs/REUSE.md)\n"
            "  --max-warp-insts N  a launch that issues more warp instructions stops with\n"
            "                      cudaErrorLaunchTimeout; default 0, no limit (a kernel\n"
            "                      that spins stops when it makes no progress)\n"
            "  --progress-limit N  stop a launch (cudaErrorLaunchTimeout) after N warp\n"
            "                      instructions without progress: no store, no atomic that\n"
            "                      changed memory, no barrier completed, no exit (default 2^24)\n"
            "  --timeout S         stop a launch after S seconds of wall-clock time\n"
            "  --max-cycles N      stop a launch after N simulated cycles\n"
            "  --threads N         simulate the SMs on N threads (default: the machine's\n"
            "                      cores); the results are the same for any N (docs/THREADS.md)\n"
            "  --window N          let each SM run N cycles on its own before the SMs meet\n"
            "                      (default: the L2 latency, where the kernel allows; 1:\n"
            "                      cycle by cycle; docs/THREADS.md)\n"
            "  --host-times FILE   write each launch's wall-clock time in the simulator to\n"
            "                      FILE, a JSON line a launch: the simulator's own time\n"
            "                      apart from the program's, and why a launch ran cycle\n"
            "                      by cycle (docs/THREADS.md, \"Host times\")\n"
            "  --racecheck         report shared-memory accesses by different warps to the\n"
            "                      same word with no barrier between (docs/FAULTS.md)\n"
            "  --synccheck         report barriers reached in divergent code and barriers\n"
            "                      waited on with different thread counts\n"
            "  --initcheck         report reads of global memory never written since\n"
            "                      cudaMalloc and of shared memory not written in the block\n"
            "  --leak-check        at exit, list the device memory never freed with cudaFree\n",
            WS_TRACE_DEFAULT_LIMIT);
}

/* Reads n bytes at off; false past the end of the file. */
static bool read_at(int fd, uint64_t off, void *buf, size_t n)
{
    ssize_t r = pread(fd, buf, n, (off_t)off);
    return r >= 0 && (size_t)r == n;
}

typedef enum elf_kind { ELF_NOT_ELF, ELF_SHARED_CUDART, ELF_OTHER_CUDART, ELF_NO_CUDART } elf_kind;

/* What the program's NEEDED list says about the CUDA runtime; *found
 * receives the libcudart it names, if any. */
static elf_kind elf_cudart(const char *path, char *found, size_t size)
{
    found[0] = '\0';
    int fd = open(path, O_RDONLY);
    if (fd < 0) return ELF_NOT_ELF;
    Elf64_Ehdr eh;
    elf_kind kind = ELF_NOT_ELF;
    if (!read_at(fd, 0, &eh, sizeof eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shnum == 0 || eh.e_shnum > 4096)
        goto done;
    kind = ELF_NO_CUDART;
    for (uint16_t i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr dyn, str;
        if (!read_at(fd, eh.e_shoff + (uint64_t)i * sizeof dyn, &dyn, sizeof dyn)) break;
        if (dyn.sh_type != SHT_DYNAMIC || dyn.sh_link >= eh.e_shnum) continue;
        if (!read_at(fd, eh.e_shoff + (uint64_t)dyn.sh_link * sizeof str, &str, sizeof str)) break;
        for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= dyn.sh_size; off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn d;
            if (!read_at(fd, dyn.sh_offset + off, &d, sizeof d) || d.d_tag == DT_NULL) break;
            if (d.d_tag != DT_NEEDED || d.d_un.d_val >= str.sh_size) continue;
            char name[256];
            uint64_t avail = str.sh_size - d.d_un.d_val;
            size_t n = avail < sizeof name - 1 ? (size_t)avail : sizeof name - 1;
            if (!read_at(fd, str.sh_offset + d.d_un.d_val, name, n)) continue;
            name[n] = '\0';
            if (strncmp(name, "libcudart.so", 12) != 0) continue;
            snprintf(found, size, "%s", name);
            kind = strcmp(name, CUDART_SONAME) == 0 ? ELF_SHARED_CUDART : ELF_OTHER_CUDART;
            goto done;
        }
    }
done:
    close(fd);
    return kind;
}

/* The file execvp would run for name, into buf; false when none. */
static bool resolve_program(const char *name, char *buf, size_t size)
{
    if (strchr(name, '/')) {
        snprintf(buf, size, "%s", name);
        return access(buf, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len == 0) snprintf(buf, size, "./%s", name);
        else snprintf(buf, size, "%.*s/%s", (int)len, path, name);
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0) return true;
        if (!colon) break;
        path = colon + 1;
    }
    return false;
}

static bool has_cudart(const char *dir)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dir, CUDART_SONAME);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* The directory holding warpsim's libcudart.so.13: $WARPSIM_CUDART_DIR,
 * else cudart/ next to the warpsim executable, else the build tree's. */
static bool find_cudart_dir(char *buf, size_t size)
{
    const char *env = getenv(WS_ENV_CUDART_DIR);
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return has_cudart(buf);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            int k = snprintf(buf, size, "%s/cudart", exe);
            if (k > 0 && (size_t)k < size && has_cudart(buf)) return true;
        }
    }
#ifdef WARPSIM_CUDART_DIR
    snprintf(buf, size, "%s", WARPSIM_CUDART_DIR);
    if (has_cudart(buf)) return true;
#endif
    return false;
}

/* What each option hands to the runtime: its environment name (exec_env.h). */
static const struct { runarg_opt opt; const char *var; } handed[] = {
    {RUNOPT_SUMMARY_OUT, WS_ENV_SUMMARY_OUT},       {RUNOPT_JSON, WS_ENV_JSON},
    {RUNOPT_NO_SUMMARY, WS_ENV_NO_SUMMARY},         {RUNOPT_SUMMARY, WS_ENV_SUMMARY},
    {RUNOPT_LINES, WS_ENV_LINES},                   {RUNOPT_LINES_OUT, WS_ENV_LINES_OUT},
    {RUNOPT_FUNCTIONAL, WS_ENV_FUNCTIONAL},         {RUNOPT_TRACE, WS_ENV_TRACE},
    {RUNOPT_TRACE_FORMAT, WS_ENV_TRACE_FORMAT},     {RUNOPT_TRACE_KERNEL, WS_ENV_TRACE_KERNEL},
    {RUNOPT_TRACE_LAUNCH, WS_ENV_TRACE_LAUNCH},     {RUNOPT_TRACE_BLOCK, WS_ENV_TRACE_BLOCK},
    {RUNOPT_TRACE_WARP, WS_ENV_TRACE_WARP},         {RUNOPT_TRACE_PC, WS_ENV_TRACE_PC},
    {RUNOPT_TRACE_CYCLES, WS_ENV_TRACE_CYCLES},     {RUNOPT_TRACE_LIMIT, WS_ENV_TRACE_LIMIT},
    {RUNOPT_MAX_WARP_INSTS, WS_ENV_MAX_WARP_INSTS}, {RUNOPT_PROGRESS_LIMIT, WS_ENV_PROGRESS_LIMIT},
    {RUNOPT_TIMEOUT, WS_ENV_TIMEOUT},               {RUNOPT_MAX_CYCLES, WS_ENV_MAX_CYCLES},
    {RUNOPT_LEAK_CHECK, WS_ENV_LEAK_CHECK},         {RUNOPT_KEEP_PTX, WS_ENV_KEEP_PTX},
    {RUNOPT_REPORT, WS_ENV_REPORT},                 {RUNOPT_SASS, WS_ENV_SASS},
    {RUNOPT_SIMULATE_ALL, WS_ENV_SIMULATE_ALL},     {RUNOPT_THREADS, WS_ENV_THREADS},
    {RUNOPT_WINDOW, WS_ENV_WINDOW},                 {RUNOPT_HOST_TIMES, WS_ENV_HOST_TIMES},
};

/* The environment the runtime reads: the options given, and nothing left
 * over from the caller's environment for those not given. */
static bool set_runtime_env(const runarg_options *o, const char *gpu, const char *libdir)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t len = strlen(libdir) + (old ? strlen(old) : 0) + 2;
    char *ldpath = malloc(len);
    if (!ldpath) return false;
    snprintf(ldpath, len, "%s%s%s", libdir, old && *old ? ":" : "", old && *old ? old : "");
    bool ok = setenv("LD_LIBRARY_PATH", ldpath, 1) == 0 && setenv(WS_ENV_GPU, gpu, 1) == 0;
    free(ldpath);
    /* the program simulates in its own process: malloc's settings for it
     * (sim/base/host_malloc.h), huge pages among them, unless the caller
     * set malloc's own */
    const char *user_tunables = getenv("GLIBC_TUNABLES");
    size_t tlen = (user_tunables ? strlen(user_tunables) : 0) + 256;
    char *tunables = malloc(tlen);
    if (!tunables) return false;
    if (ok && ws_host_malloc_tunables_for(user_tunables, tunables, tlen))
        ok = setenv("GLIBC_TUNABLES", tunables, 1) == 0;
    free(tunables);
    for (size_t k = 0; ok && k < sizeof handed / sizeof handed[0]; k++) {
        const char *v = o->given[handed[k].opt];
        ok = (v ? setenv(handed[k].var, v, 1) : unsetenv(handed[k].var)) == 0;
    }
    char checks[32];
    snprintf(checks, sizeof checks, "%s%s%s", o->checks & WS_CHECK_RACE ? "race," : "",
             o->checks & WS_CHECK_SYNC ? "sync," : "", o->checks & WS_CHECK_INIT ? "init," : "");
    return ok && (o->checks ? setenv(WS_ENV_CHECKS, checks, 1) : unsetenv(WS_ENV_CHECKS)) == 0;
}

/* --keep-ptx DIR: made when missing; it must be a folder warpsim can write. */
static bool keep_ptx_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0) {
        fprintf(stderr, "warpsim exec: error: --keep-ptx: cannot make the folder '%s': %s\n", dir, strerror(errno));
        return false;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0) {
        fprintf(stderr, "warpsim exec: error: --keep-ptx: '%s' is not a folder warpsim can write\n", dir);
        return false;
    }
    return true;
}

/* Whether the program at prog (argv[i] as given) can run under warpsim's
 * runtime: it must load libcudart.so.13 as a shared library. */
static bool program_fits(const char *prog, const char *given, const ws_gpu_config *cfg)
{
    char found[256];
    switch (elf_cudart(prog, found, sizeof found)) {
    case ELF_NOT_ELF:
    case ELF_SHARED_CUDART:
        return true;
    case ELF_OTHER_CUDART:
        fprintf(stderr,
                "warpsim exec: error: %s is linked against %s; warpsim provides the CUDA 13 runtime "
                "(%s).\nRebuild it with the CUDA 13 nvcc: nvcc -cudart shared -arch=sm_%d%d ...\n",
                given, found, CUDART_SONAME, cfg->major, cfg->minor);
        return false;
    case ELF_NO_CUDART:
        fprintf(stderr,
                "warpsim exec: error: %s does not load the CUDA runtime as a shared library (nvcc links "
                "it statically by default),\nso warpsim cannot run its kernels. Rebuild it with:\n"
                "    nvcc -cudart shared -arch=sm_%d%d ...\n",
                given, cfg->major, cfg->minor);
        return false;
    }
    return false;
}

/* Checks the GPU, the runtime and the program, sets the environment and
 * runs argv[i] with its arguments (returning only when that fails). */
static int exec_program(char **argv, int i, const runarg_options *o)
{
    const char *gpu = o->gpu ? o->gpu : "a100";
    ws_gpu_config cfg;
    char err[1024];
    if (ws_gpu_config_load(gpu, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "warpsim exec: %s%s\n", strncmp(err, "error: ", 7) ? "error: " : "", err);
        return 2;
    }
    if (o->keep_ptx && !keep_ptx_dir(o->keep_ptx)) return 2;
    if (o->sass) {     /* a listing that cannot be read is a usage error before the program runs */
        char msg[512];
        ws_sass_listing l;
        if (!ws_sass_read(o->sass, &l, msg, sizeof msg)) {
            fprintf(stderr, "warpsim exec: error: --sass: %s\n", msg);
            return 2;
        }
        ws_sass_free(&l);
    }
    char libdir[PATH_MAX];
    if (!find_cudart_dir(libdir, sizeof libdir)) {
        fprintf(stderr, "warpsim exec: error: cannot find warpsim's %s (looked in $WARPSIM_CUDART_DIR "
                        "and next to the warpsim executable); was it built? (it needs libzstd-dev "
                        "and liblz4-dev)\n", CUDART_SONAME);
        return 2;
    }
    char prog[PATH_MAX];
    if (!resolve_program(argv[i], prog, sizeof prog)) {
        fprintf(stderr, "warpsim exec: error: %s: no such executable\n", argv[i]);
        return 127;
    }
    if (!program_fits(prog, argv[i], &cfg)) return 2;
    if (!set_runtime_env(o, gpu, libdir)) {
        fprintf(stderr, "warpsim exec: error: cannot set the environment: %s\n", strerror(errno));
        return 2;
    }
    fflush(NULL);
    execv(prog, argv + i);
    fprintf(stderr, "warpsim exec: error: cannot run %s: %s\n", prog, strerror(errno));
    return 127;
}

int cli_exec(int argc, char **argv)
{
    runarg_options o;
    char err[1024];
    int i = 0;
    switch (runarg_parse_exec(argc, argv, &o, &i, err, sizeof err)) {
    case RUNARG_HELP:
        usage(stdout);
        return 0;
    case RUNARG_ERROR:
        fprintf(stderr, "warpsim exec: error: %s\n", err);
        if (strstr(err, "unknown option") || strstr(err, "no program")) usage(stderr);
        return 2;
    case RUNARG_OK:
        break;
    }
    int rc = exec_program(argv, i, &o);
    runarg_options_free(&o);
    return rc;
}
