// thrust::sort of a few thousand ints: ascending (radix sort) and with a
// comparator (merge sort), checked against std::sort.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <algorithm>
#include <functional>
#include <vector>
#include "libs_check.h"

int main()
{
    const int n = 4000;
    std::vector<int> h(n);
    unsigned state = 12345;
    for (int i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        h[i] = (int)(state >> 8) % 100000 - 50000;
    }
    Checker c;

    thrust::device_vector<int> d(h.begin(), h.end());
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<int> up = d;
    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    for (int i = 0; i < n; i++)
        c.eq("sort", i, up[i], want[i]);
    printf("sort ascending: %d %d %d ... %d %d\n", up[0], up[1], up[2], up[n - 2], up[n - 1]);

    d = h;
    thrust::sort(d.begin(), d.end(), thrust::greater<int>());
    thrust::host_vector<int> down = d;
    std::sort(want.begin(), want.end(), std::greater<int>());
    for (int i = 0; i < n; i++)
        c.eq("sort_greater", i, down[i], want[i]);
    printf("sort descending: %d %d %d ... %d %d\n", down[0], down[1], down[2], down[n - 2], down[n - 1]);
    return c.finish();
}
