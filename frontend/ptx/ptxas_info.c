/* Registers per thread from ptxas -v, when the CUDA toolkit is installed:
 * what occupancy questions and cudaFuncGetAttributes need and PTX does not
 * say. */
#include "ptxas_info.h"

#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static bool executable(const char *path)
{
    return access(path, X_OK) == 0;
}

int ptx_find_ptxas(char *path, size_t size)
{
    const char *env = getenv("PATH");
    if (env) {
        const char *p = env;
        while (*p) {
            size_t len = strcspn(p, ":");
            if (len > 0 && (size_t)snprintf(path, size, "%.*s/ptxas", (int)len, p) < size &&
                executable(path))
                return 0;
            p += len;
            if (*p == ':')
                p++;
        }
    }
    const char *home = getenv("CUDA_HOME");
    if (home && (size_t)snprintf(path, size, "%s/bin/ptxas", home) < size && executable(path))
        return 0;
    if ((size_t)snprintf(path, size, "/usr/local/cuda/bin/ptxas") < size && executable(path))
        return 0;
    return -1;
}

/* Runs argv with stdout and stderr into one buffer.  Returns the exit
 * status, or -1 when it could not run. */
static int run_capture(char *const argv[], char *out, size_t size)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc) {
        close(fds[0]);
        return -1;
    }
    size_t len = 0;
    char chunk[4096];
    ssize_t n;
    while ((n = read(fds[0], chunk, sizeof chunk)) > 0) {
        size_t take = (size_t)n < size - 1 - len ? (size_t)n : size - 1 - len;
        memcpy(out + len, chunk, take);
        len += take;
    }
    out[len] = '\0';
    close(fds[0]);
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ptx_ptxas_run(const char *ptxas, const char *ptx_path, int32_t major, int32_t minor, char **out,
                  char *err, size_t errsize)
{
    *out = NULL;
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%d%d", major, minor);
    char *argv[] = {(char *)ptxas, "-v", arch, "-o", "/dev/null", (char *)ptx_path, NULL};
    size_t cap = 1 << 20;
    char *text = malloc(cap);
    if (!text) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    int status = run_capture(argv, text, cap);
    if (status != 0) {
        size_t len = strlen(text);
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        snprintf(err, errsize, "%s %s failed%s%s", ptxas, arch, *text ? ":\n" : "", text);
        free(text);
        return -1;
    }
    char *fit = realloc(text, strlen(text) + 1);    /* kept while the module lives: give back the rest */
    *out = fit ? fit : text;
    return 0;
}

int ptx_ptxas_entry(const char *output, const char *ptxas, const char *mangled, int32_t *regs, uint64_t *smem,
                    char *err, size_t errsize)
{
    /* "Compiling entry function 'NAME' for 'sm_80'", then "Used N registers"
     * before the next entry's "Compiling". */
    char marker[1100];
    snprintf(marker, sizeof marker, "entry function '%s'", mangled);
    const char *at = strstr(output, marker);
    const char *next = at ? strstr(at + 1, "Compiling entry function") : NULL;
    const char *used = at ? strstr(at, "Used ") : NULL;
    if (!used || (next && used > next)) {
        snprintf(err, errsize, "%s printed no register count for '%s'", ptxas, mangled);
        return -1;
    }
    *regs = (int32_t)strtol(used + 5, NULL, 10);
    *smem = 0;
    const char *eol = strchr(used, '\n');
    const char *sm = strstr(used, " bytes smem");
    if (sm && (!eol || sm < eol)) {
        const char *p = sm;
        while (p > used && p[-1] >= '0' && p[-1] <= '9')
            p--;
        *smem = strtoull(p, NULL, 10);
    }
    return 0;
}
