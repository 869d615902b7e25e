// gcalc matrix-vector products (one row or one column of matmul output, no
// batch), used instead of cuBLAS for the sizes of a training loop, where
// cuBLAS's kernel for a 400x784 gemv takes ~10 us against ~2-3 us here.
// Two forms over a matrix with one unit stride and a leading dim `ld`:
//   dot:  y[i] = sum_k m[i*ld + k] * x[k*inc]  (a warp per output)
//   axpy: y[j] = sum_k m[k*ld + j] * x[k*inc]  (a thread per output column,
//         32 row groups per block combined through shared memory)
// Accumulation in T (as cuBLAS); the order of every addition depends only on
// the sizes: deterministic.
typedef long long i64;

template <typename T>
__device__ __forceinline__ void gemv_dot(const T* __restrict__ m, i64 rows, i64 len, i64 ld,
                                         const T* __restrict__ x, i64 inc, T* __restrict__ y) {
  i64 w = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (w >= rows) return;  // the whole warp leaves together
  const T* r = m + w * ld;
  T a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  i64 k = lane;
  if (inc == 1) {
    for (; k + 96 < len; k += 128) {
      a0 += r[k] * x[k];
      a1 += r[k + 32] * x[k + 32];
      a2 += r[k + 64] * x[k + 64];
      a3 += r[k + 96] * x[k + 96];
    }
    for (; k < len; k += 32) a0 += r[k] * x[k];
  } else {
    for (; k < len; k += 32) a0 += r[k] * x[k * inc];
  }
  T acc = (a0 + a1) + (a2 + a3);
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[w] = acc;
}

template <typename T>
__device__ __forceinline__ void gemv_axpy(const T* __restrict__ m, i64 cols, i64 len, i64 ld,
                                          const T* __restrict__ x, i64 inc, T* __restrict__ y) {
  __shared__ T sh[32][33];
  i64 c = (i64)blockIdx.x * 32 + threadIdx.x;
  T a0 = 0, a1 = 0;
  if (c < cols) {
    i64 k = threadIdx.y;
    for (; k + 32 < len; k += 64) {
      a0 += m[k * ld + c] * x[k * inc];
      a1 += m[(k + 32) * ld + c] * x[(k + 32) * inc];
    }
    for (; k < len; k += 32) a0 += m[k * ld + c] * x[k * inc];
  }
  sh[threadIdx.y][threadIdx.x] = a0 + a1;
  __syncthreads();
  // Row groups combined pairwise in a fixed order.
  for (int h = 16; h > 0; h >>= 1) {
    if (threadIdx.y < h) sh[threadIdx.y][threadIdx.x] += sh[threadIdx.y + h][threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.y == 0 && c < cols) y[c] = sh[0][threadIdx.x];
}

#define GEMV(T, S)                                                                              \
  extern "C" __global__ void __launch_bounds__(256)                                             \
      gemv_dot_##S(const T* m, i64 rows, i64 len, i64 ld, const T* x, i64 inc, T* y) {          \
    gemv_dot<T>(m, rows, len, ld, x, inc, y);                                                   \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(1024)                                            \
      gemv_axpy_##S(const T* m, i64 cols, i64 len, i64 ld, const T* x, i64 inc, T* y) {         \
    gemv_axpy<T>(m, cols, len, ld, x, inc, y);                                                  \
  }
GEMV(float, f32)
GEMV(double, f64)
