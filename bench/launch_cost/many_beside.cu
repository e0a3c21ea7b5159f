// Launch cost independent of the module, for many launches
// (bench/launch_cost.sh): small_launches/many.cu's program, whose kernel
// is launched N times, in a module that also holds a kernel of about
// 12,000 PTX instructions in one unrolled block (never launched).
#include "../small_launches/many.cu"

#define STEP(i) a = a * b + (float)(i); b = b * a - y[(i) % 97];
#define R4(i) STEP(i) STEP((i) + 1) STEP((i) + 2) STEP((i) + 3)
#define R16(i) R4(i) R4((i) + 4) R4((i) + 8) R4((i) + 12)
#define R64(i) R16(i) R16((i) + 16) R16((i) + 32) R16((i) + 48)
#define R256(i) R64(i) R64((i) + 64) R64((i) + 128) R64((i) + 192)
#define R1024(i) R256(i) R256((i) + 256) R256((i) + 512) R256((i) + 768)

__global__ void straightLine(float *x, const float *y)
{
    float a = x[threadIdx.x], b = y[threadIdx.x];
    R1024(0) R1024(1024) R1024(2048) R1024(3072)
    x[threadIdx.x] = a + b;
}
