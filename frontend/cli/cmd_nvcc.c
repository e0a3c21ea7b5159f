/* warpsim nvcc: runs the CUDA toolkit's nvcc with what a program needs to
 * run under `warpsim exec`: the shared CUDA runtime (-cudart shared),
 * -lineinfo (so that `warpsim exec --lines` can name .cu lines; it does
 * not change the code) unless -G or -lineinfo is given, and, unless the
 * command line chooses architectures itself, -arch=sm_XY for the GPU of
 * --gpu (default a100), which embeds that architecture's PTX. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/base/gpu_config.h"

int cli_nvcc(int argc, char **argv);

static bool executable(const char *path) { return access(path, X_OK) == 0; }

/* nvcc on PATH, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc. */
static bool find_nvcc(char *buf, size_t size)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        int n = snprintf(buf, size, "%.*s/nvcc", (int)len, path);
        if (len > 0 && n > 0 && (size_t)n < size && executable(buf)) return true;
        if (!colon) break;
        path = colon + 1;
    }
    const char *home = getenv("CUDA_HOME");
    int n = snprintf(buf, size, "%s/bin/nvcc", home && *home ? home : "/usr/local/cuda");
    if (n > 0 && (size_t)n < size && executable(buf)) return true;
    n = snprintf(buf, size, "/usr/local/cuda/bin/nvcc");
    return n > 0 && (size_t)n < size && executable(buf);
}

static bool starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

int cli_nvcc(int argc, char **argv)
{
    const char *gpu = "a100";
    bool has_cudart = false, has_arch = false, has_lineinfo = false;
    char **args = calloc((size_t)argc + 8, sizeof *args);
    if (!args) {
        fprintf(stderr, "warpsim nvcc: error: out of memory\n");
        return 2;
    }
    int n = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--gpu")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim nvcc: error: --gpu needs a value\n");
                free(args);
                return 2;
            }
            gpu = argv[++i];
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: warpsim nvcc [--gpu NAME] NVCC_ARGS...\n"
                   "Runs nvcc with -cudart shared, -lineinfo (unless -G is given) and,\n"
                   "unless an architecture is given,\n"
                   "-arch=sm_XY for the GPU NAME (default a100), so that the program runs\n"
                   "under `warpsim exec`.\n");
            free(args);
            return 0;
        }
        if (starts(a, "-cudart") || starts(a, "--cudart")) has_cudart = true;
        if (!strcmp(a, "-lineinfo") || !strcmp(a, "--generate-line-info") || !strcmp(a, "-G") ||
            !strcmp(a, "--device-debug"))
            has_lineinfo = true;
        if (starts(a, "-arch") || starts(a, "--gpu-architecture") || starts(a, "-gencode") ||
            starts(a, "--generate-code") || starts(a, "-code") || starts(a, "--gpu-code"))
            has_arch = true;
        args[n++] = argv[i];
    }
    ws_gpu_config cfg;
    char err[1024], arch[32], nvcc[PATH_MAX];
    if (ws_gpu_config_load(gpu, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "warpsim nvcc: %s%s\n", strncmp(err, "error: ", 7) ? "error: " : "", err);
        free(args);
        return 2;
    }
    if (!find_nvcc(nvcc, sizeof nvcc)) {
        fprintf(stderr, "warpsim nvcc: error: nvcc not found (on PATH, in $CUDA_HOME/bin or "
                        "/usr/local/cuda/bin)\n");
        free(args);
        return 127;
    }
    if (!has_cudart) {
        args[n++] = "-cudart";
        args[n++] = "shared";
    }
    if (!has_lineinfo)
        args[n++] = "-lineinfo";
    if (!has_arch) {
        snprintf(arch, sizeof arch, "-arch=sm_%d%d", cfg.major, cfg.minor);
        args[n++] = arch;
    }
    args[0] = nvcc;
    args[n] = NULL;
    fflush(NULL);
    execv(nvcc, args);
    fprintf(stderr, "warpsim nvcc: error: cannot run %s: %s\n", nvcc, strerror(errno));
    free(args);
    return 127;
}
