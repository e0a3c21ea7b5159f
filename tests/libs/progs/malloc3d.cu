// cudaMalloc3D, cudaMemcpy3D host -> pitched device array, a kernel that
// reads and writes the 3D pitched array, cudaMemcpy3D back to a host
// array of another pitch; checked on the CPU.
#include <vector>
#include "libs_check.h"

constexpr int W = 37, H = 5, D = 4;   /* floats per row, rows, slices */

__global__ void bump(cudaPitchedPtr p, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= w || y >= h || z >= d)
        return;
    char *slice = (char *)p.ptr + (size_t)z * p.pitch * h;
    float *row = (float *)(slice + (size_t)y * p.pitch);
    row[x] = row[x] * 2.0f + (float)(x + 100 * y + 10000 * z);
}

int main()
{
    cudaExtent ext = make_cudaExtent(W * sizeof(float), H, D);
    cudaPitchedPtr dev;
    CK(cudaMalloc3D(&dev, ext));
    printf("pitch holds a row: %s, pitch multiple of 4: %s, xsize %zu ysize %zu\n",
           dev.pitch >= W * sizeof(float) ? "yes" : "no", dev.pitch % 4 == 0 ? "yes" : "no", dev.xsize, dev.ysize);

    std::vector<float> src(W * H * D);
    for (int i = 0; i < W * H * D; i++)
        src[i] = (float)(i % 13) - 6.0f;
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(src.data(), W * sizeof(float), W, H);
    up.dstPtr = dev;
    up.extent = ext;
    up.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&up));

    bump<<<dim3((W + 31) / 32, H, D), 32>>>(dev, W, H, D);
    CK_LAUNCH();

    const int host_pitch = 48;   /* floats: wider than a row */
    std::vector<float> dst(host_pitch * H * D, -1.0f);
    cudaMemcpy3DParms down = {};
    down.srcPtr = dev;
    down.dstPtr = make_cudaPitchedPtr(dst.data(), host_pitch * sizeof(float), W, H);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&down));

    Checker c;
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < host_pitch; x++) {
                int i = (z * H + y) * host_pitch + x;
                float want = x < W ? src[(z * H + y) * W + x] * 2.0f + (float)(x + 100 * y + 10000 * z) : -1.0f;
                c.eq("element", i, (long long)dst[i], (long long)want);
            }
    printf("(0,0,0) %.1f (36,0,0) %.1f (0,4,0) %.1f (5,2,3) %.1f (36,4,3) %.1f, padding %.1f\n", dst[0], dst[36],
           dst[4 * host_pitch], dst[(3 * H + 2) * host_pitch + 5], dst[(3 * H + 4) * host_pitch + 36], dst[40]);
    CK(cudaFree(dev.ptr));
    return c.finish();
}
