// PMPP ch 8 (stencils) as an iterative lab: heat diffusion on a square
// plate by Jacobi sweeps, two grids in turn, each sweep a launch: first a
// student's first solver (the five-point stencil read straight from global
// memory), then the tiled one (each block's tile and its halo loaded into
// shared memory once).  The top edge is held at 100 degrees, the others at
// 0; after the sweeps each grid is checked against the CPU's.
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

#define IN_TILE 16
#define OUT_TILE (IN_TILE - 2)

__global__ void jacobi_sweep_tiled(const float* in, float* out, int n) {
    __shared__ float tile[IN_TILE][IN_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * OUT_TILE + tx, y = blockIdx.y * OUT_TILE + ty;   // the tile starts one before its outputs
    if (x < n && y < n) tile[ty][tx] = in[y * n + x];
    __syncthreads();
    if (tx >= 1 && tx < IN_TILE - 1 && ty >= 1 && ty < IN_TILE - 1 && x < n - 1 && y < n - 1)
        out[y * n + x] = 0.25f * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]);
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

    std::vector<float> cur = plate, next = plate;
    for (int s = 0; s < sweeps; s++) { sweep_cpu(cur, next, n); cur.swap(next); }

    float *a, *b;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    bool ok = true;
    for (int tiled = 0; tiled < 2; tiled++) {
        CHECK(cudaMemcpy(a, plate.data(), bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(b, plate.data(), bytes, cudaMemcpyHostToDevice));
        dim3 block(16, 16);
        int tiles = (n - 2 + OUT_TILE - 1) / OUT_TILE;
        dim3 grid = tiled ? dim3(tiles, tiles) : dim3((n + 15) / 16, (n + 15) / 16);
        CHECK(cudaEventRecord(start));
        for (int s = 0; s < sweeps; s++) {
            if (tiled) jacobi_sweep_tiled<<<grid, block>>>(a, b, n);
            else jacobi_sweep<<<grid, block>>>(a, b, n);
            float* t = a; a = b; b = t;                      // the new grid is read next
        }
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        std::vector<float> got((size_t)n * n);
        CHECK(cudaMemcpy(got.data(), a, bytes, cudaMemcpyDeviceToHost));
        double maxerr = 0, heat = 0;
        for (size_t i = 0; i < got.size(); i++) {
            maxerr = fmax(maxerr, fabs((double)got[i] - cur[i]));
            heat += got[i];
        }
        const char* name = tiled ? "jacobi_sweep_tiled" : "jacobi_sweep";
        printf("%s %d x %d, %d sweeps: %.3f ms (%.4f ms a sweep), heat %.3f\n", name, n, n, sweeps, ms, ms / sweeps,
               heat);
        printf("%-22s %s (max abs err %.3g)\n", name, maxerr <= 1e-4 ? "PASS" : "FAIL", maxerr);
        ok &= maxerr <= 1e-4;
    }
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(a)); CHECK(cudaFree(b));
    printf("%s\n", ok ? "ALL PASS" : "SOME FAIL");
    return ok ? 0 : 1;
}
