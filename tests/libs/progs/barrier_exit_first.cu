// A barrier after an early exit: the threads at or past n write 7 to tail
// and leave before __syncthreads, so the barrier waits only for those that
// remain (the PTX ISA counts exited threads as arrived).  n = 40 in a
// block of 64 splits the second warp: lanes 0-7 stay, 8-31 exit.
// barrier_exit_last.cu writes the same logic with the two blocks of code
// swapped.  The __builtin_expect makes nvcc lay the two out differently
// (nvcc -arch=sm_90 -ptx): here the exiting path is the fall-through of
// the branch (st.global; ret) and the bar.sync block sits after the ret;
// there the bar.sync block comes first and the exiting path after it.
#include <vector>
#include "libs_check.h"

__global__ void exit_first(int *out, int *tail, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (__builtin_expect(t >= n, 1)) {
        tail[t] = 7;
        return;
    }
    s[t] = t * 3;
    __syncthreads();
    out[t] = s[(t + 1) % n];
}

int main()
{
    const int block = 64, n = 40;
    int *out, *tail;
    CK(cudaMalloc(&out, block * sizeof(int)));
    CK(cudaMalloc(&tail, block * sizeof(int)));
    CK(cudaMemset(out, 0xff, block * sizeof(int)));
    CK(cudaMemset(tail, 0xff, block * sizeof(int)));
    exit_first<<<1, block>>>(out, tail, n);
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
