// Lab: sparse matrix - vector product y = A x, in four storage formats.
//   spmvCsrScalar  CSR, one thread per row
//   spmvCsrWarp    CSR, one warp per row: lanes stride over the row, then a
//                  __shfl_down_sync reduction (blockDim.x a multiple of 32)
//   spmvEll        ELL: every row padded to maxNnz entries, stored column-major
//                  (entry j of row r at j * numRows + r) so that reads coalesce;
//                  padding has value 0 and column 0
//   spmvJds        JDS: rows sorted by decreasing length (perm gives the original
//                  row), stored by jagged diagonal: entry d of sorted row r at
//                  jdPtr[d] + r
//
// Build and run:  nvcc -arch=sm_80 -cudart shared spmv.cu -o spmv
//                 ./spmv [rows]
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

#define BLOCK_SIZE 128

__global__ void spmvCsrScalar(int numRows, const int *rowPtr, const int *colIdx, const float *val,
                              const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numRows) {
        float sum = 0.0f;
        for (int j = rowPtr[row]; j < rowPtr[row + 1]; j++)
            sum += val[j] * x[colIdx[j]];
        y[row] = sum;
    }
}

__global__ void spmvCsrWarp(int numRows, const int *rowPtr, const int *colIdx, const float *val,
                            const float *x, float *y)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row < numRows) {   // the same for all lanes of a warp
        float sum = 0.0f;
        for (int j = rowPtr[row] + lane; j < rowPtr[row + 1]; j += 32)
            sum += val[j] * x[colIdx[j]];
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0)
            y[row] = sum;
    }
}

__global__ void spmvEll(int numRows, int maxNnz, const int *colIdx, const float *val,
                        const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numRows) {
        float sum = 0.0f;
        for (int j = 0; j < maxNnz; j++)
            sum += val[j * numRows + row] * x[colIdx[j * numRows + row]];
        y[row] = sum;
    }
}

__global__ void spmvJds(int numRows, int numDiags, const int *perm, const int *jdPtr,
                        const int *colIdx, const float *val, const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numRows) {
        float sum = 0.0f;
        for (int d = 0; d < numDiags; d++) {
            if (row >= jdPtr[d + 1] - jdPtr[d])
                break;
            int k = jdPtr[d] + row;
            sum += val[k] * x[colIdx[k]];
        }
        y[perm[row]] = sum;
    }
}

