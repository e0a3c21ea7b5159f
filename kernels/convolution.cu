// Lab: convolution with the mask in constant memory, in 1D, 2D and 3D.
// Outside the input the value is 0 ("ghost cells").
//   conv1dNaive, conv2dNaive, conv3dNaive   one thread per output, all input
//                                          reads from global memory
//   conv1dTiled, conv2dTiled, conv3dTiled   each block loads an input tile with
//                                          its halo into shared memory (one
//                                          thread per input element), then the
//                                          threads inside the output tile compute
//
// The masks have default values (below), which main() replaces with
// cudaMemcpyToSymbol; a kernel launched on its own sees the defaults.
//
// Build and run:  nvcc -arch=sm_80 -cudart shared convolution.cu -o convolution
//                 ./convolution [n1d [side2d [side3d]]]
#include <cstdio>
#include <cstdlib>
#include <cmath>
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

#define R1 3                          // 1D mask: 7 taps
#define R2 2                          // 2D mask: 5 x 5
#define R3 1                          // 3D mask: 3 x 3 x 3
#define W1 (2 * R1 + 1)
#define W2 (2 * R2 + 1)
#define W3 (2 * R3 + 1)

#define IN_TILE1 128                  // blockDim.x of conv1dTiled
#define OUT_TILE1 (IN_TILE1 - 2 * R1)
#define IN_TILE2 16                   // blockDim (16, 16) of conv2dTiled
#define OUT_TILE2 (IN_TILE2 - 2 * R2)
#define IN_TILE3 8                    // blockDim (8, 8, 8) of conv3dTiled
#define OUT_TILE3 (IN_TILE3 - 2 * R3)

__constant__ float c_mask1[W1] = {0.1f, -0.2f, 0.3f, 0.4f, 0.3f, -0.2f, 0.1f};
__constant__ float c_mask2[W2 * W2] = {
    -0.5f, 0.125f, -0.375f, 0.25f, -0.25f, 0.375f, -0.125f, 0.5f, 0.0f, -0.5f,
    0.125f, -0.375f, 0.25f, -0.25f, 0.375f, -0.125f, 0.5f, 0.0f, -0.5f, 0.125f,
    -0.375f, 0.25f, -0.25f, 0.375f, -0.125f};
__constant__ float c_mask3[W3 * W3 * W3] = {
    -0.3125f, 0.125f, -0.125f, 0.3125f, 0.0625f, -0.1875f, 0.25f, 0.0f, -0.25f,
    0.1875f, -0.0625f, -0.3125f, 0.125f, -0.125f, 0.3125f, 0.0625f, -0.1875f, 0.25f,
    0.0f, -0.25f, 0.1875f, -0.0625f, -0.3125f, 0.125f, -0.125f, 0.3125f, 0.0625f};

__global__ void conv1dNaive(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j < W1; j++) {
            int k = i - R1 + j;
            if (k >= 0 && k < n)
                sum += c_mask1[j] * in[k];
        }
        out[i] = sum;
    }
}

__global__ void conv1dTiled(const float *in, float *out, int n)
{
    __shared__ float tile[IN_TILE1];
    int t = threadIdx.x;
    int k = blockIdx.x * OUT_TILE1 + t - R1;
    tile[t] = (k >= 0 && k < n) ? in[k] : 0.0f;
    __syncthreads();
    int o = t - R1;
    int i = blockIdx.x * OUT_TILE1 + o;
    if (o >= 0 && o < OUT_TILE1 && i < n) {
        float sum = 0.0f;
        for (int j = 0; j < W1; j++)
            sum += c_mask1[j] * tile[o + j];
        out[i] = sum;
    }
}

__global__ void conv2dNaive(const float *in, float *out, int height, int width)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < height && col < width) {
        float sum = 0.0f;
        for (int my = 0; my < W2; my++)
            for (int mx = 0; mx < W2; mx++) {
                int r = row - R2 + my, c = col - R2 + mx;
                if (r >= 0 && r < height && c >= 0 && c < width)
                    sum += c_mask2[my * W2 + mx] * in[r * width + c];
            }
        out[row * width + col] = sum;
    }
}

