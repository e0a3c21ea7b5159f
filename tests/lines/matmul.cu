// A tiled matrix multiply C = A * B (n x n, n a multiple of 32) whose A
// tile is kept transposed in shared memory (tests/lines).  In matmulConflict
// the store As[threadIdx.x][threadIdx.y] writes a column of a 32x32 float
// tile: a 32-way bank conflict; matmulPadded pads the rows to 33 floats.
#define TILE 32

__global__ void matmulConflict(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[threadIdx.x][threadIdx.y] = A[row * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

__global__ void matmulPadded(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[threadIdx.x][threadIdx.y] = A[row * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[k][threadIdx.y] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = sum;
}
