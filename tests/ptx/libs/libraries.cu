// thrust, CUB and cooperative groups as a program uses them, self-checked
// against host computations: prints PASS or the first mismatches.  The
// test library_check.sh builds its PTX for sm_80 and sm_90 and runs
// `warpsim check` on both, then runs the sm_80 program under `warpsim exec`.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cub/cub.cuh>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <algorithm>
#include <cstdio>
#include <vector>
namespace cg = cooperative_groups;

#define NB 256      // threads of the block-level kernels
static int failures = 0;

static void expect(bool ok, const char *what, long long got, long long want)
{
    if (!ok && failures++ < 10) printf("mismatch: %s: got %lld, want %lld\n", what, got, want);
}

// cg::reduce over tiles of 32 and 8, cg::inclusive_scan, match_any, fns;
// CUB's BlockReduce, BlockScan and WarpReduce.  out: 10 rows of NB.
__global__ void blockKernels(const int *in, int *out)
{
    typedef cub::BlockReduce<int, NB> BR;
    typedef cub::BlockScan<int, NB> BS;
    typedef cub::WarpReduce<int> WR;
    __shared__ typename BR::TempStorage tr;
    __shared__ typename BS::TempStorage ts;
    __shared__ typename WR::TempStorage tw[NB / 32];
    cg::thread_block blk = cg::this_thread_block();
    auto t32 = cg::tiled_partition<32>(blk);
    auto t8 = cg::tiled_partition<8>(blk);
    int t = threadIdx.x, v = in[t];
    out[0 * NB + t] = cg::reduce(t32, v, cg::plus<int>());
    out[1 * NB + t] = cg::reduce(t8, v, cg::greater<int>());
    out[2 * NB + t] = (int)cg::reduce(t32, (unsigned)v, cg::bit_xor<unsigned>());
    out[3 * NB + t] = cg::inclusive_scan(t32, v);
    out[4 * NB + t] = (int)__match_any_sync(0xffffffffu, v & 7);
    out[5 * NB + t] = (int)__fns(0xf0f0f0f0u ^ (unsigned)v, t & 31, t % 7 - 3);
    int s = BR(tr).Sum(v);
    if (t == 0) out[6 * NB] = s;
    int sc;
    BS(ts).InclusiveSum(v, sc);
    out[7 * NB + t] = sc;
    int ws = WR(tw[t / 32]).Sum(v);
    if (t % 32 == 0) out[8 * NB + t / 32] = ws;
    __syncthreads();
    int wm = WR(tw[t / 32]).Reduce(v, cuda::maximum<>());
    if (t % 32 == 0) out[8 * NB + NB / 32 + t / 32] = wm;
}

