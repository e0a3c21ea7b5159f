// The two halves of each warp reach two different `barrier.sync 0`
// instructions (inline PTX in both branches of an if on the lane).  Under
// the PTX ISA (sm_70 and later) barrier.sync counts threads, wherever
// each arrives, so the barrier completes with every thread of the block
// and the shared-memory values written before it by the other half (and
// by the other warps) are visible after it.
#include <vector>
#include "libs_check.h"

constexpr int kBlock = 96;

__global__ void split(int *out)
{
    __shared__ int s[kBlock];
    int t = threadIdx.x;
    int lane = t % 32;
    int r;
    if (lane < 16) {
        s[t] = t * 2 + 1;
        asm volatile("barrier.sync 0;" ::: "memory");
        r = s[t ^ 16] + 1000 * s[(t + 32) % kBlock];
    } else {
        s[t] = t * 5;
        asm volatile("barrier.sync 0;" ::: "memory");
        r = s[t ^ 16] - 1000 * s[(t + 32) % kBlock];
    }
    out[t] = r;
}

int main()
{
    int *out;
    CK(cudaMalloc(&out, kBlock * sizeof(int)));
    split<<<1, kBlock>>>(out);
    CK_LAUNCH();
    std::vector<int> o(kBlock), s(kBlock);
    CK(cudaMemcpy(o.data(), out, kBlock * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < kBlock; t++)
        s[t] = t % 32 < 16 ? t * 2 + 1 : t * 5;
    Checker c;
    for (int t = 0; t < kBlock; t++) {
        int other = s[(t + 32) % kBlock];
        c.eq("out", t, o[t], t % 32 < 16 ? s[t ^ 16] + 1000 * other : s[t ^ 16] - 1000 * other);
    }
    printf("out[0] %d out[15] %d out[16] %d out[31] %d out[95] %d\n", o[0], o[15], o[16], o[31], o[95]);
    return c.finish();
}
