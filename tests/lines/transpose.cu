// Transposes through a 32x32 shared tile (tests/lines: `warpsim run --lines`).
// transposeConflict reads the tile by column: the 32 threads of a warp read
// tile[0..31][ty], 128 B apart, all in bank ty: a 32-way bank conflict.
// transposePadded pads each row to 33 floats, which spreads them over the
// 32 banks.  copyStrided reads every other float: 8 sectors per warp
// request where 4 would do.
#define TILE 32

__global__ void transposeConflict(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transposePadded(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copyStrided(const float *in, float *out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * stride];
}