__global__ void conv2dTiled(const float *in, float *out, int height, int width)
{
    __shared__ float tile[IN_TILE2][IN_TILE2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * OUT_TILE2 + ty - R2;
    int c = blockIdx.x * OUT_TILE2 + tx - R2;
    tile[ty][tx] = (r >= 0 && r < height && c >= 0 && c < width) ? in[r * width + c] : 0.0f;
    __syncthreads();
    int oy = ty - R2, ox = tx - R2;
    int row = blockIdx.y * OUT_TILE2 + oy, col = blockIdx.x * OUT_TILE2 + ox;
    if (oy >= 0 && oy < OUT_TILE2 && ox >= 0 && ox < OUT_TILE2 && row < height && col < width) {
        float sum = 0.0f;
        for (int my = 0; my < W2; my++)
            for (int mx = 0; mx < W2; mx++)
                sum += c_mask2[my * W2 + mx] * tile[oy + my][ox + mx];
        out[row * width + col] = sum;
    }
}

__global__ void conv3dNaive(const float *in, float *out, int depth, int height, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (z < depth && y < height && x < width) {
        float sum = 0.0f;
        for (int mz = 0; mz < W3; mz++)
            for (int my = 0; my < W3; my++)
                for (int mx = 0; mx < W3; mx++) {
                    int zz = z - R3 + mz, yy = y - R3 + my, xx = x - R3 + mx;
                    if (zz >= 0 && zz < depth && yy >= 0 && yy < height && xx >= 0 && xx < width)
                        sum += c_mask3[(mz * W3 + my) * W3 + mx] * in[(zz * height + yy) * width + xx];
                }
        out[(z * height + y) * width + x] = sum;
    }
}

__global__ void conv3dTiled(const float *in, float *out, int depth, int height, int width)
{
    __shared__ float tile[IN_TILE3][IN_TILE3][IN_TILE3];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int zz = blockIdx.z * OUT_TILE3 + tz - R3;
    int yy = blockIdx.y * OUT_TILE3 + ty - R3;
    int xx = blockIdx.x * OUT_TILE3 + tx - R3;
    bool inside = zz >= 0 && zz < depth && yy >= 0 && yy < height && xx >= 0 && xx < width;
    tile[tz][ty][tx] = inside ? in[(zz * height + yy) * width + xx] : 0.0f;
    __syncthreads();
    int oz = tz - R3, oy = ty - R3, ox = tx - R3;
    int z = blockIdx.z * OUT_TILE3 + oz, y = blockIdx.y * OUT_TILE3 + oy, x = blockIdx.x * OUT_TILE3 + ox;
    if (oz >= 0 && oz < OUT_TILE3 && oy >= 0 && oy < OUT_TILE3 && ox >= 0 && ox < OUT_TILE3 &&
        z < depth && y < height && x < width) {
        float sum = 0.0f;
        for (int mz = 0; mz < W3; mz++)
            for (int my = 0; my < W3; my++)
                for (int mx = 0; mx < W3; mx++)
                    sum += c_mask3[(mz * W3 + my) * W3 + mx] * tile[oz + mz][oy + my][ox + mx];
        out[(z * height + y) * width + x] = sum;
    }
}

static float lcgFloat(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f * 2.0f - 1.0f;
}

// Convolution of a d x h x w volume with a (2r+1)^dims mask, on the CPU in double.
static void convCpu(const float *in, const float *mask, float *out, int d, int h, int w, int r, int dims)
{
    int mw = 2 * r + 1;
    int rz = dims == 3 ? r : 0, ry = dims >= 2 ? r : 0;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double sum = 0.0;
                for (int mz = -rz; mz <= rz; mz++)
                    for (int my = -ry; my <= ry; my++)
                        for (int mx = -r; mx <= r; mx++) {
                            int zz = z + mz, yy = y + my, xx = x + mx;
                            if (zz < 0 || zz >= d || yy < 0 || yy >= h || xx < 0 || xx >= w)
                                continue;
                            int mi = ((mz + rz) * (dims >= 2 ? mw : 1) + (my + ry)) * mw + (mx + r);
                            sum += (double)mask[mi] * in[(zz * h + yy) * w + xx];
                        }
                out[(z * h + y) * w + x] = (float)sum;
            }
}

static bool compare(const char *name, const float *got, const float *ref, size_t count, float ms)
{
    for (size_t i = 0; i < count; i++)
        if (fabsf(got[i] - ref[i]) > 1e-5f * (1.0f + fabsf(ref[i]))) {
            printf("%-12s FAIL at %zu: got %g, expected %g\n", name, i, got[i], ref[i]);
            return false;
        }
    printf("%-12s %8.3f ms  PASS\n", name, ms);
    return true;
}

