// The pipeline primitives: __pipeline_memcpy_async of 4-, 8- and 16-byte
// elements into shared memory, __pipeline_commit and
// __pipeline_wait_prior, with two batches in flight (double buffering:
// wait_prior(1) leaves the newer batch pending), against CPU sums.
#include <cuda_pipeline.h>
#include <vector>
#include "libs_check.h"

constexpr int kBlock = 64;
constexpr int kChunks = 4;   /* chunks of kBlock ints per block */

__global__ void staged(const int *in, const int4 *in4, const int2 *in2, int *out)
{
    __shared__ int buf[2][kBlock];
    __shared__ int4 v4[kBlock];
    __shared__ int2 v2[kBlock];
    int t = threadIdx.x;
    const int *src = in + blockIdx.x * kChunks * kBlock;

    __pipeline_memcpy_async(&buf[0][t], &src[t], sizeof(int));
    __pipeline_commit();
    int acc = 0;
    for (int c = 0; c < kChunks; c++) {
        if (c + 1 < kChunks)
            __pipeline_memcpy_async(&buf[(c + 1) % 2][t], &src[(c + 1) * kBlock + t], sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(1);   /* chunk c has landed; c + 1 may be in flight */
        __syncthreads();
        acc += buf[c % 2][(t + c) % kBlock] * (c + 1);
        __syncthreads();
    }

    __pipeline_memcpy_async(&v4[t], &in4[blockIdx.x * kBlock + t], sizeof(int4));
    __pipeline_memcpy_async(&v2[t], &in2[blockIdx.x * kBlock + t], sizeof(int2));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    int4 a = v4[kBlock - 1 - t];
    int2 b = v2[(t + 1) % kBlock];
    out[blockIdx.x * kBlock + t] = acc + a.x - a.y + 2 * a.z - 3 * a.w + b.x * b.y;
}

int main()
{
    const int blocks = 2, n = blocks * kChunks * kBlock, m = blocks * kBlock;
    std::vector<int> h(n);
    std::vector<int4> h4(m);
    std::vector<int2> h2(m);
    for (int i = 0; i < n; i++)
        h[i] = (i * 19 + 3) % 73 - 36;
    for (int i = 0; i < m; i++) {
        h4[i] = make_int4(i, i * 2 + 1, i % 7, -i);
        h2[i] = make_int2(i % 11, i % 5 - 2);
    }
    int *in, *out;
    int4 *in4;
    int2 *in2;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&in4, m * sizeof(int4)));
    CK(cudaMalloc(&in2, m * sizeof(int2)));
    CK(cudaMalloc(&out, m * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(in4, h4.data(), m * sizeof(int4), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(in2, h2.data(), m * sizeof(int2), cudaMemcpyHostToDevice));
    staged<<<blocks, kBlock>>>(in, in4, in2, out);
    CK_LAUNCH();
    std::vector<int> o(m);
    CK(cudaMemcpy(o.data(), out, m * sizeof(int), cudaMemcpyDeviceToHost));
    Checker c;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < kBlock; t++) {
            int acc = 0;
            for (int k = 0; k < kChunks; k++)
                acc += h[b * kChunks * kBlock + k * kBlock + (t + k) % kBlock] * (k + 1);
            int4 a = h4[b * kBlock + kBlock - 1 - t];
            int2 v = h2[b * kBlock + (t + 1) % kBlock];
            c.eq("staged", b * kBlock + t, o[b * kBlock + t], acc + a.x - a.y + 2 * a.z - 3 * a.w + v.x * v.y);
        }
    printf("block 0 threads 0..3: %d %d %d %d; block 1 thread 63: %d\n", o[0], o[1], o[2], o[3], o[m - 1]);
    return c.finish();
}
