// SpMV in COO, CSR, ELL and JDS formats (PMPP ch. 14).
// usage: ./spmv_formats [numRows] [avgNnzPerRow]
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <numeric>
#include <cuda_runtime.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorString(err_));                        \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define BLOCK 256

// COO: one thread per nonzero, atomicAdd into y (Fig. 14.5)
__global__ void spmv_coo(int nnz, const int *rowIdx, const int *colIdx, const float *val,
                         const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nnz) atomicAdd(&y[rowIdx[i]], val[i] * x[colIdx[i]]);
}

// CSR: one thread per row (Fig. 14.9)
__global__ void spmv_csr(int numRows, const int *rowPtrs, const int *colIdx, const float *val,
                         const float *x, float *y) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numRows) {
        float sum = 0.f;
        for (int i = rowPtrs[row]; i < rowPtrs[row + 1]; ++i) sum += val[i] * x[colIdx[i]];
        y[row] = sum;
    }
}

// ELL: column-major padded (Fig. 14.12)
__global__ void spmv_ell(int numRows, const int *nnzPerRow, const int *colIdx, const float *val,
                         const float *x, float *y) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < numRows) {
        float sum = 0.f;
        for (int t = 0; t < nnzPerRow[row]; ++t) {
            int i = t * numRows + row;
            sum += val[i] * x[colIdx[i]];
        }
        y[row] = sum;
    }
}

// JDS: rows sorted by length, jagged diagonals stored column-major (Sec. 14.6)
__global__ void spmv_jds(int numRows, const int *rowPerm, const int *rowLen, const int *iterPtr,
                         const int *colIdx, const float *val, const float *x, float *y) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < numRows) {
        float sum = 0.f;
        for (int t = 0; t < rowLen[r]; ++t) {
            int i = iterPtr[t] + r;
            sum += val[i] * x[colIdx[i]];
        }
        y[rowPerm[r]] = sum;
    }
}

static unsigned long long rng_state = 2024ULL;
static unsigned rnd() {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 32);
}
static float rndf() { return (rnd() >> 8) * (1.0f / 16777216.0f) * 2.f - 1.f; }

