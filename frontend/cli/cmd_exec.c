/* warpsim exec: runs a CUDA program with warpsim's libcudart.so.13 in place
 * of NVIDIA's, so that every kernel it launches runs in the simulator.
 *
 * The program must be linked against the shared runtime (nvcc -cudart
 * shared); that is checked by reading the NEEDED entries of its ELF
 * dynamic section.  Options reach the library through the environment:
 * WARPSIM_GPU, WARPSIM_SUMMARY_OUT, WARPSIM_JSON, WARPSIM_NO_SUMMARY,
 * WARPSIM_SUMMARY, WARPSIM_LINES, WARPSIM_LINES_OUT, WARPSIM_FUNCTIONAL. */
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
#include "frontend/sass/sass_listing.h"
#include "sim/trace/summary.h"
#include "sim/trace/trace.h"
#include "sim/core/gpu_config.h"

#define CUDART_SONAME "libcudart.so.13"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: warpsim exec [--gpu NAME] [--summary-out FILE] [--json] [--summary full|short|none]\n"
            "                    [--lines] [--lines-out FILE] [--sass FILE] [--functional]\n"
            "                    [--trace FILE [--trace-format text|json|chrome]]\n"
            "                    [--racecheck] [--synccheck] [--leak-check] [--timeout S]\n"
            "                    [--progress-limit N]\n"
            "                    [--max-cycles N] [--max-warp-insts N] -- PROGRAM [ARGS...]\n"
            "\n"
            "Runs PROGRAM (built with nvcc -cudart shared) with every kernel simulated.\n"
            "Its output is left as it is; a summary of each kernel launch goes to stderr\n"
            "(or FILE).\n"
            "\n"
            "  --gpu NAME          GPU config to simulate (default a100)\n"
            "  --summary-out FILE  write the per-launch summaries to FILE\n"
            "  --json              one JSON object per launch instead of text\n"
            "  --summary MODE      full (default), short (one line per launch) or none;\n"
            "                      full and short end with each kernel's totals over\n"
            "                      all its launches (count, min/median/max cycles)\n"
            "  --no-summary        the same as --summary none\n"
            "  --lines             at the end, where each kernel's work went per source\n"
            "                      line (build with warpsim nvcc, which adds -lineinfo),\n"
            "                      most costly first, summed over all launches\n"
            "  --lines-out FILE    the same as JSON lines: one object per kernel and line\n"
            "  --sass FILE         count memory accesses as the SASS listing FILE (nvdisasm\n"
            "                      -c -g of the program's cubin) has them (docs/SASS.md)\n"
            "  --trace FILE        write the issue trace of every launch to FILE, on one\n"
            "                      timeline (see 'warpsim run --help')\n"
            "  --trace-format F    text (default), json or chrome\n"
            "  --functional        compute the results without the timing model (faster;\n"
            "                      cudaEvent times then assume one instruction per cycle)\n"
            "  --max-warp-insts N  a launch that issues more warp instructions stops with\n"
            "                      cudaErrorLaunchTimeout; default 0, no limit (a kernel\n"
            "                      that spins stops when it makes no progress)\n"
            "  --progress-limit N  stop a launch (cudaErrorLaunchTimeout) after N warp\n"
            "                      instructions without progress: no store, no atomic that\n"
            "                      changed memory, no barrier completed, no exit (default 2^24)\n"
            "  --timeout S         stop a launch after S seconds of wall-clock time\n"
            "  --max-cycles N      stop a launch after N simulated cycles\n"
            "  --racecheck         report shared-memory accesses by different warps to the\n"
            "                      same word with no barrier between (docs/FAULTS.md)\n"
            "  --synccheck         report barriers reached in divergent code and barriers\n"
            "                      waited on with different thread counts\n"
            "  --leak-check        at exit, list the device memory never freed with cudaFree\n");
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

