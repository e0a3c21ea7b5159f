// cub::DeviceReduce::Sum and ::Max with the two-call temporary-storage
// pattern (first call sizes it, second reduces), against CPU results.
#include <cub/device/device_reduce.cuh>
#include <vector>
#include "libs_check.h"

int main()
{
    const int n = 3000;
    std::vector<int> h(n);
    long long want_sum = 0;
    int want_max = -1 << 30;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 131 + 7) % 2001 - 1000;
        want_sum += h[i];
        want_max = h[i] > want_max ? h[i] : want_max;
    }
    int *in, *out;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&out, 2 * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    void *tmp = nullptr;
    size_t tmp_bytes = 0;
    CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, n));
    printf("temporary storage sized: %s\n", tmp_bytes > 0 ? "yes" : "no");
    CK(cudaMalloc(&tmp, tmp_bytes));
    CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, n));
    CK(cudaDeviceSynchronize());
    CK(cudaFree(tmp));

    tmp = nullptr;
    tmp_bytes = 0;
    CK(cub::DeviceReduce::Max(tmp, tmp_bytes, in, out + 1, n));
    CK(cudaMalloc(&tmp, tmp_bytes));
    CK(cub::DeviceReduce::Max(tmp, tmp_bytes, in, out + 1, n));
    CK(cudaDeviceSynchronize());

    int got[2];
    CK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    printf("DeviceReduce::Sum = %d, DeviceReduce::Max = %d\n", got[0], got[1]);
    Checker c;
    c.eq("sum", 0, (long long)got[0], want_sum);
    c.eq("max", 0, got[1], want_max);
    return c.finish();
}
