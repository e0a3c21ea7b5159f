// Pitched, 3D and array memory through the CUDA runtime: cudaMallocPitch,
// cudaMemcpy2D and cudaMemset2D; cudaMalloc3D, cudaMemcpy3D in every
// direction with pitched pointers, positions and extents, cudaMemset3D;
// CUDA arrays (cudaMalloc3DArray, cudaMallocArray, 2D copies to and from
// them, cudaArrayGetInfo); a kernel on a pitched 3D volume; and the errors
// bad arguments get.  Every result is checked against the same operation
// done on the host.  Prints "ok"/"FAIL" lines and PASS at the end, so it
// runs unchanged on a GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                               \
    do {                                                                          \
        cudaError_t e_ = (call);                                                  \
        if (e_ != cudaSuccess) {                                                  \
            printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;
#define EXPECT(cond, what)                                                        \
    do {                                                                          \
        if (cond) printf("ok   %s\n", what);                                      \
        else { printf("FAIL %s (line %d)\n", what, __LINE__); failures++; }       \
    } while (0)

// v[z][y][x] += x + 2y + 3z over a pitched volume of floats.
__global__ void addCoords(cudaPitchedPtr p, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= w || y >= h || z >= d) return;
    char *slice = (char *)p.ptr + (size_t)z * p.pitch * p.ysize;
    float *row = (float *)(slice + (size_t)y * p.pitch);
    row[x] += x + 2 * y + 3 * z;
}

static float val(int x, int y, int z) { return (float)(x * 7 + y * 131 + z * 1009 % 97); }

int main()
{
    // 2D: pitched rows, a copy in, a memset of a sub-rectangle, a copy out
    const int W = 37, H = 5;
    float *d2;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d2, &pitch, W * sizeof(float), H));
    EXPECT(pitch >= W * sizeof(float) && pitch % 32 == 0, "cudaMallocPitch pads rows to the texture pitch alignment");
    std::vector<float> h2(W * H), back(W * H);
    for (int i = 0; i < W * H; i++) h2[i] = (float)i;
    CHECK(cudaMemcpy2D(d2, pitch, h2.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemset2D((char *)d2 + pitch + 4 * sizeof(float), pitch, 0, 3 * sizeof(float), 2));  // rows 1-2, cols 4-6
    CHECK(cudaMemcpy2D(back.data(), W * sizeof(float), d2, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = (y == 1 || y == 2) && x >= 4 && x < 7 ? 0.0f : (float)(y * W + x);
            ok = ok && back[y * W + x] == want;
        }
    EXPECT(ok, "cudaMemcpy2D in and out around cudaMemset2D of a sub-rectangle");
    cudaError_t wide = cudaMemcpy2D(d2, pitch, h2.data(), 4, 8, 1, cudaMemcpyHostToDevice);
    // cudaErrorInvalidValue, as an H200 returns (validation/results/h200_texture_probe.txt)
    EXPECT(wide == cudaErrorInvalidValue, "cudaMemcpy2D refuses a width wider than the pitch");
    if (wide != cudaErrorInvalidValue) printf("     it returned %s\n", cudaGetErrorName(wide));
    cudaGetLastError();

    // 3D: a volume with padded host slices copied in at an offset
    const int X = 19, Y = 6, Z = 4;
    cudaExtent ext = make_cudaExtent(X * sizeof(float), Y, Z);
    cudaPitchedPtr dv;
    CHECK(cudaMalloc3D(&dv, ext));
    EXPECT(dv.pitch >= X * sizeof(float) && dv.xsize == X * sizeof(float) && dv.ysize == (size_t)Y,
           "cudaMalloc3D fills the pitched pointer");
    CHECK(cudaMemset3D(dv, 0, ext));
    // host volume: rows of HX floats, slices of HY rows (bigger than the copy)
    const int HX = 24, HY = 9, HZ = 5;
    std::vector<float> host(HX * HY * HZ), out(HX * HY * HZ, -1.0f);
    for (int z = 0; z < HZ; z++)
        for (int y = 0; y < HY; y++)
            for (int x = 0; x < HX; x++) host[(z * HY + y) * HX + x] = val(x, y, z);
    cudaMemcpy3DParms in = {0};
    in.srcPtr = make_cudaPitchedPtr(host.data(), HX * sizeof(float), HX, HY);
    in.srcPos = make_cudaPos(2 * sizeof(float), 1, 1);      // bytes, rows, slices
    in.dstPtr = dv;
    in.extent = ext;
    in.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&in));
    dim3 grid((X + 31) / 32, Y, Z);
    addCoords<<<grid, 32>>>(dv, X, Y, Z);
    CHECK(cudaGetLastError());
    // device to device into a second volume, then out to the host at an offset
    cudaPitchedPtr dv2;
    CHECK(cudaMalloc3D(&dv2, ext));
    cudaMemcpy3DParms dd = {0};
    dd.srcPtr = dv;
    dd.dstPtr = dv2;
    dd.extent = ext;
    dd.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3D(&dd));
    cudaMemcpy3DParms o = {0};
    o.srcPtr = dv2;
    o.dstPtr = make_cudaPitchedPtr(out.data(), HX * sizeof(float), HX, HY);
    o.dstPos = make_cudaPos(3 * sizeof(float), 2, 0);
    o.extent = ext;
    o.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&o));
    ok = true;
    for (int z = 0; z < HZ; z++)
        for (int y = 0; y < HY; y++)
            for (int x = 0; x < HX; x++) {
                int vx = x - 3, vy = y - 2, vz = z;     // where this host element came from in the volume
                bool inside = vx >= 0 && vx < X && vy >= 0 && vy < Y && vz < Z;
                float want = inside ? val(vx + 2, vy + 1, vz + 1) + (vx + 2 * vy + 3 * vz) : -1.0f;
                ok = ok && out[(z * HY + y) * HX + x] == want;
            }
    EXPECT(ok, "cudaMemcpy3D host->device, device->device, device->host with positions, and a kernel between");

    // cudaMemset3D of a sub-box, read back whole
    cudaPitchedPtr sub = dv2;
    sub.ptr = (char *)dv2.ptr + dv2.pitch * dv2.ysize + dv2.pitch;   // slice 1, row 1
    CHECK(cudaMemset3D(sub, 0xff, make_cudaExtent(5 * sizeof(float), 2, 2)));
    std::vector<float> flat(X * Y * Z);
    cudaMemcpy3DParms f = {0};
    f.srcPtr = dv2;
    f.dstPtr = make_cudaPitchedPtr(flat.data(), X * sizeof(float), X, Y);
    f.extent = ext;
    f.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&f));
    ok = true;
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                unsigned bits;
                memcpy(&bits, &flat[(z * Y + y) * X + x], 4);
                bool set = z >= 1 && z < 3 && y >= 1 && y < 3 && x < 5;
                float want = val(x + 2, y + 1, z + 1) + (x + 2 * y + 3 * z);
                ok = ok && (set ? bits == 0xffffffffu : flat[(z * Y + y) * X + x] == want);
            }
    EXPECT(ok, "cudaMemset3D sets a box and nothing else");

    // a 3D array: in from the host, array to array, out to the host
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr, arr2;
    CHECK(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(X, Y, Z)));
    CHECK(cudaMalloc3DArray(&arr2, &fd, make_cudaExtent(X, Y, Z)));
    cudaMemcpy3DParms ta = {0};
    ta.srcPtr = make_cudaPitchedPtr(host.data(), HX * sizeof(float), HX, HY);
    ta.dstArray = arr;
    ta.extent = make_cudaExtent(X, Y, Z);      // elements, an array taking part
    ta.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&ta));
    cudaMemcpy3DParms aa = {0};
    aa.srcArray = arr;
    aa.srcPos = make_cudaPos(1, 1, 1);
    aa.dstArray = arr2;
    aa.extent = make_cudaExtent(X - 1, Y - 1, Z - 1);
    aa.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3D(&aa));
    std::vector<float> ab(X * Y * Z, -2.0f);
    cudaMemcpy3DParms fa = {0};
    fa.srcArray = arr2;
    fa.dstPtr = make_cudaPitchedPtr(ab.data(), X * sizeof(float), X, Y);
    fa.extent = make_cudaExtent(X - 1, Y - 1, Z - 1);
    fa.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&fa));
    ok = true;
    for (int z = 0; z < Z - 1; z++)
        for (int y = 0; y < Y - 1; y++)
            for (int x = 0; x < X - 1; x++) ok = ok && ab[(z * Y + y) * X + x] == val(x + 1, y + 1, z + 1);
    EXPECT(ok, "cudaMemcpy3D into a 3D array, between arrays at an offset, and out");
    cudaChannelFormatDesc gd;
    cudaExtent ge;
    unsigned int gf = 7;
    CHECK(cudaArrayGetInfo(&gd, &ge, &gf, arr));
    EXPECT(gd.x == 32 && gd.y == 0 && gd.f == cudaChannelFormatKindFloat && ge.width == X &&
           ge.height == Y && ge.depth == Z && gf == 0, "cudaArrayGetInfo");

    // a 2D array of int2: cudaMemcpy2DToArray and back
    cudaChannelFormatDesc i2 = cudaCreateChannelDesc<int2>();
    cudaArray_t a2;
    CHECK(cudaMallocArray(&a2, &i2, 10, 4));
    std::vector<int2> hi(10 * 4), ho(10 * 4);
    for (int i = 0; i < 40; i++) hi[i] = make_int2(i, -i);
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, hi.data(), 10 * sizeof(int2), 10 * sizeof(int2), 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(ho.data(), 10 * sizeof(int2), a2, 2 * sizeof(int2), 1, 8 * sizeof(int2), 3,
                                cudaMemcpyDeviceToHost));
    ok = true;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 8; x++) ok = ok && ho[y * 10 + x].x == (y + 1) * 10 + x + 2 && ho[y * 10 + x].y == -ho[y * 10 + x].x;
    EXPECT(ok, "cudaMemcpy2DToArray and cudaMemcpy2DFromArray of a sub-rectangle");
    EXPECT(cudaMemcpy2DFromArray(ho.data(), 10 * sizeof(int2), a2, 4 * sizeof(int2), 0, 8 * sizeof(int2), 1,
                                 cudaMemcpyDeviceToHost) == cudaErrorInvalidValue,
           "a copy that runs off the array's row is refused");
    cudaGetLastError();

    CHECK(cudaFreeArray(a2));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFreeArray(arr2));
    CHECK(cudaFree(dv.ptr));
    CHECK(cudaFree(dv2.ptr));
    CHECK(cudaFree(d2));
    printf(failures ? "FAIL\n" : "PASS\n");
    return failures ? 1 : 0;
}
