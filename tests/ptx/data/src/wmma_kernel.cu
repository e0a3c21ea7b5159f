#include <mma.h>
using namespace nvcuda;
// One warp computes a 16x16 tile with tensor cores (f16 in, f32 accumulate).
__global__ void wmmaTile(const half *a, const half *b, float *c, int lda, int ldb, int ldc)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, ldc, wmma::mem_row_major);
}