static bool check(const char *name, const std::vector<double> &ref, const std::vector<float> &y) {
    double maxErr = 0;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        double err = fabs((double)y[i] - ref[i]);
        double tol = 1e-4 * (1.0 + fabs(ref[i]));
        if (err > maxErr) maxErr = err;
        if (err > tol || std::isnan(y[i])) {
            if (!bad) first = i;
            ++bad;
        }
    }
    if (bad) {
        printf("%-5s FAIL: %zu rows wrong, first %zu ref %.6f got %.6f\n", name, bad, first,
               ref[first], y[first]);
        return false;
    }
    printf("%-5s PASS (max abs err %.3g)\n", name, maxErr);
    return true;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 50000;
    int avg = argc > 2 ? atoi(argv[2]) : 10;
    printf("SpMV: %d x %d, ~%d nonzeros per row\n", n, n, avg);

    // random matrix: row length uniform in [avg/2, 3*avg/2], distinct sorted columns
    std::vector<int> rowPtrs(n + 1, 0), colIdx;
    std::vector<float> val;
    for (int r = 0; r < n; ++r) {
        int len = avg / 2 + rnd() % (avg + 1);
        std::vector<int> cols;
        while ((int)cols.size() < len) {
            int c = rnd() % n;
            if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
        }
        std::sort(cols.begin(), cols.end());
        for (int c : cols) {
            colIdx.push_back(c);
            val.push_back(rndf());
        }
        rowPtrs[r + 1] = (int)colIdx.size();
    }
    int nnz = (int)colIdx.size();
    std::vector<float> x(n);
    for (auto &v : x) v = rndf();
    printf("nnz = %d\n", nnz);

    // CPU reference in double
    std::vector<double> ref(n);
    for (int r = 0; r < n; ++r) {
        double s = 0;
        for (int i = rowPtrs[r]; i < rowPtrs[r + 1]; ++i) s += (double)val[i] * x[colIdx[i]];
        ref[r] = s;
    }

    // COO
    std::vector<int> cooRow(nnz);
    for (int r = 0; r < n; ++r)
        for (int i = rowPtrs[r]; i < rowPtrs[r + 1]; ++i) cooRow[i] = r;
    // ELL
    std::vector<int> rowLen(n);
    int maxLen = 0;
    for (int r = 0; r < n; ++r) {
        rowLen[r] = rowPtrs[r + 1] - rowPtrs[r];
        maxLen = std::max(maxLen, rowLen[r]);
    }
    std::vector<int> ellCol((size_t)maxLen * n, 0);
    std::vector<float> ellVal((size_t)maxLen * n, 0.f);
    for (int r = 0; r < n; ++r)
        for (int t = 0; t < rowLen[r]; ++t) {
            ellCol[(size_t)t * n + r] = colIdx[rowPtrs[r] + t];
            ellVal[(size_t)t * n + r] = val[rowPtrs[r] + t];
        }
    // JDS
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return rowLen[a] > rowLen[b]; });
    std::vector<int> jdsLen(n), iterPtr(maxLen + 1, 0);
    for (int r = 0; r < n; ++r) jdsLen[r] = rowLen[perm[r]];
    for (int t = 0; t < maxLen; ++t) {
        int cnt = 0;
        while (cnt < n && jdsLen[cnt] > t) ++cnt;
        iterPtr[t + 1] = iterPtr[t] + cnt;
    }
    std::vector<int> jdsCol(nnz);
    std::vector<float> jdsVal(nnz);
    for (int t = 0; t < maxLen; ++t)
        for (int r = 0; r < n && jdsLen[r] > t; ++r) {
            jdsCol[iterPtr[t] + r] = colIdx[rowPtrs[perm[r]] + t];
            jdsVal[iterPtr[t] + r] = val[rowPtrs[perm[r]] + t];
        }
    printf("ELL width %d (padding %.1f%%), JDS %d jagged diagonals\n", maxLen,
           100.0 * ((double)maxLen * n - nnz) / ((double)maxLen * n), maxLen);

    auto upload = [](const void *h, size_t bytes) {
        void *d;
        CHECK(cudaMalloc(&d, bytes));
        CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        return d;
    };
    float *d_x = (float *)upload(x.data(), n * sizeof(float));
    float *d_y;
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    int *d_cooRow = (int *)upload(cooRow.data(), nnz * sizeof(int));
    int *d_col = (int *)upload(colIdx.data(), nnz * sizeof(int));
    float *d_val = (float *)upload(val.data(), nnz * sizeof(float));
    int *d_rowPtrs = (int *)upload(rowPtrs.data(), (n + 1) * sizeof(int));
    int *d_rowLen = (int *)upload(rowLen.data(), n * sizeof(int));
    int *d_ellCol = (int *)upload(ellCol.data(), ellCol.size() * sizeof(int));
    float *d_ellVal = (float *)upload(ellVal.data(), ellVal.size() * sizeof(float));
    int *d_perm = (int *)upload(perm.data(), n * sizeof(int));
    int *d_jdsLen = (int *)upload(jdsLen.data(), n * sizeof(int));
    int *d_iterPtr = (int *)upload(iterPtr.data(), (maxLen + 1) * sizeof(int));
    int *d_jdsCol = (int *)upload(jdsCol.data(), nnz * sizeof(int));
    float *d_jdsVal = (float *)upload(jdsVal.data(), nnz * sizeof(float));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> y(n);
    bool ok = true;
    const char *names[4] = {"COO", "CSR", "ELL", "JDS"};
    for (int f = 0; f < 4; ++f) {
        auto launch = [&]() {
            if (f == 0) {
                CHECK(cudaMemset(d_y, 0, n * sizeof(float)));
                spmv_coo<<<(nnz + BLOCK - 1) / BLOCK, BLOCK>>>(nnz, d_cooRow, d_col, d_val, d_x, d_y);
            } else if (f == 1) {
                spmv_csr<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, d_rowPtrs, d_col, d_val, d_x, d_y);
            } else if (f == 2) {
                spmv_ell<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, d_rowLen, d_ellCol, d_ellVal, d_x, d_y);
            } else {
                spmv_jds<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, d_perm, d_jdsLen, d_iterPtr, d_jdsCol,
                                                           d_jdsVal, d_x, d_y);
            }
            CHECK(cudaGetLastError());
        };
        CHECK(cudaMemset(d_y, 0xff, n * sizeof(float)));  // poison (NaN) so stale results are caught
        launch();                                         // warm-up
        CHECK(cudaDeviceSynchronize());
        float total = 0;
        for (int it = 0; it < 10; ++it) {
            CHECK(cudaEventRecord(start));
            launch();
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, start, stop));
            total += ms;
        }
        CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
        printf("%-5s avg %.4f ms  ", names[f], total / 10);
        ok &= check(names[f], ref, y);
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    cudaFree(d_x); cudaFree(d_y); cudaFree(d_cooRow); cudaFree(d_col); cudaFree(d_val);
    cudaFree(d_rowPtrs); cudaFree(d_rowLen); cudaFree(d_ellCol); cudaFree(d_ellVal);
    cudaFree(d_perm); cudaFree(d_jdsLen); cudaFree(d_iterPtr); cudaFree(d_jdsCol); cudaFree(d_jdsVal);
    return ok ? 0 : 1;
}
