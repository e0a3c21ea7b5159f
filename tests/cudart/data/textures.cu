// Texture objects through the CUDA runtime, each fetch checked against a
// host reference written from the CUDA C++ Programming Guide's "Texture
// Fetching" appendix: tex1Dfetch on linear memory (float, int4; 0 out of
// range); tex2D on pitch2D memory with clamp and border addressing, point
// and linear filtering (weights in 9-bit fixed point); tex1D on a 1D array
// with normalized coordinates, wrap and mirror; tex3D on a 3D array with
// trilinear filtering; an uchar4 array read as normalized floats;
// tex2Dgather; and the resource and texture descriptions read back.
// Prints "ok"/"FAIL" lines and PASS at the end, so it runs unchanged on a
// GPU (which is how the reference itself is checked).
#include <cmath>
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

// ---- kernels: one fetch per thread -------------------------------------

__global__ void fetchFloat(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i - 2);
}

__global__ void fetchInt4(cudaTextureObject_t t, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int4>(t, i - 1);
}

__global__ void sample1D(cudaTextureObject_t t, const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, x[i]);
}

__global__ void sample2D(cudaTextureObject_t t, const float2 *xy, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, xy[i].x, xy[i].y);
}

__global__ void sample2D4(cudaTextureObject_t t, const float2 *xy, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}

__global__ void sample3D(cudaTextureObject_t t, const float4 *xyz, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, xyz[i].x, xyz[i].y, xyz[i].z);
}

__global__ void gather2D(cudaTextureObject_t t, const float2 *xy, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2Dgather<float4>(t, xy[i].x, xy[i].y, 0);
}

// ---- the host reference --------------------------------------------------

struct RefTex {
    std::vector<float> v;      // one channel, x fastest
    int w, h, d;
    cudaTextureAddressMode mode[3];
    bool linear, normalized;
    float border;
};

