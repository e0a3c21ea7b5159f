// PMPP ch12: parallel merge with the co-rank function; basic and tiled kernels
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

__host__ __device__ int co_rank(int k, const int *A, int m, const int *B, int n) {
  int i = k < m ? k : m;
  int j = k - i;
  int i_low = 0 > (k - n) ? 0 : k - n;
  int j_low = 0 > (k - m) ? 0 : k - m;
  int delta;
  bool active = true;
  while (active) {
    if (i > 0 && j < n && A[i - 1] > B[j]) {
      delta = ((i - i_low + 1) >> 1);
      j_low = j; j = j + delta; i = i - delta;
    } else if (j > 0 && i < m && B[j - 1] >= A[i]) {
      delta = ((j - j_low + 1) >> 1);
      i_low = i; i = i + delta; j = j - delta;
    } else {
      active = false;
    }
  }
  return i;
}

__host__ __device__ void merge_sequential(const int *A, int m, const int *B, int n, int *C) {
  int i = 0, j = 0, k = 0;
  while (i < m && j < n) {
    if (A[i] <= B[j]) C[k++] = A[i++];
    else C[k++] = B[j++];
  }
  while (i < m) C[k++] = A[i++];
  while (j < n) C[k++] = B[j++];
}

__global__ void merge_basic_kernel(const int *A, int m, const int *B, int n, int *C) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int total = m + n;
  int nthreads = blockDim.x * gridDim.x;
  int ept = (total + nthreads - 1) / nthreads;
  int k_curr = min(tid * ept, total);
  int k_next = min((tid + 1) * ept, total);
  int i_curr = co_rank(k_curr, A, m, B, n);
  int i_next = co_rank(k_next, A, m, B, n);
  int j_curr = k_curr - i_curr;
  int j_next = k_next - i_next;
  merge_sequential(&A[i_curr], i_next - i_curr, &B[j_curr], j_next - j_curr, &C[k_curr]);
}

__global__ void merge_tiled_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size) {
  extern __shared__ int shareAB[];
  int *A_S = &shareAB[0];
  int *B_S = &shareAB[tile_size];
  int total = m + n;
  int per_block = (total + gridDim.x - 1) / gridDim.x;
  int C_curr = min((int)blockIdx.x * per_block, total);
  int C_next = min(((int)blockIdx.x + 1) * per_block, total);
  if (threadIdx.x == 0) {
    A_S[0] = co_rank(C_curr, A, m, B, n);
    A_S[1] = co_rank(C_next, A, m, B, n);
  }
  __syncthreads();
  int A_curr = A_S[0], A_next = A_S[1];
  int B_curr = C_curr - A_curr, B_next = C_next - A_next;
  __syncthreads();
  int counter = 0;
  int C_length = C_next - C_curr;
  int A_length = A_next - A_curr;
  int B_length = B_next - B_curr;
  int total_iteration = (C_length + tile_size - 1) / tile_size;
  int C_completed = 0, A_consumed = 0, B_consumed = 0;
  while (counter < total_iteration) {
    for (int i = 0; i < tile_size; i += blockDim.x)
      if (i + threadIdx.x < A_length - A_consumed)
        A_S[i + threadIdx.x] = A[A_curr + A_consumed + i + threadIdx.x];
    for (int i = 0; i < tile_size; i += blockDim.x)
      if (i + threadIdx.x < B_length - B_consumed)
        B_S[i + threadIdx.x] = B[B_curr + B_consumed + i + threadIdx.x];
    __syncthreads();
    int a_len = min(tile_size, A_length - A_consumed);
    int b_len = min(tile_size, B_length - B_consumed);
    int c_rem = C_length - C_completed;
    int c_curr = threadIdx.x * (tile_size / blockDim.x);
    int c_next = (threadIdx.x + 1) * (tile_size / blockDim.x);
    c_curr = (c_curr <= c_rem) ? c_curr : c_rem;
    c_next = (c_next <= c_rem) ? c_next : c_rem;
    int a_curr = co_rank(c_curr, A_S, a_len, B_S, b_len);
    int b_curr = c_curr - a_curr;
    int a_next = co_rank(c_next, A_S, a_len, B_S, b_len);
    int b_next = c_next - a_next;
    merge_sequential(A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr,
                     C + C_curr + C_completed + c_curr);
    counter++;
    C_completed += tile_size;
    A_consumed += co_rank(min(tile_size, c_rem), A_S, a_len, B_S, b_len);
    B_consumed = C_completed - A_consumed;
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  int m = (argc > 1) ? atoi(argv[1]) : 500000;
  int n = (argc > 2) ? atoi(argv[2]) : 500000;
  printf("co-rank merge, m = %d, n = %d\n", m, n);
  std::vector<int> A(m), B(n), C(m + n), ref(m + n);
  srand(2024);
  int v = 0;
  for (int i = 0; i < m; i++) { v += rand() % 4; A[i] = v; }
  v = 0;
  for (int i = 0; i < n; i++) { v += rand() % 4; B[i] = v; }
  std::merge(A.begin(), A.end(), B.begin(), B.end(), ref.begin());

  int *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, m * sizeof(int)));
  CHECK(cudaMalloc(&dB, n * sizeof(int)));
  CHECK(cudaMalloc(&dC, (m + n) * sizeof(int)));
  CHECK(cudaMemcpy(dA, A.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0)); CHECK(cudaEventCreate(&t1));
  const int REPS = 10;
  const int threads = 256, blocks = 128, tile = 1024;
  int allOk = 1;

  for (int version = 0; version < 2; version++) {
    CHECK(cudaMemset(dC, 0, (m + n) * sizeof(int)));
    auto launch = [&]() {
      if (version == 0) merge_basic_kernel<<<blocks, threads>>>(dA, m, dB, n, dC);
      else merge_tiled_kernel<<<blocks, threads, 2 * tile * sizeof(int)>>>(dA, m, dB, n, dC, tile);
      CHECK(cudaGetLastError());
    };
    launch();  // warm-up
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(t0));
    for (int r = 0; r < REPS; r++) launch();
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    float ms; CHECK(cudaEventElapsedTime(&ms, t0, t1));
    CHECK(cudaMemcpy(C.data(), dC, (m + n) * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < m + n; i++) if (C[i] != ref[i]) { if (bad < 5) printf("  mismatch at %d: got %d expected %d\n", i, C[i], ref[i]); bad++; }
    printf("%s merge: average time %.4f ms  %s (%d mismatches)\n", version ? "tiled" : "basic", ms / REPS, bad ? "FAIL" : "PASS", bad);
    if (bad) allOk = 0;
  }
  printf("%s\n", allOk ? "PASS" : "FAIL");
  CHECK(cudaEventDestroy(t0)); CHECK(cudaEventDestroy(t1));
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC));
  return allOk ? 0 : 1;
}
