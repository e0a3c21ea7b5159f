// The logic of barrier_exit_first.cu with its two blocks of code swapped:
// the threads below n take the branch with the barrier, the others write
// 7 to tail and exit.  nvcc (-arch=sm_90 -ptx) lays this out with the
// bar.sync block at the branch target placed first, the exiting path
// after it, both ending at one ret.
#include <vector>
#include "libs_check.h"

__global__ void exit_last(int *out, int *tail, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < n) {
        s[t] = t * 3;
        __syncthreads();
        out[t] = s[(t + 1) % n];
        return;
    }
    tail[t] = 7;
}

int main()
{
    const int block = 64, n = 40;
    int *out, *tail;
    CK(cudaMalloc(&out, block * sizeof(int)));
    CK(cudaMalloc(&tail, block * sizeof(int)));
    CK(cudaMemset(out, 0xff, block * sizeof(int)));
    CK(cudaMemset(tail, 0xff, block * sizeof(int)));
    exit_last<<<1, block>>>(out, tail, n);
    CK_LAUNCH();
    std::vector<int> o(block), tl(block);
    CK(cudaMemcpy(o.data(), out, block * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tl.data(), tail, block * sizeof(int), cudaMemcpyDeviceToHost));
    Checker c;
    for (int t = 0; t < block; t++) {
        c.eq("out", t, o[t], t < n ? (t + 1) % n * 3 : -1);
        c.eq("tail", t, tl[t], t < n ? -1 : 7);
    }
    printf("out[0] %d out[31] %d out[32] %d out[39] %d out[40] %d\n", o[0], o[31], o[32], o[39], o[40]);
    printf("tail[39] %d tail[40] %d tail[63] %d\n", tl[39], tl[40], tl[63]);
    return c.finish();
}
