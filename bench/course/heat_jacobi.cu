// PMPP ch 8 (stencils) as an iterative lab: heat diffusion on a square
// plate by Jacobi sweeps, two grids in turn, each sweep a launch
// (a student's first solver: no shared memory, the five-point stencil read
// straight from global memory).  The top edge is held at 100 degrees, the
// others at 0; after the sweeps the grid is checked against the CPU's.
//   heat_jacobi [N] [SWEEPS]     (default 512 200)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

__global__ void jacobi_sweep(const float* in, float* out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x <= 0 || y <= 0 || x >= n - 1 || y >= n - 1) return;    // the edges keep their temperature
    out[y * n + x] = 0.25f * (in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}

static void sweep_cpu(const std::vector<float>& in, std::vector<float>& out, int n) {
    for (int y = 1; y < n - 1; y++)
        for (int x = 1; x < n - 1; x++)
            out[y * n + x] = 0.25f * (in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int sweeps = argc > 2 ? atoi(argv[2]) : 200;
    size_t bytes = (size_t)n * n * sizeof(float);
    std::vector<float> plate((size_t)n * n, 0.0f);
    for (int x = 0; x < n; x++) plate[x] = 100.0f;          // the hot edge

    float *a, *b;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemcpy(a, plate.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, plate.data(), bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int s = 0; s < sweeps; s++) {
        jacobi_sweep<<<grid, block>>>(a, b, n);
        float* t = a; a = b; b = t;                          // the new grid is read next
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));

    std::vector<float> got((size_t)n * n), cur = plate, next = plate;
    CHECK(cudaMemcpy(got.data(), a, bytes, cudaMemcpyDeviceToHost));
    for (int s = 0; s < sweeps; s++) { sweep_cpu(cur, next, n); cur.swap(next); }
    double maxerr = 0, heat = 0;
    for (size_t i = 0; i < got.size(); i++) {
        maxerr = fmax(maxerr, fabs((double)got[i] - cur[i]));
        heat += got[i];
    }
    bool ok = maxerr <= 1e-4;
    printf("heat_jacobi %d x %d, %d sweeps: %.3f ms (%.4f ms a sweep), heat %.3f\n", n, n, sweeps, ms, ms / sweeps,
           heat);
    printf("%-22s %s (max abs err %.3g)\n", "jacobi_sweep", ok ? "PASS" : "FAIL", maxerr);
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(a)); CHECK(cudaFree(b));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
