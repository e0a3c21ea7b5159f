// thrust::transform, thrust::reduce and thrust::inclusive_scan on a few
// thousand ints, checked against the same computation on the CPU.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <vector>
#include "libs_check.h"

struct affine {
    __host__ __device__ int operator()(int x) const { return 3 * x + 1; }
};

int main()
{
    const int n = 3000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 37 + 11) % 1000 - 500;
    thrust::device_vector<int> x(h.begin(), h.end()), y(n), s(n);
    Checker c;

    thrust::transform(x.begin(), x.end(), y.begin(), affine());
    thrust::host_vector<int> hy = y;
    for (int i = 0; i < n; i++)
        c.eq("transform", i, hy[i], 3 * h[i] + 1);
    printf("transform y[0..4] = %d %d %d %d %d\n", hy[0], hy[1], hy[2], hy[3], hy[4]);

    long long want_sum = 0;
    for (int i = 0; i < n; i++)
        want_sum += 3 * h[i] + 1;
    int sum = thrust::reduce(y.begin(), y.end());
    c.eq("reduce", 0, (long long)sum, want_sum);
    int maxv = thrust::reduce(x.begin(), x.end(), -1000000, thrust::maximum<int>());
    int want_max = -1000000;
    for (int v : h)
        want_max = v > want_max ? v : want_max;
    c.eq("reduce_max", 0, maxv, want_max);
    printf("reduce sum = %d, max = %d\n", sum, maxv);

    thrust::inclusive_scan(x.begin(), x.end(), s.begin());
    thrust::host_vector<int> hs = s;
    int run = 0;
    for (int i = 0; i < n; i++) {
        run += h[i];
        c.eq("inclusive_scan", i, hs[i], run);
    }
    printf("inclusive_scan s[0..3] = %d %d %d %d, s[%d] = %d\n", hs[0], hs[1], hs[2], hs[3], n - 1, hs[n - 1]);
    return c.finish();
}
