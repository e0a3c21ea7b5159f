// __match_any_sync (lanes holding equal keys) and __match_all_sync, over a
// full warp and over a subset named by the mask, against masks computed on
// the CPU.  Compute capability 7.0 and later.
#include <vector>
#include "libs_check.h"

__global__ void match(const int *keys, unsigned *any, unsigned *all, int *all_pred, unsigned *any_odd)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[t];
    any[t] = __match_any_sync(0xffffffffu, k);
    int pred;
    all[t] = __match_all_sync(0xffffffffu, k / 1000, &pred);
    all_pred[t] = pred;
    any_odd[t] = 0;
    if (threadIdx.x % 2)
        any_odd[t] = __match_any_sync(0xaaaaaaaau, k % 3);
}

int main()
{
    const int n = 64;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = i < 32 ? (i * 7) % 5 : 2000 + (i % 4 == 0 ? 1 : 9);
    h[40] = 3001;   /* warp 1: not all keys / 1000 agree, so match_all gives 0 */
    int *keys, *pred;
    unsigned *any, *all, *odd;
    CK(cudaMalloc(&keys, n * sizeof(int)));
    CK(cudaMalloc(&pred, n * sizeof(int)));
    CK(cudaMalloc(&any, n * sizeof(unsigned)));
    CK(cudaMalloc(&all, n * sizeof(unsigned)));
    CK(cudaMalloc(&odd, n * sizeof(unsigned)));
    CK(cudaMemcpy(keys, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    match<<<1, n>>>(keys, any, all, pred, odd);
    CK_LAUNCH();
    std::vector<unsigned> hany(n), hall(n), hodd(n);
    std::vector<int> hpred(n);
    CK(cudaMemcpy(hany.data(), any, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hall.data(), all, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hodd.data(), odd, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hpred.data(), pred, n * sizeof(int), cudaMemcpyDeviceToHost));

    Checker c;
    for (int w = 0; w < n / 32; w++) {
        bool same = true;
        for (int l = 0; l < 32; l++)
            same = same && h[w * 32 + l] / 1000 == h[w * 32] / 1000;
        for (int l = 0; l < 32; l++) {
            int i = w * 32 + l;
            unsigned m = 0, mo = 0;
            for (int j = 0; j < 32; j++) {
                if (h[w * 32 + j] == h[i])
                    m |= 1u << j;
                if (j % 2 && h[w * 32 + j] % 3 == h[i] % 3)
                    mo |= 1u << j;
            }
            c.eq("match_any", i, hany[i], m);
            c.eq("match_all", i, hall[i], same ? 0xffffffffu : 0u);
            c.eq("match_all_pred", i, hpred[i], same ? 1 : 0);
            c.eq("match_any_odd", i, hodd[i], l % 2 ? mo : 0u);
        }
        printf("warp %d: match_any lanes 0..4 0x%08x 0x%08x 0x%08x 0x%08x 0x%08x, match_all 0x%08x pred %d, odd lanes 1 3 0x%08x 0x%08x\n", w,
               hany[w * 32], hany[w * 32 + 1], hany[w * 32 + 2], hany[w * 32 + 3], hany[w * 32 + 4],
               hall[w * 32], hpred[w * 32], hodd[w * 32 + 1], hodd[w * 32 + 3]);
    }
    return c.finish();
}