static long addr(long i, int n, cudaTextureAddressMode m)
{
    if (m == cudaAddressModeWrap) return ((i % n) + n) % n;
    if (m == cudaAddressModeMirror) {
        long p = 2L * n, k = ((i % p) + p) % p;
        return k < n ? k : p - 1 - k;
    }
    if (m == cudaAddressModeBorder) return i < 0 || i >= n ? -1 : i;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static float texel(const RefTex &t, long x, long y, long z)
{
    long ax = addr(x, t.w, t.mode[0]), ay = addr(y, t.h, t.mode[1]), az = addr(z, t.d, t.mode[2]);
    if (ax < 0 || ay < 0 || az < 0) return t.border;
    return t.v[(az * t.h + ay) * t.w + ax];
}

// The guide: x scaled by the size if normalized; point: floor(x); linear:
// xB = x - 0.5, i = floor(xB), alpha = frac(xB) in 9-bit fixed point.
static float fetch(const RefTex &t, float x, float y, float z, int dims)
{
    float c[3] = {x, y, z};
    int n[3] = {t.w, t.h, t.d};
    long i[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++) {
        float u = t.normalized ? c[k] * n[k] : c[k];
        if (t.linear) u -= 0.5f;
        i[k] = (long)floorf(u);
        a[k] = t.linear ? rintf((u - (float)i[k]) * 256.0f) / 256.0f : 0.0f;
    }
    float r = 0.0f;
    for (int corner = 0; corner < (1 << dims); corner++) {
        float wgt = 1.0f;
        long j[3] = {i[0], i[1], i[2]};
        for (int k = 0; k < dims; k++) {
            int hi = corner >> k & 1;
            j[k] += hi;
            wgt *= hi ? a[k] : 1.0f - a[k];
            // The H200 rounds a 2D texel's weight to 8 fractional bits too.
            if (k == 1) wgt = rintf(wgt * 256.0f) / 256.0f;
        }
        if (wgt != 0.0f) r += wgt * texel(t, j[0], j[1], j[2]);
    }
    return r;
}

static bool close(float got, float want)
{
    return fabsf(got - want) <= 1e-5f * fmaxf(1.0f, fabsf(want));
}

// The first few samples that differ from the reference, to see why.
static void show_misses(const char *what, const std::vector<float> &g, const std::vector<float> &want,
                        const float *x, const float *y, const float *z, int n)
{
    int shown = 0;
    for (int i = 0; i < n && shown < 4; i++)
        if (!close(g[i], want[i])) {
            printf("     %s: sample %d at (%.6f, %.6f, %.6f): got %.7g want %.7g\n", what, i, x[i],
                   y ? y[i] : 0.0f, z ? z[i] : 0.0f, g[i], want[i]);
            shown++;
        }
}

// A coordinate in [lo, hi) on a grid of 1/32 texel, offset by 1/64: never
// within 1/64 of a texel boundary, and with a fraction that 8 bits hold, so
// that how a GPU rounds coordinates to its fixed-point format cannot move
// a fetch to another texel or another weight.
static float frand(unsigned *s, float lo, float hi)
{
    *s = *s * 1664525u + 1013904223u;
    int steps = (int)((hi - lo) * 32.0f);
    return lo + (float)((*s >> 8) % (unsigned)steps) / 32.0f + 1.0f / 64.0f;
}

static cudaTextureDesc texDesc(cudaTextureAddressMode m, cudaTextureFilterMode f, bool normalized,
                               cudaTextureReadMode r = cudaReadModeElementType)
{
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = m;
    td.filterMode = f;
    td.readMode = r;
    td.normalizedCoords = normalized;
    return td;
}

template <typename T> static T *upload(const std::vector<T> &h)
{
    T *d;
    CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T> static std::vector<T> download(const T *d, size_t n)
{
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// ---- the cases -----------------------------------------------------------

static void linearMemory()
{
    const int N = 50;
    std::vector<float> f(N);
    std::vector<int4> q(N);
    for (int i = 0; i < N; i++) {
        f[i] = 0.25f * i - 3.0f;
        q[i] = make_int4(i, -i, i * i, 7 - i);
    }
    float *df = upload(f);
    int4 *dq = upload(q);
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = df;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = N * sizeof(float);
    cudaTextureDesc td = texDesc(cudaAddressModeClamp, cudaFilterModePoint, false);
    cudaTextureObject_t tf, tq;
    CHECK(cudaCreateTextureObject(&tf, &rd, &td, NULL));
    rd.res.linear.devPtr = dq;
    rd.res.linear.desc = cudaCreateChannelDesc<int4>();
    rd.res.linear.sizeInBytes = N * sizeof(int4);
    CHECK(cudaCreateTextureObject(&tq, &rd, &td, NULL));
    float *of;
    int4 *oq;
    CHECK(cudaMalloc(&of, (N + 4) * sizeof(float)));
    CHECK(cudaMalloc(&oq, (N + 2) * sizeof(int4)));
    fetchFloat<<<1, N + 4>>>(tf, of, N + 4);
    fetchInt4<<<1, N + 2>>>(tq, oq, N + 2);
    std::vector<float> gf = download(of, N + 4);
    std::vector<int4> gq = download(oq, N + 2);
    bool ok = true;
    for (int i = 0; i < N + 4; i++) {
        int k = i - 2;
        ok = ok && gf[i] == (k >= 0 && k < N ? f[k] : 0.0f);
    }
    EXPECT(ok, "tex1Dfetch<float> on linear memory, 0 outside it");
    ok = true;
    for (int i = 0; i < N + 2; i++) {
        int k = i - 1;
        int4 w = k >= 0 && k < N ? q[k] : make_int4(0, 0, 0, 0);
        ok = ok && gq[i].x == w.x && gq[i].y == w.y && gq[i].z == w.z && gq[i].w == w.w;
    }
    EXPECT(ok, "tex1Dfetch<int4> on linear memory");
    cudaResourceDesc back;
    CHECK(cudaGetTextureObjectResourceDesc(&back, tq));
    EXPECT(back.resType == cudaResourceTypeLinear && back.res.linear.devPtr == dq &&
           back.res.linear.sizeInBytes == N * sizeof(int4) && back.res.linear.desc.w == 32,
           "cudaGetTextureObjectResourceDesc gives the description back");
    CHECK(cudaDestroyTextureObject(tf));
    CHECK(cudaDestroyTextureObject(tq));
    CHECK(cudaFree(df));
    CHECK(cudaFree(dq));
    CHECK(cudaFree(of));
    CHECK(cudaFree(oq));
}

static void pitch2D()
{
    const int W = 13, H = 7, N = 256;
    RefTex r;
    r.w = W; r.h = H; r.d = 1;
    r.v.resize(W * H);
    for (int i = 0; i < W * H; i++) r.v[i] = (float)((i * 37) % 101) - 50.0f;
    float *d;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(d, pitch, r.v.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = d;
    rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    rd.res.pitch2D.width = W;
    rd.res.pitch2D.height = H;
    rd.res.pitch2D.pitchInBytes = pitch;
    std::vector<float2> xy(N);
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) xy[i] = make_float2(frand(&seed, -2.0f, W + 2.0f), frand(&seed, -2.0f, H + 2.0f));
    xy[0] = make_float2(2.3f, 1.5f);        // alpha 0.8: 205/256 in 9-bit fixed point, not 0.8
    float2 *dxy = upload(xy);
    float *out;
    CHECK(cudaMalloc(&out, N * sizeof(float)));
    struct { cudaTextureAddressMode m; cudaTextureFilterMode f; const char *what; } cases[] = {
        {cudaAddressModeClamp, cudaFilterModePoint, "tex2D on pitch2D memory: clamp, point"},
        {cudaAddressModeBorder, cudaFilterModePoint, "tex2D on pitch2D memory: border, point"},
        {cudaAddressModeClamp, cudaFilterModeLinear, "tex2D on pitch2D memory: clamp, bilinear"},
        {cudaAddressModeBorder, cudaFilterModeLinear, "tex2D on pitch2D memory: border, bilinear"},
    };
    for (auto &c : cases) {
        cudaTextureDesc td = texDesc(c.m, c.f, false);
        td.borderColor[0] = 9.5f;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        sample2D<<<(N + 63) / 64, 64>>>(t, dxy, out, N);
        std::vector<float> g = download(out, N);
        r.mode[0] = r.mode[1] = r.mode[2] = c.m;
        r.linear = c.f == cudaFilterModeLinear;
        r.normalized = false;
        r.border = 9.5f;
        bool ok = true;
        std::vector<float> want(N), px(N), py(N);
        for (int i = 0; i < N; i++) {
            want[i] = fetch(r, xy[i].x, xy[i].y, 0, 2);
            px[i] = xy[i].x;
            py[i] = xy[i].y;
            ok = ok && close(g[i], want[i]);
        }
        EXPECT(ok, c.what);
        if (!ok) show_misses(c.what, g, want, px.data(), py.data(), NULL, N);
        if (r.linear && c.m == cudaAddressModeClamp) {
            float v10 = r.v[1 * W + 1], v20 = r.v[1 * W + 2];   // rows 1 and 2 weigh 1 and 0 at y 1.5
            EXPECT(close(g[0], v10 + (v20 - v10) * (205.0f / 256.0f)) || v10 == v20,
                   "bilinear weights are held in 9-bit fixed point");
            cudaTextureDesc tback;
            CHECK(cudaGetTextureObjectTextureDesc(&tback, t));
            EXPECT(tback.filterMode == cudaFilterModeLinear && tback.addressMode[1] == cudaAddressModeClamp,
                   "cudaGetTextureObjectTextureDesc gives the description back");
        }
        CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFree(d));
    CHECK(cudaFree(dxy));
    CHECK(cudaFree(out));
}

static void array1DNormalized()
{
    const int W = 10, N = 200;
    RefTex r;
    r.w = W; r.h = 1; r.d = 1;
    r.v.resize(W);
    for (int i = 0; i < W; i++) r.v[i] = (float)(i * i) - 20.0f;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fd, W));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, r.v.data(), W * sizeof(float), W * sizeof(float), 1, cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    std::vector<float> x(N);
    unsigned seed = 777;
    for (int i = 0; i < N; i++) x[i] = frand(&seed, -25.0f, 25.0f) / W;    // normalized
    float *dx = upload(x), *out;
    CHECK(cudaMalloc(&out, N * sizeof(float)));
    struct { cudaTextureAddressMode m; cudaTextureFilterMode f; const char *what; } cases[] = {
        {cudaAddressModeWrap, cudaFilterModePoint, "tex1D on a 1D array, normalized: wrap, point"},
        {cudaAddressModeMirror, cudaFilterModePoint, "tex1D on a 1D array, normalized: mirror, point"},
        {cudaAddressModeWrap, cudaFilterModeLinear, "tex1D on a 1D array, normalized: wrap, linear"},
        {cudaAddressModeMirror, cudaFilterModeLinear, "tex1D on a 1D array, normalized: mirror, linear"},
    };
    for (auto &c : cases) {
        cudaTextureDesc td = texDesc(c.m, c.f, true);
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        sample1D<<<(N + 63) / 64, 64>>>(t, dx, out, N);
        std::vector<float> g = download(out, N);
        r.mode[0] = r.mode[1] = r.mode[2] = c.m;
        r.linear = c.f == cudaFilterModeLinear;
        r.normalized = true;
        bool ok = true;
        for (int i = 0; i < N; i++) ok = ok && close(g[i], fetch(r, x[i], 0, 0, 1));
        EXPECT(ok, c.what);
        CHECK(cudaDestroyTextureObject(t));
    }
    // unnormalized coordinates: wrap becomes clamp, as the runtime documents
    cudaTextureDesc td = texDesc(cudaAddressModeWrap, cudaFilterModePoint, false);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    for (int i = 0; i < N; i++) x[i] = frand(&seed, -5.0f, W + 5.0f);
    CHECK(cudaMemcpy(dx, x.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    sample1D<<<(N + 63) / 64, 64>>>(t, dx, out, N);
    std::vector<float> g = download(out, N);
    r.mode[0] = cudaAddressModeClamp;
    r.linear = r.normalized = false;
    bool ok = true;
    for (int i = 0; i < N; i++) ok = ok && close(g[i], fetch(r, x[i], 0, 0, 1));
    EXPECT(ok, "wrap without normalized coordinates acts as clamp");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(out));
}

static void array3D()
{
    const int X = 6, Y = 5, Z = 4, N = 256;
    RefTex r;
    r.w = X; r.h = Y; r.d = Z;
    r.v.resize(X * Y * Z);
    for (int i = 0; i < X * Y * Z; i++) r.v[i] = (float)((i * 53) % 89) * 0.5f;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(X, Y, Z)));
    cudaMemcpy3DParms p = {0};
    p.srcPtr = make_cudaPitchedPtr(r.v.data(), X * sizeof(float), X, Y);
    p.dstArray = a;
    p.extent = make_cudaExtent(X, Y, Z);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = texDesc(cudaAddressModeClamp, cudaFilterModeLinear, false);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    std::vector<float4> c(N);
    unsigned seed = 99;
    for (int i = 0; i < N; i++)
        c[i] = make_float4(frand(&seed, -1, X + 1), frand(&seed, -1, Y + 1), frand(&seed, -1, Z + 1), 0);
    float4 *dc = upload(c);
    float *out;
    CHECK(cudaMalloc(&out, N * sizeof(float)));
    sample3D<<<(N + 63) / 64, 64>>>(t, dc, out, N);
    std::vector<float> g = download(out, N);
    r.mode[0] = r.mode[1] = r.mode[2] = cudaAddressModeClamp;
    r.linear = true;
    r.normalized = false;
    bool ok = true;
    std::vector<float> want(N), px(N), py(N), pz(N);
    for (int i = 0; i < N; i++) {
        want[i] = fetch(r, c[i].x, c[i].y, c[i].z, 3);
        px[i] = c[i].x; py[i] = c[i].y; pz[i] = c[i].z;
        // Within 0.5 % of the texels' range (0..44): an H200's trilinear
        // weights round in a way the reference does not pin down, up to 0.1
        // away in rare samples.
        ok = ok && fabsf(g[i] - want[i]) <= 0.22f;
    }
    EXPECT(ok, "tex3D on a 3D array: clamp, trilinear");
    if (!ok) show_misses("tex3D", g, want, px.data(), py.data(), pz.data(), N);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(out));
}

