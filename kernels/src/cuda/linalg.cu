// gcalc linear-algebra helpers around cuSOLVER (runtime/src/cuda/solver/):
//   tri_copy: a stack of matrices read through strides (rs, cs: a row-major
//     or column-major layout; bs between matrices) written row-major (ds
//     between matrices), keeping all
//     elements (mode 0), the upper triangle with the diagonal (1) or the
//     lower one (2), zeros elsewhere: R out of geqrf's factors, Cholesky's
//     factor without potrf's untouched triangle.
//   lu_slogdet: one thread per matrix of getrf's factors (n x n, 1-based
//     pivots, int64 from cuSOLVER or int32 from cuBLAS's batched getrf, as
//     `piv32` says): sign and log|det| from U's diagonal, the logs summed in
//     double as the CPU does; an exact zero gives sign 0 and -inf, NaN
//     propagates. With `det` set, sign * exp(log|det|) goes to `sign` (NumPy's det).
//   eye_fill: a stack of identity matrices (the right-hand side of inv).
//   tile_t: tri_copy of a transposed stack through 32x32 shared-memory
//     tiles, reads and writes both coalesced (tri_copy reads a transposed
//     source uncoalesced and divides per element).
typedef long long i64;

template <typename T>
__device__ __forceinline__ void tri_copy(const T* __restrict__ src, T* __restrict__ dst, i64 batch,
                                         i64 rows, i64 cols, i64 rs, i64 cs, i64 bs, i64 ds,
                                         int mode) {
  i64 per = rows * cols;
  i64 total = batch * per;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (i64)gridDim.x * blockDim.x) {
    i64 b = t / per, r = (t % per) / cols, c = t % cols;
    bool keep = mode == 0 || (mode == 1 && c >= r) || (mode == 2 && c <= r);
    dst[b * ds + r * cols + c] = keep ? src[b * bs + r * rs + c * cs] : (T)0;
  }
}

// dst[b][r][c] (rows x cols row-major, ds apart) = src[b][c][r] (src: cols x
// rows row-major, ss apart), keeping all (mode 0), the upper (1) or the lower
// (2) triangle of dst, zeros elsewhere. Grid (cols/32, rows/32, batch) of
// 32x8 threads.
template <typename T>
__device__ __forceinline__ void tile_t(const T* __restrict__ src, T* __restrict__ dst, i64 rows, i64 cols,
                                       i64 ss, i64 ds, int mode) {
  __shared__ T t[32][33];
  const T* s = src + (i64)blockIdx.z * ss;
  T* d = dst + (i64)blockIdx.z * ds;
  i64 r0 = (i64)blockIdx.y * 32, c0 = (i64)blockIdx.x * 32;
  for (int k = threadIdx.y; k < 32; k += 8) {
    i64 c = c0 + k, r = r0 + threadIdx.x;
    if (c < cols && r < rows) t[k][threadIdx.x] = s[c * rows + r];
  }
  __syncthreads();
  for (int k = threadIdx.y; k < 32; k += 8) {
    i64 r = r0 + k, c = c0 + threadIdx.x;
    if (r < rows && c < cols) {
      bool keep = mode == 0 || (mode == 1 && c >= r) || (mode == 2 && c <= r);
      d[r * cols + c] = keep ? t[threadIdx.x][k] : (T)0;
    }
  }
}

template <typename T>
__device__ __forceinline__ void eye_fill(T* __restrict__ dst, i64 batch, i64 n) {
  i64 per = n * n;
  i64 total = batch * per;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (i64)gridDim.x * blockDim.x) {
    i64 e = t % per;
    dst[t] = (e / n == e % n) ? (T)1 : (T)0;
  }
}

template <typename T>
__device__ __forceinline__ void lu_slogdet(const T* __restrict__ lu, const void* __restrict__ piv,
                                           i64 batch, i64 n, T* __restrict__ sign,
                                           T* __restrict__ logabs, int det, int piv32) {
  for (i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x; b < batch;
       b += (i64)gridDim.x * blockDim.x) {
  const T* m = lu + b * n * n;
  double s = 1.0, l = 0.0;
  for (i64 i = 0; i < n; i++) {
    i64 p = piv32 ? (i64)((const int*)piv)[b * n + i] : ((const i64*)piv)[b * n + i];
    if (p != i + 1) s = -s;
  }
  for (i64 i = 0; i < n; i++) {
    double u = (double)m[i * n + i];
    if (u != u) {
      s = u;
      l = u;
      break;
    }
    if (u == 0.0) {
      s = 0.0;
      l = -1.0 / 0.0;
      break;
    }
    if (u < 0.0) s = -s;
    l += log(fabs(u));
  }
  if (det) {
    sign[b] = (T)(s * exp(l));
  } else {
    sign[b] = (T)s;
    logabs[b] = (T)l;
  }
  }
}

#define LINALG_KERNELS(T, S)                                                                   \
  extern "C" __global__ void tri_copy_##S(const T* src, T* dst, i64 batch, i64 rows, i64 cols, \
                                          i64 rs, i64 cs, i64 bs, i64 ds, int mode) {          \
    tri_copy<T>(src, dst, batch, rows, cols, rs, cs, bs, ds, mode);                            \
  }                                                                                            \
  extern "C" __global__ void eye_fill_##S(T* dst, i64 batch, i64 n) { eye_fill<T>(dst, batch, n); } \
  extern "C" __global__ void tile_t_##S(const T* src, T* dst, i64 rows, i64 cols, i64 ss, i64 ds,  \
                                        int mode) {                                              \
    tile_t<T>(src, dst, rows, cols, ss, ds, mode);                                               \
  }                                                                                              \
  extern "C" __global__ void lu_slogdet_##S(const T* lu, const void* piv, i64 batch, i64 n,    \
                                            T* sign, T* logabs, int det, int piv32) {          \
    lu_slogdet<T>(lu, piv, batch, n, sign, logabs, det, piv32);                                \
  }

LINALG_KERNELS(float, f32)
LINALG_KERNELS(double, f64)
