// gcalc argmax/argmin: the index of the first best element, as NumPy and the
// CPU path (ties: the first; a NaN beats every number, so the first NaN wins).
// (value, index) pairs combine under a total order, so every combination
// order gives the same index: deterministic whatever the grid. T = element
// type, A = compare type, MAX = argmax (else argmin). Index -1 = no element yet.
#include <cuda_fp16.h>
typedef long long i64;
template <typename T> __device__ __forceinline__ T ald(T x) { return x; }
__device__ __forceinline__ float ald(__half x) { return __half2float(x); }
__device__ __forceinline__ int ald(bool x) { return x ? 1 : 0; }

// Whether (av, ai) comes before (bv, bi).
template <typename A, bool MAX>
__device__ __forceinline__ bool before(A av, i64 ai, A bv, i64 bi) {
  if (bi < 0) return ai >= 0;
  if (ai < 0) return false;
  bool an = av != av, bn = bv != bv;
  if (an || bn) return an && (!bn || ai < bi);
  if (av != bv) return MAX ? av > bv : av < bv;
  return ai < bi;
}

template <typename A, bool MAX> __device__ __forceinline__ void warp_best(A& v, i64& i) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    A ov = __shfl_down_sync(0xffffffffu, v, o);
    i64 oi = __shfl_down_sync(0xffffffffu, i, o);
    if (before<A, MAX>(ov, oi, v, i)) { v = ov; i = oi; }
  }
}

// Block-wide best into thread 0 (every thread of the block must call it).
template <typename A, bool MAX> __device__ __forceinline__ void block_best(A& v, i64& i, A* sv, i64* si) {
  warp_best<A, MAX>(v, i);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0) { sv[w] = v; si[w] = i; }
  __syncthreads();
  int nw = blockDim.x >> 5;
  if (threadIdx.x < nw) { v = sv[threadIdx.x]; i = si[threadIdx.x]; } else { i = -1; }
  if (w == 0) warp_best<A, MAX>(v, i);
}

// The whole contiguous array (flat index): grid-stride scan, block best,
// partials per block, the last block to finish (atomic ticket) combines them.
template <typename T, typename A, bool MAX>
__device__ void arg_all(const T* __restrict__ x, i64 n, A* pv, i64* pi, unsigned* ticket, i64* out) {
  __shared__ A sv[32];
  __shared__ i64 si[32];
  __shared__ bool last;
  A v = (A)0;
  i64 bi = -1;
  i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
    A y = (A)ald(x[k]);
    if (before<A, MAX>(y, k, v, bi)) { v = y; bi = k; }
  }
  block_best<A, MAX>(v, bi, sv, si);
  if (threadIdx.x == 0) {
    pv[blockIdx.x] = v;
    pi[blockIdx.x] = bi;
    __threadfence();
    unsigned t = atomicAdd(ticket, 1u);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  v = (A)0;
  bi = -1;
  for (int k = threadIdx.x; k < gridDim.x; k += blockDim.x) {
    A y = ((volatile A*)pv)[k];
    i64 j = ((volatile i64*)pi)[k];
    if (before<A, MAX>(y, j, v, bi)) { v = y; bi = j; }
  }
  __syncthreads();
  block_best<A, MAX>(v, bi, sv, si);
  if (threadIdx.x == 0) { *out = bi; *ticket = 0u; }
}

// Along the last axis of a contiguous (outer, r) array: one warp per output.
template <typename T, typename A, bool MAX>
__device__ void arg_rows(const T* __restrict__ x, i64 outer, i64 r, i64* out) {
  i64 w = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (w >= outer) return;
  const T* p = x + w * r;
  A v = (A)0;
  i64 bi = -1;
  for (i64 k = lane; k < r; k += 32) {
    A y = (A)ald(p[k]);
    if (before<A, MAX>(y, k, v, bi)) { v = y; bi = k; }
  }
  warp_best<A, MAX>(v, bi);
  if (lane == 0) out[w] = bi;
}

// Along the middle axis of a contiguous (outer, r, inner) array: one thread per output.
template <typename T, typename A, bool MAX>
__device__ void arg_cols(const T* __restrict__ x, i64 outer, i64 r, i64 inner, i64* out) {
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= outer * inner) return;
  i64 o = t / inner, in = t % inner;
  const T* p = x + o * r * inner + in;
  A v = (A)0;
  i64 bi = -1;
  for (i64 k = 0; k < r; k++) {
    A y = (A)ald(p[k * inner]);
    if (before<A, MAX>(y, k, v, bi)) { v = y; bi = k; }
  }
  out[t] = bi;
}