static void uchar4Normalized()
{
    const int W = 8, H = 4, N = 64;
    std::vector<uchar4> px(W * H);
    for (int i = 0; i < W * H; i++)
        px[i] = make_uchar4((unsigned char)(i * 8), (unsigned char)(255 - i), (unsigned char)(i * 31), 255);
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fd, W, H, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, px.data(), W * sizeof(uchar4), W * sizeof(uchar4), H, cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = texDesc(cudaAddressModeClamp, cudaFilterModePoint, true, cudaReadModeNormalizedFloat);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    std::vector<float2> xy(N);
    for (int i = 0; i < N; i++) xy[i] = make_float2(((i % W) + 0.5f) / W, ((i / W % H) + 0.5f) / H);
    float2 *dxy = upload(xy);
    float4 *out;
    CHECK(cudaMalloc(&out, N * sizeof(float4)));
    sample2D4<<<1, N>>>(t, dxy, out, N);
    std::vector<float4> g = download(out, N);
    bool ok = true;
    for (int i = 0; i < N; i++) {
        uchar4 p = px[(i / W % H) * W + i % W];
        ok = ok && g[i].x == p.x / 255.0f && g[i].y == p.y / 255.0f && g[i].z == p.z / 255.0f && g[i].w == 1.0f;
    }
    EXPECT(ok, "uchar4 texels read as normalized floats");
    CHECK(cudaDestroyTextureObject(t));

    // tex2Dgather of the red channel at texel corners
    RefTex r;
    r.w = W; r.h = H; r.d = 1;
    r.v.resize(W * H);
    for (int i = 0; i < W * H; i++) r.v[i] = px[i].x / 255.0f;
    r.mode[0] = r.mode[1] = r.mode[2] = cudaAddressModeClamp;
    td = texDesc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat);
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    unsigned seed = 4242;
    for (int i = 0; i < N; i++) xy[i] = make_float2(frand(&seed, -1, W + 1), frand(&seed, -1, H + 1));
    CHECK(cudaMemcpy(dxy, xy.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
    gather2D<<<1, N>>>(t, dxy, out, N);
    g = download(out, N);
    ok = true;
    for (int i = 0; i < N; i++) {
        long x0 = (long)floorf(xy[i].x - 0.5f), y0 = (long)floorf(xy[i].y - 0.5f);
        // counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j)
        ok = ok && g[i].x == texel(r, x0, y0 + 1, 0) && g[i].y == texel(r, x0 + 1, y0 + 1, 0) &&
             g[i].z == texel(r, x0 + 1, y0, 0) && g[i].w == texel(r, x0, y0, 0);
    }
    EXPECT(ok, "tex2Dgather returns the four texels of the bilinear footprint");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(dxy));
    CHECK(cudaFree(out));
}

int main()
{
    linearMemory();
    pitch2D();
    array1DNormalized();
    array3D();
    uchar4Normalized();
    printf(failures ? "FAIL\n" : "PASS\n");
    return failures ? 1 : 0;
}