// cg::memcpy_async, cuda::memcpy_async on a cuda::barrier, and
// __pipeline_memcpy_async.  out[9 * NB + t].
__global__ void copyKernel(const int *in, int *out)
{
    __shared__ int a[NB], b[NB], c[NB];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto blk = cg::this_thread_block();
    if (blk.thread_rank() == 0) init(&bar, blk.size());
    blk.sync();
    cg::memcpy_async(blk, a, in, sizeof(int) * NB);
    cuda::memcpy_async(blk, b, in, sizeof(int) * NB, bar);
    __pipeline_memcpy_async(&c[threadIdx.x], &in[threadIdx.x], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    cg::wait(blk);
    bar.arrive_and_wait();
    int t = threadIdx.x;
    out[9 * NB + t] = a[NB - 1 - t] + 2 * b[(t + 1) % NB] + 3 * c[t];
}

struct affine { __host__ __device__ int operator()(int x) const { return 3 * x + 1; } };

static void checkBlockKernels(const std::vector<int> &h)
{
    int *din, *dout;
    std::vector<int> r(10 * NB);
    cudaMalloc(&din, NB * sizeof(int));
    cudaMalloc(&dout, r.size() * sizeof(int));
    cudaMemcpy(din, h.data(), NB * sizeof(int), cudaMemcpyHostToDevice);
    blockKernels<<<1, NB>>>(din, dout);
    copyKernel<<<1, NB>>>(din, dout);
    if (cudaMemcpy(r.data(), dout, r.size() * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
        failures++;
        return;
    }
    int total = 0, scan = 0;
    for (int i = 0; i < NB; i++) total += h[i];
    for (int i = 0; i < NB; i++) {
        int w = i / 32 * 32, sum = 0, mx = -1000000, sc = 0;
        unsigned x = 0, m = 0;
        for (int j = w; j < w + 32; j++) {
            sum += h[j];
            x ^= (unsigned)h[j];
            if (j <= i) sc += h[j];
            if ((h[j] & 7) == (h[i] & 7)) m |= 1u << (j - w);
        }
        for (int j = i / 8 * 8; j < i / 8 * 8 + 8; j++) mx = std::max(mx, h[j]);
        unsigned mask = 0xf0f0f0f0u ^ (unsigned)h[i];
        int base = i & 31, off = i % 7 - 3, f = -1, count = off > 0 ? off : -off;
        if (off == 0) f = (mask >> base & 1) ? base : -1;
        for (int p = base; off != 0 && p >= 0 && p < 32; p += off > 0 ? 1 : -1)
            if ((mask >> p & 1) && --count == 0) { f = p; break; }
        scan += h[i];
        expect(r[0 * NB + i] == sum, "cg::reduce plus", r[0 * NB + i], sum);
        expect(r[1 * NB + i] == mx, "cg::reduce greater, tile 8", r[1 * NB + i], mx);
        expect(r[2 * NB + i] == (int)x, "cg::reduce bit_xor", r[2 * NB + i], (int)x);
        expect(r[3 * NB + i] == sc, "cg::inclusive_scan", r[3 * NB + i], sc);
        expect(r[4 * NB + i] == (int)m, "__match_any_sync", r[4 * NB + i], (int)m);
        expect(r[5 * NB + i] == f, "__fns", r[5 * NB + i], f);
        expect(r[7 * NB + i] == scan, "cub::BlockScan", r[7 * NB + i], scan);
        int cp = h[NB - 1 - i] + 2 * h[(i + 1) % NB] + 3 * h[i];
        expect(r[9 * NB + i] == cp, "memcpy_async", r[9 * NB + i], cp);
        if (i % 32 == 0) {
            expect(r[8 * NB + i / 32] == sum, "cub::WarpReduce sum", r[8 * NB + i / 32], sum);
            int wmax = *std::max_element(h.begin() + w, h.begin() + w + 32);
            expect(r[8 * NB + NB / 32 + i / 32] == wmax, "cub::WarpReduce max", r[8 * NB + NB / 32 + i / 32], wmax);
        }
    }
    expect(r[6 * NB] == total, "cub::BlockReduce", r[6 * NB], total);
    cudaFree(din);
    cudaFree(dout);
}

static void checkDevice(const std::vector<int> &h)
{
    int n = (int)h.size();
    thrust::device_vector<int> d(h.begin(), h.end()), y(n);
    long long ref = 0;
    for (int v : h) ref += v;
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
    expect(sum == ref, "thrust::reduce", sum, ref);
    thrust::transform(d.begin(), d.end(), y.begin(), affine());
    thrust::inclusive_scan(y.begin(), y.end(), y.begin());
    int *dmax;
    cudaMalloc(&dmax, sizeof(int));
    void *tmp = nullptr;
    size_t bytes = 0;
    cub::DeviceReduce::Max(tmp, bytes, thrust::raw_pointer_cast(d.data()), dmax, n);
    cudaMalloc(&tmp, bytes);
    cub::DeviceReduce::Max(tmp, bytes, thrust::raw_pointer_cast(d.data()), dmax, n);
    int gmax = 0;
    cudaMemcpy(&gmax, dmax, sizeof(int), cudaMemcpyDeviceToHost);
    int hmax = *std::max_element(h.begin(), h.end());
    expect(gmax == hmax, "cub::DeviceReduce::Max", gmax, hmax);
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<int> sorted = d, scanned = y;
    std::vector<int> hs(h);
    std::sort(hs.begin(), hs.end());
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += 3 * h[i] + 1;
        expect(scanned[i] == acc, "thrust::transform + inclusive_scan", scanned[i], acc);
        expect(sorted[i] == hs[i], "thrust::sort", sorted[i], hs[i]);
    }
    cudaFree(tmp);
    cudaFree(dmax);
}

int main()
{
    std::vector<int> h(20000);
    unsigned s = 12345;
    for (int &v : h) { s = s * 1103515245u + 12345u; v = (int)((s >> 8) % 20001) - 10000; }
    checkBlockKernels(h);
    checkDevice(h);
    printf(failures ? "FAIL\n" : "PASS\n");
    return failures != 0;
}
