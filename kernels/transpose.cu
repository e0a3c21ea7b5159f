// Lab: matrix transpose, out (cols x rows) = transpose of in (rows x cols).
//   transposeNaive         reads coalesced, writes with a stride of `rows` floats
//   transposeShared        through a 32x32 shared tile: both global accesses
//                          coalesced, but the column read of the tile is a 32-way
//                          bank conflict
//   transposeSharedPadded  the tile padded to 33 columns: no bank conflicts
// blockDim is (32, 32) for all three.
//
// Build and run:  nvcc -arch=sm_80 -cudart shared transpose.cu -o transpose
//                 ./transpose [rows [cols]]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), \
                    __FILE__, __LINE__, cudaGetErrorString(err_));              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define TILE_DIM 32

__global__ void transposeNaive(const float *in, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[col * rows + row] = in[row * cols + col];
}

template <int PAD>
__device__ void transposeTileBody(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    // The block now writes the transposed tile: block (bx, by) -> (by, bx).
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transposeShared(const float *in, float *out, int rows, int cols)
{
    transposeTileBody<0>(in, out, rows, cols);
}

__global__ void transposeSharedPadded(const float *in, float *out, int rows, int cols)
{
    transposeTileBody<1>(in, out, rows, cols);
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 100;
    int cols = argc > 2 ? atoi(argv[2]) : rows + 3;
    if (rows < 1 || cols < 1) {
        fprintf(stderr, "usage: %s [rows [cols]]\n", argv[0]);
        return 1;
    }
    size_t count = (size_t)rows * cols, bytes = count * sizeof(float);
    float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
    unsigned int seed = 4;
    for (size_t i = 0; i < count; i++)
        in[i] = lcgFloat(&seed);

    float *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, bytes));
    CUDA_CHECK(cudaMalloc(&dOut, bytes));
    CUDA_CHECK(cudaMemcpy(dIn, in, bytes, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    printf("transpose %d x %d\n", rows, cols);
    const char *names[] = {"transposeNaive", "transposeShared", "transposeSharedPadded"};
    bool ok = true;
    for (int v = 0; v < 3; v++) {
        CUDA_CHECK(cudaMemset(dOut, 0, bytes));
        CUDA_CHECK(cudaEventRecord(start));
        if (v == 0)
            transposeNaive<<<grid, block>>>(dIn, dOut, rows, cols);
        else if (v == 1)
            transposeShared<<<grid, block>>>(dIn, dOut, rows, cols);
        else
            transposeSharedPadded<<<grid, block>>>(dIn, dOut, rows, cols);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(out, dOut, bytes, cudaMemcpyDeviceToHost));
        bool good = true;
        for (int r = 0; r < rows && good; r++)
            for (int c = 0; c < cols && good; c++)
                if (out[c * rows + r] != in[r * cols + c]) {
                    printf("%-22s FAIL at out(%d, %d): got %g, expected %g\n", names[v], c, r,
                           out[c * rows + r], in[r * cols + c]);
                    good = false;
                }
        if (good)
            printf("%-22s %8.3f ms  PASS\n", names[v], ms);
        ok = ok && good;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    free(in); free(out);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
