// Ground-truth probe for warpsim's warp operations, run on a real GPU.
// Its output, gpu_probe_sm90.txt beside it (NVIDIA H200, CUDA 13.0,
// nvcc -arch=sm_90 -o gpuprobe gpu_probe.cu; ./gpuprobe), is the oracle the
// tests in tests/warpops/ replay: shuffles, votes, float atomics, the wmma
// fragment layout and device printf formatting.
#include <cstdio>
#include <cstdint>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__device__ uint32_t shfl(int mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask, uint32_t *p)
{
    uint32_t d, pp;
    switch (mode) {
    case 0: asm volatile("{.reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, %5; selp.u32 %1,1,0,q;}" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c), "r"(mask)); break;
    case 1: asm volatile("{.reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, %5; selp.u32 %1,1,0,q;}" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c), "r"(mask)); break;
    case 2: asm volatile("{.reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, %5; selp.u32 %1,1,0,q;}" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c), "r"(mask)); break;
    default: asm volatile("{.reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, %5; selp.u32 %1,1,0,q;}" : "=r"(d), "=r"(pp) : "r"(a), "r"(b), "r"(c), "r"(mask)); break;
    }
    *p = pp;
    return d;
}

struct ShflCase { int mode; uint32_t b, c; };
__constant__ ShflCase cases[] = {
    {0, 1, 0x0}, {0, 2, 0x1000}, {0, 5, 0x1800}, {0, 3, 0x0C00}, {0, 33, 0x0}, {0, 1, 0x1F},
    {1, 1, 0x1F}, {1, 16, 0x1F}, {1, 1, 0x101F}, {1, 3, 0x181F}, {1, 2, 0x0F}, {1, 1, 0x0C1F}, {1, 40, 0x1F},
    {2, 1, 0x1F}, {2, 16, 0x1F}, {2, 16, 0x101F}, {2, 4, 0x181F}, {2, 8, 0x7}, {2, 0x23, 0x1F},
    {3, 5, 0x1F}, {3, 5, 0x101F}, {3, 21, 0x101F}, {3, 7, 0x181F}, {3, 20, 0x0F}, {3, 37, 0x1F}, {3, 3, 0x0A15},
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

__global__ void kshfl(uint32_t *d, uint32_t *p)
{
    int lane = threadIdx.x;
    for (int i = 0; i < NCASES; i++) {
        uint32_t pp;
        d[i * 32 + lane] = shfl(cases[i].mode, 100 + lane, cases[i].b, cases[i].c, 0xffffffffu, &pp);
        p[i * 32 + lane] = pp;
    }
    // Partial warp: only even lanes execute; odd sources are not participating.
    if ((lane & 1) == 0) {
        uint32_t pp;
        d[NCASES * 32 + lane] = shfl(1, 100 + lane, 1, 0x1F, 0x55555555u, &pp);
        p[NCASES * 32 + lane] = pp;
        d[(NCASES + 1) * 32 + lane] = shfl(1, 100 + lane, 2, 0x1F, 0x55555555u, &pp);
        p[(NCASES + 1) * 32 + lane] = pp;
    }
}

__global__ void kvote(uint32_t *out)
{
    int lane = threadIdx.x;
    if (lane < 20) {
        unsigned m = 0x000fffffu;
        int pr = lane % 3 == 0;
        out[0] = __ballot_sync(m, pr);
        out[1 + lane] = __all_sync(m, pr) | (__any_sync(m, pr) << 1) | (__all_sync(m, lane < 30) << 2);
        unsigned u;
        asm volatile("{.reg .pred q; .reg .pred r; setp.ne.s32 r, %1, 0; vote.sync.uni.pred q, r, %2; selp.u32 %0,1,0,q;}" : "=r"(u) : "r"(pr), "r"(m));
        out[21 + lane] = u;
        asm volatile("{.reg .pred q; .reg .pred r; setp.ne.s32 r, %1, 0; vote.sync.uni.pred q, r, %2; selp.u32 %0,1,0,q;}" : "=r"(u) : "r"(1), "r"(m));
        out[41 + lane] = u;
    }
}

// Float atomics: subnormal handling and min/max rules.
__global__ void katomf(float *g, uint32_t *res)
{
    __shared__ float s[8];
    if (threadIdx.x == 0) {
        float sub = __uint_as_float(0x00400000u);       // 2^-127, subnormal
        float sub2 = __uint_as_float(0x00000001u);      // smallest subnormal
        g[0] = 0.0f; atomicAdd(&g[0], sub);             // 0 + sub
        g[1] = sub; atomicAdd(&g[1], 0.0f);             // sub + 0
        g[2] = sub; atomicAdd(&g[2], sub);              // sub + sub = 2^-126 normal if no ftz
        g[3] = 1.0f; atomicAdd(&g[3], __uint_as_float(0x33800001u));  // 1 + (2^-24 + ulp): rounding
        g[4] = __uint_as_float(0x00800000u); atomicAdd(&g[4], -sub2); // min normal - tiny = subnormal result
        s[0] = 0.0f; atomicAdd(&s[0], sub);
        s[1] = sub; atomicAdd(&s[1], sub);
        s[2] = __uint_as_float(0x00800000u); atomicAdd(&s[2], -sub2);
        g[5] = 1.0f; atomicAdd(&g[5], __uint_as_float(0x33800000u)); // 1 + 2^-24: tie -> even
        g[6] = __uint_as_float(0x3f800001u); atomicAdd(&g[6], __uint_as_float(0x33800000u)); // tie -> up
        g[7] = __int_as_float(0x7f800000); atomicAdd(&g[7], __int_as_float(0xff800000)); // inf + -inf
        g[8] = __int_as_float(0x7fc00001); atomicAdd(&g[8], 1.0f); // NaN payload
        double *gd = (double *)&g[16];
        gd[0] = 4.9406564584124654e-324; atomicAdd(&gd[0], 4.9406564584124654e-324);
        __syncthreads();
        for (int i = 0; i < 3; i++) res[i] = __float_as_uint(s[i]);
    } else {
        __syncthreads();
    }
}

__global__ void katomi(uint32_t *g)
{
    if (threadIdx.x == 0) {
        g[0] = 5; atomicInc(&g[0], 5);   // old >= b -> 0
        g[1] = 4; atomicInc(&g[1], 5);   // 5
        g[2] = 9; atomicInc(&g[2], 5);   // >b -> 0
        g[3] = 0; atomicDec(&g[3], 5);   // 0 -> b
        g[4] = 7; atomicDec(&g[4], 5);   // >b -> b
        g[5] = 3; atomicDec(&g[5], 5);   // 2
        g[6] = 0xffffffffu; atomicAdd(&g[6], 2u);
        g[7] = 0x80000000u; atomicMin((int *)&g[7], 5);
        g[8] = 0x80000000u; atomicMin(&g[8], 5u);
        g[9] = 7; atomicCAS(&g[9], 7u, 42u);
        g[10] = 7; atomicCAS(&g[10], 8u, 42u);
    }
}

// wmma fragment mapping: element values = their linear index, so each
// fragment element names the matrix element it holds.
__global__ void kwmma(const half *m16, const float *m32, float *out)
{
    int lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> ar;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> ac;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> br;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> ch;
    wmma::load_matrix_sync(ar, m16, 16);
    wmma::load_matrix_sync(ac, m16, 16);
    wmma::load_matrix_sync(br, m16, 16);
    wmma::load_matrix_sync(bc, m16, 16);
    wmma::load_matrix_sync(cf, m32, 16, wmma::mem_row_major);
    float *o = out + lane * 96;
    for (int i = 0; i < 16; i++) { o[i] = __half2float(ar.x[i]); o[16 + i] = __half2float(ac.x[i]);
        o[32 + i] = __half2float(br.x[i]); o[48 + i] = __half2float(bc.x[i]); }
    for (int i = 0; i < 8; i++) o[64 + i] = cf.x[i];
    wmma::load_matrix_sync(cf, m32, 16, wmma::mem_col_major);
    for (int i = 0; i < 8; i++) o[72 + i] = cf.x[i];
    wmma::load_matrix_sync(ch, m16, 16, wmma::mem_row_major);
    for (int i = 0; i < 8; i++) o[80 + i] = __half2float(ch.x[i]);
    o[88] = ar.num_elements; o[89] = cf.num_elements; o[90] = ch.num_elements;
}

__global__ void kprintf(const char *s)
{
    printf("[%d|%5d|%-5d|%05d|%+d|% d|%x|%X|%#x|%o|%#o|%u]\n", -42, 42, 42, 42, 42, 42, 255, 255, 255, 8, 8, 4000000000u);
    printf("[%ld|%lld|%lu|%llx|%hd|%hhd|%hu|%zu]\n", -1234567890123L, 1234567890123LL, 18446744073709551615UL, 0xdeadbeefcafeULL, 70000, 300, 70000, (size_t)77);
    printf("[%f|%.2f|%10.3f|%-10.1f|%e|%E|%g|%G|%a|%A]\n", 3.14159f, 2.71828, -1.5, 0.25, 12345.678, 0.000123, 0.0001, 1e20, 1.0, 0.5);
    printf("[%c|%s|%.3s|%8s|%-8s|%%|%p]\n", 'Z', s, s, s, s, (void *)0x1234);
    printf("[%f|%f|%f|%e|%g]\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -0.0, 1e-5);
    printf("[%*d|%-*d|%.*f]\n", 6, 7, 4, 9, 2, 3.14159);
    printf("[%s]\n", (const char *)0);
    printf("no args %% here\n");
}

int main()
{
    uint32_t *d, *p, *v, *ai, *res;
    float *af, *m32, *wo;
    half *m16;
    char *str;
    cudaMalloc(&d, 64 * 32 * 4); cudaMalloc(&p, 64 * 32 * 4); cudaMemset(d, 0xee, 64 * 32 * 4); cudaMemset(p, 0xee, 64 * 32 * 4);
    kshfl<<<1, 32>>>(d, p);
    uint32_t hd[64 * 32], hp[64 * 32];
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost); cudaMemcpy(hp, p, sizeof hp, cudaMemcpyDeviceToHost);
    ShflCase hc[64]; cudaMemcpyFromSymbol(hc, cases, sizeof(cases));
    int ncases = (int)(sizeof(cases) / sizeof(cases[0]));
    for (int i = 0; i < ncases + 2; i++) {
        if (i < ncases) printf("shfl mode=%d b=%u c=0x%x:", hc[i].mode, hc[i].b, hc[i].c);
        else printf("shfl partial(0x55555555) down b=%d c=0x1f:", i - ncases + 1);
        for (int l = 0; l < 32; l++) printf(" %d/%u", (int)hd[i * 32 + l] - 100, hp[i * 32 + l]);
        printf("\n");
    }
    cudaMalloc(&v, 64 * 4); cudaMemset(v, 0, 64 * 4);
    kvote<<<1, 32>>>(v);
    uint32_t hv[64]; cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
    printf("vote ballot=0x%08x allanyall30:", hv[0]);
    for (int l = 0; l < 20; l++) printf(" %u", hv[1 + l]);
    printf(" uni:"); for (int l = 0; l < 20; l++) printf(" %u", hv[21 + l]);
    printf(" uni1:"); for (int l = 0; l < 20; l++) printf(" %u", hv[41 + l]);
    printf("\n");
    cudaMalloc(&af, 64 * 4); cudaMalloc(&res, 16);
    katomf<<<1, 32>>>(af, res);
    uint32_t haf[64], hres[4]; cudaMemcpy(haf, af, sizeof haf, cudaMemcpyDeviceToHost); cudaMemcpy(hres, res, 16, cudaMemcpyDeviceToHost);
    printf("atomf global:"); for (int i = 0; i < 9; i++) printf(" [%d]=0x%08x", i, haf[i]);
    printf(" f64sub+sub=0x%08x%08x shared: 0x%08x 0x%08x 0x%08x\n", haf[17], haf[16], hres[0], hres[1], hres[2]);
    cudaMalloc(&ai, 64 * 4);
    katomi<<<1, 32>>>(ai);
    uint32_t hai[16]; cudaMemcpy(hai, ai, sizeof hai, cudaMemcpyDeviceToHost);
    printf("atomi:"); for (int i = 0; i < 11; i++) printf(" %u", hai[i]); printf("\n");
    half hm16[256]; float hm32[256];
    for (int i = 0; i < 256; i++) { hm16[i] = __float2half((float)i); hm32[i] = (float)i; }
    cudaMalloc(&m16, 512); cudaMalloc(&m32, 1024); cudaMalloc(&wo, 32 * 96 * 4);
    cudaMemcpy(m16, hm16, 512, cudaMemcpyHostToDevice); cudaMemcpy(m32, hm32, 1024, cudaMemcpyHostToDevice);
    kwmma<<<1, 32>>>(m16, m32, wo);
    static float hwo[32 * 96]; cudaMemcpy(hwo, wo, sizeof hwo, cudaMemcpyDeviceToHost);
    const char *names[] = {"a_row", "a_col", "b_row", "b_col", "c_f32_row", "c_f32_col", "c_f16_row"};
    const int offs[] = {0, 16, 32, 48, 64, 72, 80}, cnt[] = {16, 16, 16, 16, 8, 8, 8};
    printf("wmma num_elements a=%g c32=%g c16=%g\n", hwo[88], hwo[89], hwo[90]);
    for (int k = 0; k < 7; k++)
        for (int l = 0; l < 32; l++) {
            printf("wmma %s lane %d:", names[k], l);
            for (int i = 0; i < cnt[k]; i++) printf(" %g", hwo[l * 96 + offs[k] + i]);
            printf("\n");
        }
    cudaMalloc(&str, 16); cudaMemcpy(str, "hello", 6, cudaMemcpyHostToDevice);
    fflush(stdout);
    kprintf<<<1, 1>>>(str);
    cudaError_t e = cudaDeviceSynchronize();
    printf("done: %s\n", cudaGetErrorString(e));
    return 0;
}