int main(int argc, char **argv)
{
    int n1 = argc > 1 ? atoi(argv[1]) : 1000;
    int s2 = argc > 2 ? atoi(argv[2]) : 70;
    int s3 = argc > 3 ? atoi(argv[3]) : 20;
    if (n1 < 1 || s2 < 1 || s3 < 1) {
        fprintf(stderr, "usage: %s [n1d [side2d [side3d]]]\n", argv[0]);
        return 1;
    }
    unsigned int seed = 5;
    float mask1[W1], mask2[W2 * W2], mask3[W3 * W3 * W3];
    for (int i = 0; i < W1; i++) mask1[i] = lcgFloat(&seed);
    for (int i = 0; i < W2 * W2; i++) mask2[i] = lcgFloat(&seed);
    for (int i = 0; i < W3 * W3 * W3; i++) mask3[i] = lcgFloat(&seed);
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask1, mask1, sizeof mask1));
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask2, mask2, sizeof mask2));
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask3, mask3, sizeof mask3));

    size_t maxCount = (size_t)n1;
    if ((size_t)s2 * s2 > maxCount) maxCount = (size_t)s2 * s2;
    if ((size_t)s3 * s3 * s3 > maxCount) maxCount = (size_t)s3 * s3 * s3;
    float *in = (float *)malloc(maxCount * sizeof(float));
    float *out = (float *)malloc(maxCount * sizeof(float));
    float *ref = (float *)malloc(maxCount * sizeof(float));
    for (size_t i = 0; i < maxCount; i++)
        in[i] = lcgFloat(&seed);
    float *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, maxCount * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, maxCount * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dIn, in, maxCount * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("convolution: 1D n = %d, 2D %d x %d, 3D %d^3\n", n1, s2, s2, s3);
    const char *names[] = {"conv1dNaive", "conv1dTiled", "conv2dNaive", "conv2dTiled", "conv3dNaive", "conv3dTiled"};
    bool ok = true;
    for (int v = 0; v < 6; v++) {
        size_t count;
        if (v < 2) {
            count = n1;
            convCpu(in, mask1, ref, 1, 1, n1, R1, 1);
        } else if (v < 4) {
            count = (size_t)s2 * s2;
            convCpu(in, mask2, ref, 1, s2, s2, R2, 2);
        } else {
            count = (size_t)s3 * s3 * s3;
            convCpu(in, mask3, ref, s3, s3, s3, R3, 3);
        }
        CUDA_CHECK(cudaMemset(dOut, 0, maxCount * sizeof(float)));
        CUDA_CHECK(cudaEventRecord(start));
        switch (v) {
        case 0: conv1dNaive<<<(n1 + 255) / 256, 256>>>(dIn, dOut, n1); break;
        case 1: conv1dTiled<<<(n1 + OUT_TILE1 - 1) / OUT_TILE1, IN_TILE1>>>(dIn, dOut, n1); break;
        case 2: {
            dim3 block(16, 16), grid((s2 + 15) / 16, (s2 + 15) / 16);
            conv2dNaive<<<grid, block>>>(dIn, dOut, s2, s2);
            break;
        }
        case 3: {
            int g = (s2 + OUT_TILE2 - 1) / OUT_TILE2;
            conv2dTiled<<<dim3(g, g), dim3(IN_TILE2, IN_TILE2)>>>(dIn, dOut, s2, s2);
            break;
        }
        case 4: {
            int g = (s3 + 7) / 8;
            conv3dNaive<<<dim3(g, g, g), dim3(8, 8, 8)>>>(dIn, dOut, s3, s3, s3);
            break;
        }
        default: {
            int g = (s3 + OUT_TILE3 - 1) / OUT_TILE3;
            conv3dTiled<<<dim3(g, g, g), dim3(IN_TILE3, IN_TILE3, IN_TILE3)>>>(dIn, dOut, s3, s3, s3);
            break;
        }
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(out, dOut, count * sizeof(float), cudaMemcpyDeviceToHost));
        ok = compare(names[v], out, ref, count, ms) && ok;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    free(in); free(out); free(ref);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