static unsigned int lcg(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static float lcgFloat(unsigned int *state)
{
    return (float)lcg(state) / 16777216.0f * 2.0f - 1.0f;
}

template <typename T>
static T *toDevice(const T *host, size_t count)
{
    T *dev;
    CUDA_CHECK(cudaMalloc(&dev, (count ? count : 1) * sizeof(T)));
    if (count)
        CUDA_CHECK(cudaMemcpy(dev, host, count * sizeof(T), cudaMemcpyHostToDevice));
    return dev;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 1000;
    if (rows < 1) {
        fprintf(stderr, "usage: %s [rows >= 1]\n", argv[0]);
        return 1;
    }
    int cols = rows;
    unsigned int seed = 9;
    // CSR with 0..12 entries per row, and a few long rows of up to 70.
    int *rowPtr = (int *)malloc((rows + 1) * sizeof(int));
    rowPtr[0] = 0;
    for (int r = 0; r < rows; r++) {
        int len = lcg(&seed) % 10 == 0 ? lcg(&seed) % 71 : lcg(&seed) % 13;
        rowPtr[r + 1] = rowPtr[r] + len;
    }
    int nnz = rowPtr[rows];
    int *colIdx = (int *)malloc((nnz + 1) * sizeof(int));
    float *val = (float *)malloc((nnz + 1) * sizeof(float));
    for (int j = 0; j < nnz; j++) {
        colIdx[j] = lcg(&seed) % cols;
        val[j] = lcgFloat(&seed);
    }
    float *x = (float *)malloc(cols * sizeof(float));
    for (int c = 0; c < cols; c++)
        x[c] = lcgFloat(&seed);
    float *ref = (float *)malloc(rows * sizeof(float));
    int maxNnz = 0;
    for (int r = 0; r < rows; r++) {
        double s = 0.0;
        for (int j = rowPtr[r]; j < rowPtr[r + 1]; j++)
            s += (double)val[j] * x[colIdx[j]];
        ref[r] = (float)s;
        if (rowPtr[r + 1] - rowPtr[r] > maxNnz)
            maxNnz = rowPtr[r + 1] - rowPtr[r];
    }

    // ELL, column-major.
    size_t ellCount = (size_t)maxNnz * rows;
    int *ellCol = (int *)calloc(ellCount + 1, sizeof(int));
    float *ellVal = (float *)calloc(ellCount + 1, sizeof(float));
    for (int r = 0; r < rows; r++)
        for (int j = rowPtr[r]; j < rowPtr[r + 1]; j++) {
            ellCol[(size_t)(j - rowPtr[r]) * rows + r] = colIdx[j];
            ellVal[(size_t)(j - rowPtr[r]) * rows + r] = val[j];
        }

    // JDS: sort rows by decreasing length (stable counting sort on length).
    int *perm = (int *)malloc(rows * sizeof(int));
    int k = 0;
    for (int len = maxNnz; len >= 0; len--)
        for (int r = 0; r < rows; r++)
            if (rowPtr[r + 1] - rowPtr[r] == len)
                perm[k++] = r;
    int *jdPtr = (int *)malloc((maxNnz + 1) * sizeof(int));
    int *jdsCol = (int *)malloc((nnz + 1) * sizeof(int));
    float *jdsVal = (float *)malloc((nnz + 1) * sizeof(float));
    k = 0;
    for (int d = 0; d < maxNnz; d++) {
        jdPtr[d] = k;
        for (int r = 0; r < rows; r++) {
            int orig = perm[r];
            if (rowPtr[orig + 1] - rowPtr[orig] <= d)
                break;
            jdsCol[k] = colIdx[rowPtr[orig] + d];
            jdsVal[k] = val[rowPtr[orig] + d];
            k++;
        }
    }
    jdPtr[maxNnz] = k;

    int *dRowPtr = toDevice(rowPtr, rows + 1), *dCol = toDevice(colIdx, nnz);
    float *dVal = toDevice(val, nnz), *dX = toDevice(x, cols);
    int *dEllCol = toDevice(ellCol, ellCount);
    float *dEllVal = toDevice(ellVal, ellCount);
    int *dPerm = toDevice(perm, rows), *dJdPtr = toDevice(jdPtr, maxNnz + 1), *dJdsCol = toDevice(jdsCol, nnz);
    float *dJdsVal = toDevice(jdsVal, nnz);
    float *dY, *y = (float *)malloc(rows * sizeof(float));
    CUDA_CHECK(cudaMalloc(&dY, rows * sizeof(float)));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    printf("spmv, %d x %d, %d nonzeros, longest row %d\n", rows, cols, nnz, maxNnz);
    const char *names[] = {"spmvCsrScalar", "spmvCsrWarp", "spmvEll", "spmvJds"};
    bool ok = true;
    int blocks = (rows + BLOCK_SIZE - 1) / BLOCK_SIZE;
    for (int v = 0; v < 4; v++) {
        CUDA_CHECK(cudaMemset(dY, 0, rows * sizeof(float)));
        CUDA_CHECK(cudaEventRecord(start));
        switch (v) {
        case 0: spmvCsrScalar<<<blocks, BLOCK_SIZE>>>(rows, dRowPtr, dCol, dVal, dX, dY); break;
        case 1:
            spmvCsrWarp<<<(rows * 32 + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(rows, dRowPtr, dCol, dVal, dX, dY);
            break;
        case 2: spmvEll<<<blocks, BLOCK_SIZE>>>(rows, maxNnz, dEllCol, dEllVal, dX, dY); break;
        default: spmvJds<<<blocks, BLOCK_SIZE>>>(rows, maxNnz, dPerm, dJdPtr, dJdsCol, dJdsVal, dX, dY); break;
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        CUDA_CHECK(cudaMemcpy(y, dY, rows * sizeof(float), cudaMemcpyDeviceToHost));
        bool good = true;
        for (int r = 0; r < rows && good; r++)
            if (fabsf(y[r] - ref[r]) > 1e-5f * (1.0f + (rowPtr[r + 1] - rowPtr[r]))) {
                printf("%-14s FAIL at row %d: got %g, expected %g\n", names[v], r, y[r], ref[r]);
                good = false;
            }
        if (good)
            printf("%-14s %8.3f ms  PASS\n", names[v], ms);
        ok = ok && good;
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(dRowPtr)); CUDA_CHECK(cudaFree(dCol)); CUDA_CHECK(cudaFree(dVal));
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dEllCol)); CUDA_CHECK(cudaFree(dEllVal));
    CUDA_CHECK(cudaFree(dPerm)); CUDA_CHECK(cudaFree(dJdPtr)); CUDA_CHECK(cudaFree(dJdsCol));
    CUDA_CHECK(cudaFree(dJdsVal)); CUDA_CHECK(cudaFree(dY));
    free(rowPtr); free(colIdx); free(val); free(x); free(ref); free(ellCol); free(ellVal);
    free(perm); free(jdPtr); free(jdsCol); free(jdsVal); free(y);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
