// An inclusive warp scan by __shfl_up_sync (lanes below the offset keep
// their value), over full warps and over a partial last warp, against a
// CPU prefix sum.
#include <vector>
#include "libs_check.h"

__global__ void warp_scan(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = t < n ? in[t] : 0;
    for (int off = 1; off < 32; off *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off)
            v += up;
    }
    if (t < n)
        out[t] = v;
}

int main()
{
    const int n = 1000, block = 128;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 29 + 3) % 41 - 20;
    int *in, *out;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&out, n * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    warp_scan<<<(n + block - 1) / block, block>>>(in, out, n);
    CK_LAUNCH();
    std::vector<int> o(n);
    CK(cudaMemcpy(o.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    Checker c;
    int run = 0;
    for (int i = 0; i < n; i++) {
        run = i % 32 == 0 ? h[i] : run + h[i];
        c.eq("scan", i, o[i], run);
    }
    printf("warp 0 scan lanes 0..3: %d %d %d %d, lane 31: %d; last warp lane %d: %d\n", o[0], o[1], o[2], o[3], o[31],
           (n - 1) % 32, o[n - 1]);
    return c.finish();
}
