// __reduce_{add,min,max,and,or,xor}_sync over a full warp and over the
// even lanes only (inside a branch that only they take), against CPU
// reductions.  Compute capability 8.0 and later.
#include <vector>
#include "libs_check.h"

constexpr int kBlock = 64;

__global__ void redux(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x;
    unsigned v = in[blockIdx.x * kBlock + t];
    unsigned *o = out + (blockIdx.x * kBlock + t) * 7;
    o[0] = __reduce_add_sync(0xffffffffu, v);
    o[1] = (unsigned)__reduce_min_sync(0xffffffffu, (int)v - 500);
    o[2] = __reduce_max_sync(0xffffffffu, v);
    o[3] = __reduce_and_sync(0xffffffffu, v | 0x100u);
    o[4] = __reduce_or_sync(0xffffffffu, v & 0x0f0u);
    o[5] = __reduce_xor_sync(0xffffffffu, v);
    o[6] = 0;
    if (t % 2 == 0)
        o[6] = __reduce_add_sync(0x55555555u, v);
}

int main()
{
    const int blocks = 2, n = blocks * kBlock;
    std::vector<unsigned> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (unsigned)((i * 263 + 71) % 1009);
    unsigned *in, *out;
    CK(cudaMalloc(&in, n * sizeof(unsigned)));
    CK(cudaMalloc(&out, n * 7 * sizeof(unsigned)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    redux<<<blocks, kBlock>>>(in, out);
    CK_LAUNCH();
    std::vector<unsigned> o(n * 7);
    CK(cudaMemcpy(o.data(), out, o.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

    Checker c;
    for (int w = 0; w < n / 32; w++) {
        unsigned add = 0, mx = 0, a = ~0u, orv = 0, x = 0, even = 0;
        int mn = 1 << 30;
        for (int l = 0; l < 32; l++) {
            unsigned v = h[w * 32 + l];
            add += v;
            mn = (int)v - 500 < mn ? (int)v - 500 : mn;
            mx = v > mx ? v : mx;
            a &= v | 0x100u;
            orv |= v & 0x0f0u;
            x ^= v;
            if (l % 2 == 0)
                even += v;
        }
        for (int l = 0; l < 32; l++) {
            const unsigned *r = &o[(w * 32 + l) * 7];
            int i = w * 32 + l;
            c.eq("add", i, r[0], add);
            c.eq("min", i, (int)r[1], mn);
            c.eq("max", i, r[2], mx);
            c.eq("and", i, r[3], a);
            c.eq("or", i, r[4], orv);
            c.eq("xor", i, r[5], x);
            c.eq("add_even_lanes", i, r[6], l % 2 == 0 ? even : 0u);
        }
        printf("warp %d: add %u min %d max %u and 0x%08x or 0x%08x xor 0x%08x even-lane add %u\n", w, o[w * 224],
               (int)o[w * 224 + 1], o[w * 224 + 2], o[w * 224 + 3], o[w * 224 + 4], o[w * 224 + 5], o[w * 224 + 6]);
    }
    return c.finish();
}
