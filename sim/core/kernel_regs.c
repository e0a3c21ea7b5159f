/* The register policy (kernel_regs.h). */
#include "kernel_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program.h"
#include "timing.h"
#include "../../frontend/ptx/ptxas_info.h"

/* The architecture ptxas compiles for: the GPU's, or the PTX's .target
 * where that is newer ("sm_90a" counts as 9.0). */
static void ptxas_arch(const ws_program *p, const ws_regs_request *rq, int32_t *major, int32_t *minor)
{
    *major = rq->gpu_major;
    *minor = rq->gpu_minor;
    int32_t tmajor, tminor;
    if (p->target && sscanf(p->target, "sm_%1d%1d", &tmajor, &tminor) == 2 &&
        tmajor * 10 + tminor > *major * 10 + *minor) {
        *major = tmajor;
        *minor = tminor;
    }
}

/* ptxas -v on the PTX (a file, or the text written to a temporary one). */
static bool from_ptxas(const char *ptxas, const char *mangled, int32_t major, int32_t minor,
                       const ws_regs_request *rq, ws_kernel_regs *out)
{
    if (rq->ptx_path)
        return ptx_ptxas_registers(ptxas, rq->ptx_path, mangled, major, minor, &out->regs,
                                   &out->ptxas_smem, out->why, sizeof out->why) == 0;
    const char *tmp = getenv("TMPDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/warpsim-ptx-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(out->why, sizeof out->why, "cannot write a temporary file for ptxas in %s",
                 tmp && *tmp ? tmp : "/tmp");
        return false;
    }
    bool ok = write(fd, rq->ptx_text, rq->ptx_len) == (ssize_t)rq->ptx_len;
    close(fd);
    if (!ok)
        snprintf(out->why, sizeof out->why, "cannot write the PTX for ptxas to a temporary file");
    ok = ok && ptx_ptxas_registers(ptxas, path, mangled, major, minor, &out->regs,
                                   &out->ptxas_smem, out->why, sizeof out->why) == 0;
    unlink(path);
    return ok;
}

void ws_kernel_regs_resolve(const ws_program *p, const ws_kernel *k, const ws_regs_request *rq,
                            ws_kernel_regs *out)
{
    memset(out, 0, sizeof *out);
    if (rq->given > 0) {
        out->regs = rq->given;
        out->source = WS_REGS_GIVEN;
        return;
    }
    char ptxas[1024];
    int32_t major, minor;
    ptxas_arch(p, rq, &major, &minor);
    if (ptx_find_ptxas(ptxas, sizeof ptxas) != 0) {
        snprintf(out->why, sizeof out->why, "ptxas not found (on PATH, $CUDA_HOME/bin or "
                 "/usr/local/cuda/bin)");
    } else if ((rq->ptx_path || rq->ptx_text) &&
               from_ptxas(ptxas, ws_kernel_name(k), major, minor, rq, out)) {
        out->source = WS_REGS_PTXAS;
        out->have_ptxas_smem = true;
        return;
    } else if (!rq->ptx_path && !rq->ptx_text) {
        snprintf(out->why, sizeof out->why, "no PTX text to give ptxas");
    }
    for (char *c = out->why; *c; c++)     /* ptxas's own lines, kept on one */
        if (*c == '\n') *c = ' ';
    out->regs = ws_estimate_regs(p, k);
    out->source = WS_REGS_ESTIMATED;
}
