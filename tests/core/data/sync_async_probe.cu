// Ground-truth probe for test_sync_async_kernels.c, run on a real GPU: the
// kernels of tests/ptx/data/src/warp_sync_ops.cu and async_copy.cu against
// the CPU references the test holds warpsim to (../sync_async_refs.h), so a
// reference that is wrong shows here.  Prints one line per kernel, PASS or
// the first mismatch; exit status 1 on any mismatch.
//   nvcc -arch=sm_90 -o sync_async_probe sync_async_probe.cu && ./sync_async_probe
#include "../../ptx/data/src/warp_sync_ops.cu"
#include "../../ptx/data/src/async_copy.cu"
#include <cstdio>
#include <cstring>
#include "../sync_async_refs.h"

typedef void (*kernel_fn)(const int *, int *);
typedef void (*ref_fn)(const int32_t *, int32_t *);

static const struct {
    const char *name;
    kernel_fn kernel;
    ref_fn ref;
    bool sort_first_row;    // mbarrierOps: its first row's order depends on the schedule
} cases[] = {
    {"reduxOps", reduxOps, ref_redux, false},
    {"matchOps", matchOps, ref_match, false},
    {"bitOps", bitOps, ref_bits, false},
    {"shflPredScan", shflPredScan, ref_shfl_pred_scan, false},
    {"cgTiles", cgTiles, ref_cg_tiles, false},
    {"pipelineCopies", pipelineCopies, ref_pipeline_copies, false},
    {"cgCopy", cgCopy, ref_cg_copy, false},
    {"barrierCopy", barrierCopy, ref_barrier_copy, false},
    {"pipelineStages", pipelineStages, ref_pipeline_stages, false},
    {"mbarrierOps", mbarrierOps, ref_mbarrier, true},
};

int main()
{
    int32_t in[2 * NT], want[NOUT], got[NOUT];
    int *din, *dout, failed = 0;
    make_input(in);
    cudaMalloc(&din, sizeof in);
    cudaMalloc(&dout, sizeof got);
    cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
    for (const auto &c : cases) {
        memset(want, 0, sizeof want);
        c.ref(in, want);
        cudaMemset(dout, 0, sizeof got);
        c.kernel<<<1, NT>>>(din, dout);
        cudaError_t e = cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            printf("%s: %s\n", c.name, cudaGetErrorString(e));
            return 1;
        }
        if (c.sort_first_row) qsort(got, NT, sizeof got[0], cmp_int);
        int bad = -1;
        for (int i = 0; i < NOUT && bad < 0; i++)
            if (got[i] != want[i]) bad = i;
        if (bad < 0) {
            printf("%s PASS\n", c.name);
        } else {
            printf("%s FAIL: out[%d] = %d (0x%08x), want %d (0x%08x)\n", c.name, bad, got[bad],
                   (unsigned)got[bad], want[bad], (unsigned)want[bad]);
            failed = 1;
        }
    }
    return failed;
}
