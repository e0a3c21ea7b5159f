/* Registers per thread from ptxas -v, when the CUDA toolkit is installed:
 * what occupancy questions and cudaFuncGetAttributes need and PTX does not
 * say. */
#include "ptxas_info.h"

#include <errno.h>
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

const char *ptx_temp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

int ptx_temp_file(const char *stem, char *path, size_t size)
{
    if ((size_t)snprintf(path, size, "%s/%s-XXXXXX", ptx_temp_dir(), stem) >= size) return -1;
    return mkstemp(path);
}

/* A temporary file for ptxas's output, already unlinked; -1 on failure. */
static int unlinked_temp(void)
{
    char path[1024];
    int fd = ptx_temp_file("warpsim-ptxas", path, sizeof path);
    if (fd >= 0) unlink(path);
    return fd;
}

int ptx_ptxas_start(const char *ptxas, const char *ptx_path, int32_t major, int32_t minor, ptx_ptxas_job *job,
                    char *err, size_t errsize)
{
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%d%d", major, minor);
    char *argv[] = {(char *)ptxas, "-v", arch, "-o", "/dev/null", (char *)ptx_path, NULL};
    job->major = major;
    job->minor = minor;
    job->out_fd = unlinked_temp();
    if (job->out_fd < 0) {
        snprintf(err, errsize, "cannot make a temporary file for the output of %s", ptxas);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, job->out_fd, 1);
    posix_spawn_file_actions_adddup2(&fa, job->out_fd, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        close(job->out_fd);
        snprintf(err, errsize, "%s %s failed: cannot run it", ptxas, arch);
        return -1;
    }
    job->pid = (int)pid;
    return 0;
}

int ptx_ptxas_finish(ptx_ptxas_job *job, const char *ptxas, char **out, char *err, size_t errsize)
{
    *out = NULL;
    int status;
    pid_t got;
    while ((got = waitpid((pid_t)job->pid, &status, 0)) < 0 && errno == EINTR) {}
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    if (text && lseek(job->out_fd, 0, SEEK_SET) == 0) {
        ssize_t n;
        while (len < cap - 1 && (n = read(job->out_fd, text + len, cap - 1 - len)) > 0) len += (size_t)n;
    }
    close(job->out_fd);
    if (!text) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    text[len] = '\0';
    if (got < 0 && errno == ECHILD) {      /* the program reaped it (wait(), SIGCHLD ignored) */
        snprintf(err, errsize, "%s -arch=sm_%d%d: its exit status was taken by the program", ptxas, job->major,
                 job->minor);
        free(text);
        return -2;
    }
    if (got < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        snprintf(err, errsize, "%s -arch=sm_%d%d failed%s%s", ptxas, job->major, job->minor, *text ? ":\n" : "",
                 text);
        free(text);
        return -1;
    }
    char *fit = realloc(text, len + 1);     /* kept while the module lives: give back the rest */
    *out = fit ? fit : text;
    return 0;
}

int ptx_ptxas_run(const char *ptxas, const char *ptx_path, int32_t major, int32_t minor, char **out,
                  char *err, size_t errsize)
{
    ptx_ptxas_job job;
    *out = NULL;
    if (ptx_ptxas_start(ptxas, ptx_path, major, minor, &job, err, errsize) != 0) return -1;
    return ptx_ptxas_finish(&job, ptxas, out, err, errsize);
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
