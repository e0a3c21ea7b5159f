/* Registers per thread from ptxas -v, when the CUDA toolkit is installed. */
#ifndef WARPSIM_PTXAS_INFO_H
#define WARPSIM_PTXAS_INFO_H

#include <stddef.h>
#include <stdint.h>

/* The ptxas to run: on PATH, else under $CUDA_HOME/bin or
 * /usr/local/cuda/bin.  Returns 0 and writes its path, or -1 when none. */
int ptx_find_ptxas(char *path, size_t size);

/* Runs `ptxas -v -arch=sm_MAJORMINOR` on ptx_path: one compile reports
 * every entry of the module.  Returns 0 and its whole output (stdout and
 * stderr, malloc'd: the caller frees it) in *out, or -1 with the reason in
 * err. */
int ptx_ptxas_run(const char *ptxas, const char *ptx_path, int32_t major, int32_t minor, char **out,
                  char *err, size_t errsize);

/* The folder for temporary files: $TMPDIR, else /tmp. */
const char *ptx_temp_dir(void);

/* A new temporary file, stem-XXXXXX in ptx_temp_dir() (mkstemp): its
 * descriptor, its path in path; -1 when it cannot be made. */
int ptx_temp_file(const char *stem, char *path, size_t size);

/* A ptxas run started and not yet waited for: ptx_ptxas_start, then
 * ptx_ptxas_finish (ptx_ptxas_run is the two at once), so that ptxas
 * compiles while the caller does other work. */
typedef struct ptx_ptxas_job {
    int pid;
    int out_fd;                 /* its stdout and stderr: an unlinked temporary file */
    int32_t major, minor;
} ptx_ptxas_job;

/* Starts ptxas as ptx_ptxas_run does.  Returns 0, or -1 with the reason in
 * err (nothing left running). */
int ptx_ptxas_start(const char *ptxas, const char *ptx_path, int32_t major, int32_t minor, ptx_ptxas_job *job,
                    char *err, size_t errsize);

/* Waits for job and gives ptx_ptxas_run's result (ptxas names it in
 * messages); -2 when its exit status is gone (the program reaped it), and
 * then nothing is known. */
int ptx_ptxas_finish(ptx_ptxas_job *job, const char *ptxas, char **out, char *err, size_t errsize);

/* Reads, from output as ptx_ptxas_run returns it, "Used N registers" for
 * the entry named mangled (and its "N bytes smem" into *smem, 0 when
 * absent).  ptxas names the ptxas that printed it, for the message.
 * Returns 0, or -1 with the reason in err. */
int ptx_ptxas_entry(const char *output, const char *ptxas, const char *mangled, int32_t *regs, uint64_t *smem,
                    char *err, size_t errsize);

#endif
