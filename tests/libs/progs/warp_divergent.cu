// Lanes 0-15 and 16-31 of each warp in two branches of their own, each
// doing a __shfl_sync that swaps values with the other half and a
// __ballot_sync with the full mask (the lower half votes 1, the upper 0).
// Under the PTX ISA's *.sync semantics the two halves meet across the
// branches: the values swap, and every lane sees the ballot 0x0000ffff.
#include <vector>
#include "libs_check.h"

__global__ void halves(const int *in, int *swapped, unsigned *ballot)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[t];
    int got;
    unsigned b;
    if (lane < 16) {
        got = __shfl_sync(0xffffffffu, v, lane + 16);
        b = __ballot_sync(0xffffffffu, 1);
    } else {
        got = __shfl_sync(0xffffffffu, v, lane - 16);
        b = __ballot_sync(0xffffffffu, 0);
    }
    swapped[t] = got;
    ballot[t] = b;
}

int main()
{
    const int n = 64;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = 1000 + i * 3;
    int *in, *sw;
    unsigned *bal;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&sw, n * sizeof(int)));
    CK(cudaMalloc(&bal, n * sizeof(unsigned)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    halves<<<1, n>>>(in, sw, bal);
    CK_LAUNCH();
    std::vector<int> hs(n);
    std::vector<unsigned> hb(n);
    CK(cudaMemcpy(hs.data(), sw, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), bal, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    Checker c;
    for (int i = 0; i < n; i++) {
        c.eq("swap", i, hs[i], h[i ^ 16]);
        c.eq("ballot", i, hb[i], 0x0000ffffu);
    }
    printf("lanes 0 15 16 31 got: %d %d %d %d\n", hs[0], hs[15], hs[16], hs[31]);
    printf("ballot lanes 0 15 16 31: 0x%08x 0x%08x 0x%08x 0x%08x\n", hb[0], hb[15], hb[16], hb[31]);
    return c.finish();
}