int cli_exec(int argc, char **argv)
{
    const char *gpu = NULL, *summary_out = NULL, *max_insts = NULL;
    const char *progress = NULL, *timeout = NULL, *max_cycles = NULL;
    bool json = false, no_summary = false, functional = false, racecheck = false, synccheck = false;
    bool leak_check = false, lines = false;
    const char *summary = NULL, *lines_out = NULL, *sass = NULL;
    const char *trace = NULL, *trace_format = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--json")) { json = true; continue; }
        if (!strcmp(a, "--no-summary")) { no_summary = true; continue; }
        if (!strcmp(a, "--functional")) { functional = true; continue; }
        if (!strcmp(a, "--racecheck")) { racecheck = true; continue; }
        if (!strcmp(a, "--synccheck")) { synccheck = true; continue; }
        if (!strcmp(a, "--leak-check")) { leak_check = true; continue; }
        if (!strcmp(a, "--lines")) { lines = true; continue; }
        const char **slot = !strcmp(a, "--gpu") ? &gpu
                          : !strcmp(a, "--summary-out") ? &summary_out
                          : !strcmp(a, "--max-warp-insts") ? &max_insts
                          : !strcmp(a, "--progress-limit") ? &progress
                          : !strcmp(a, "--timeout") ? &timeout
                          : !strcmp(a, "--max-cycles") ? &max_cycles
                          : !strcmp(a, "--trace") ? &trace
                          : !strcmp(a, "--trace-format") ? &trace_format
                          : !strcmp(a, "--summary") ? &summary
                          : !strcmp(a, "--lines-out") ? &lines_out
                          : !strcmp(a, "--sass") ? &sass : NULL;
        if (slot) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim exec: error: %s needs a value\n", a);
                return 2;
            }
            *slot = argv[++i];
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr, "warpsim exec: error: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        break;      /* the program, without a "--" before it */
    }
    if (i >= argc) {
        fprintf(stderr, "warpsim exec: error: no program given\n");
        usage(stderr);
        return 2;
    }

    ws_gpu_config cfg;
    char err[1024];
    if (ws_gpu_config_load(gpu ? gpu : "a100", &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "warpsim exec: %s%s\n", strncmp(err, "error: ", 7) ? "error: " : "", err);
        return 2;
    }
    ws_trace_format tf;
    if (trace_format && !ws_trace_parse_format(trace_format, &tf)) {
        fprintf(stderr, "warpsim exec: error: bad --trace-format '%s': want text, json or chrome\n", trace_format);
        return 2;
    }
    if ((trace_format && !trace) || (trace && functional)) {
        fprintf(stderr, "warpsim exec: error: %s\n", trace ? "--functional runs no timing model: --trace does not apply"
                                                          : "--trace-format needs --trace FILE");
        return 2;
    }
    if (sass) {     /* a listing that cannot be read is a usage error before the program runs */
        char msg[512];
        ws_sass_listing l;
        if (!ws_sass_read(sass, &l, msg, sizeof msg)) {
            fprintf(stderr, "warpsim exec: error: --sass: %s\n", msg);
            return 2;
        }
        ws_sass_free(&l);
    }
    ws_summary_mode mode;
    if (summary && !ws_summary_parse_mode(summary, &mode)) {
        fprintf(stderr, "warpsim exec: error: bad --summary '%s': want full, short or none\n", summary);
        return 2;
    }
    const char *counts[][2] = {{"--max-warp-insts", max_insts}, {"--progress-limit", progress},
                               {"--max-cycles", max_cycles}};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        if (counts[k][1] && (!*counts[k][1] || strspn(counts[k][1], "0123456789") != strlen(counts[k][1]))) {
            fprintf(stderr, "warpsim exec: error: %s needs a number, not '%s'\n", counts[k][0], counts[k][1]);
            return 2;
        }
    char *end = NULL;
    if (timeout && (strtod(timeout, &end) <= 0 || *end)) {
        fprintf(stderr, "warpsim exec: error: --timeout needs a number of seconds, not '%s'\n", timeout);
        return 2;
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
    char found[256];
    switch (elf_cudart(prog, found, sizeof found)) {
    case ELF_NOT_ELF:
    case ELF_SHARED_CUDART:
        break;
    case ELF_OTHER_CUDART:
        fprintf(stderr,
                "warpsim exec: error: %s is linked against %s; warpsim provides the CUDA 13 runtime "
                "(%s).\nRebuild it with the CUDA 13 nvcc: nvcc -cudart shared -arch=sm_%d%d ...\n",
                argv[i], found, CUDART_SONAME, cfg.major, cfg.minor);
        return 2;
    case ELF_NO_CUDART:
        fprintf(stderr,
                "warpsim exec: error: %s does not load the CUDA runtime as a shared library (nvcc links "
                "it statically by default),\nso warpsim cannot run its kernels. Rebuild it with:\n"
                "    nvcc -cudart shared -arch=sm_%d%d ...\n",
                argv[i], cfg.major, cfg.minor);
        return 2;
    }

    const char *old = getenv("LD_LIBRARY_PATH");
    size_t len = strlen(libdir) + (old ? strlen(old) : 0) + 2;
    char *ldpath = malloc(len);
    if (!ldpath) {
        fprintf(stderr, "warpsim exec: error: out of memory\n");
        return 2;
    }
    snprintf(ldpath, len, "%s%s%s", libdir, old && *old ? ":" : "", old && *old ? old : "");
    bool ok = setenv("LD_LIBRARY_PATH", ldpath, 1) == 0 &&
              setenv(WS_ENV_GPU, gpu ? gpu : "a100", 1) == 0 &&
              (!summary_out || setenv(WS_ENV_SUMMARY_OUT, summary_out, 1) == 0) &&
              (!json || setenv(WS_ENV_JSON, "1", 1) == 0) &&
              (!no_summary || setenv(WS_ENV_NO_SUMMARY, "1", 1) == 0) &&
              (!functional || setenv(WS_ENV_FUNCTIONAL, "1", 1) == 0) &&
              (!summary || setenv(WS_ENV_SUMMARY, summary, 1) == 0) &&
              (!lines || setenv(WS_ENV_LINES, "1", 1) == 0) &&
              (!lines_out || setenv(WS_ENV_LINES_OUT, lines_out, 1) == 0) &&
              (!sass || setenv(WS_ENV_SASS, sass, 1) == 0) &&
              (!trace || setenv(WS_ENV_TRACE, trace, 1) == 0) &&
              (!trace_format || setenv(WS_ENV_TRACE_FORMAT, trace_format, 1) == 0) &&
              (!max_insts || setenv(WS_ENV_MAX_WARP_INSTS, max_insts, 1) == 0) &&
              (!progress || setenv(WS_ENV_PROGRESS_LIMIT, progress, 1) == 0) &&
              (!timeout || setenv(WS_ENV_TIMEOUT, timeout, 1) == 0) &&
              (!max_cycles || setenv(WS_ENV_MAX_CYCLES, max_cycles, 1) == 0) &&
              (!leak_check || setenv(WS_ENV_LEAK_CHECK, "1", 1) == 0) &&
              (!(racecheck || synccheck) ||
               setenv(WS_ENV_CHECKS, racecheck && synccheck ? "race,sync" : racecheck ? "race" : "sync", 1) == 0);
    free(ldpath);
    if (!ok) {
        fprintf(stderr, "warpsim exec: error: cannot set the environment: %s\n", strerror(errno));
        return 2;
    }
    fflush(NULL);
    execv(prog, argv + i);
    fprintf(stderr, "warpsim exec: error: cannot run %s: %s\n", prog, strerror(errno));
    return 127;
}
