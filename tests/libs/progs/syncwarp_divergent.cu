// __syncwarp() with the full mask in the two branches of a divergent if
// (lanes 0-15 and 16-31): the PTX ISA lets the threads of bar.warp.sync
// arrive at different instructions (sm_70 and later), so shared-memory
// values written before it by the other half are visible after it.
#include <vector>
#include "libs_check.h"

__global__ void halves(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int lane = t % 32;
    int r;
    if (lane < 16) {
        s[t] = t + 100;
        __syncwarp();
        r = s[t + 16] * 2;
    } else {
        s[t] = t * 7;
        __syncwarp();
        r = s[t - 16] * 3;
    }
    out[t] = r;
}

int main()
{
    const int n = 64;
    int *out;
    CK(cudaMalloc(&out, n * sizeof(int)));
    halves<<<1, n>>>(out);
    CK_LAUNCH();
    std::vector<int> o(n), s(n);
    CK(cudaMemcpy(o.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++)
        s[t] = t % 32 < 16 ? t + 100 : t * 7;
    Checker c;
    for (int t = 0; t < n; t++)
        c.eq("out", t, o[t], t % 32 < 16 ? s[t + 16] * 2 : s[t - 16] * 3);
    printf("out[0] %d out[15] %d out[16] %d out[31] %d out[63] %d\n", o[0], o[15], o[16], o[31], o[63]);
    return c.finish();
}
