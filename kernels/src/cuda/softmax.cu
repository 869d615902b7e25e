// gcalc softmax, log_softmax and logsumexp along one axis of a contiguous
// array seen as (outer, n, inner). Each lane: its max m, the sum s of
// exp(x - m) (accumulated in A: float for float16/float32, double for
// float64), then softmax = exp(x - m) / s, log_softmax = (x - m) - log(s),
// or logsumexp = log(s) + m; log_softmax and logsumexp take m as 0 when
// it is not finite (as SciPy does: an all -inf lane's logsumexp is -inf). A block per long lane of the
// last axis, a warp per short one, a thread per lane of a middle axis.
// MODE: 0 softmax, 1 log_softmax, 2 logsumexp (one output per lane).
// A block's lane of up to blockDim.x * SM_ITEMS elements is held in
// registers (read once); longer ones are read three times.
#include <cuda_fp16.h>
typedef long long i64;
#define SM_ITEMS 16

__device__ __forceinline__ float sm_ld(const __half* p, i64 i) { return __half2float(p[i]); }
__device__ __forceinline__ float sm_ld(const float* p, i64 i) { return p[i]; }
__device__ __forceinline__ double sm_ld(const double* p, i64 i) { return p[i]; }
__device__ __forceinline__ void sm_st(__half* p, i64 i, float v) { p[i] = __float2half_rn(v); }
__device__ __forceinline__ void sm_st(float* p, i64 i, float v) { p[i] = v; }
__device__ __forceinline__ void sm_st(double* p, i64 i, double v) { p[i] = v; }
__device__ __forceinline__ float sm_exp(float x) { return expf(x); }
__device__ __forceinline__ double sm_exp(double x) { return exp(x); }
__device__ __forceinline__ float sm_log(float x) { return logf(x); }
__device__ __forceinline__ double sm_log(double x) { return log(x); }
// Max with NaN propagating.
template <typename A> __device__ __forceinline__ A sm_max(A a, A b) { return (a != a || a > b) ? a : b; }
template <typename A> __device__ __forceinline__ A sm_ninf();
template <> __device__ __forceinline__ float sm_ninf<float>() { return __int_as_float(0xff800000); }
template <> __device__ __forceinline__ double sm_ninf<double>() { return __longlong_as_double(0xfff0000000000000ULL); }
template <typename A> __device__ __forceinline__ bool sm_finite(A x) { return x - x == (A)0; }

template <typename A> __device__ __forceinline__ A sm_warp_max(A v) {
  for (int o = 16; o > 0; o >>= 1) v = sm_max(v, (A)__shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
template <typename A> __device__ __forceinline__ A sm_warp_sum(A v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
// Block-wide max / sum (every thread gets the result).
template <typename A> __device__ A sm_block_max(A v, A* sh) {
  v = sm_warp_max(v);
  int w = threadIdx.x >> 5, l = threadIdx.x & 31, nw = blockDim.x >> 5;
  if (l == 0) sh[w] = v;
  __syncthreads();
  A r = l < nw ? sh[l] : sm_ninf<A>();
  r = sm_warp_max(r);
  __syncthreads();
  return r;
}
template <typename A> __device__ A sm_block_sum(A v, A* sh) {
  v = sm_warp_sum(v);
  int w = threadIdx.x >> 5, l = threadIdx.x & 31, nw = blockDim.x >> 5;
  if (l == 0) sh[w] = v;
  __syncthreads();
  A r = l < nw ? sh[l] : (A)0;
  r = sm_warp_sum(r);
  __syncthreads();
  return r;
}

// The outputs of one lane at p (stride st, length n) once m and s are known.
template <typename T, typename A, int MODE>
__device__ __forceinline__ void sm_write(const T* p, T* o, i64 n, i64 st, i64 first, i64 step, A m, A s) {
  if (MODE == 0) {
    A inv = (A)1 / s;
    for (i64 i = first; i < n; i += step) sm_st(o, i * st, sm_exp(sm_ld(p, i * st) - m) * inv);
  } else {
    A ls = sm_log(s);
    for (i64 i = first; i < n; i += step) sm_st(o, i * st, (sm_ld(p, i * st) - m) - ls);
  }
}

// The shift subtracted from a lane: its max; log_softmax and logsumexp
// take 0 when the max is not finite, as SciPy does.
template <typename A, int MODE> __device__ __forceinline__ A sm_shift(A m) {
  return (MODE != 0 && !sm_finite(m)) ? (A)0 : m;
}

// A block per lane of the last axis (lanes of length n, lane b at b * n).
template <typename T, typename A, int MODE>
__device__ void softmax_block(const T* __restrict__ x, T* __restrict__ out, i64 n) {
  __shared__ A sh[32];
  const T* p = x + (i64)blockIdx.x * n;
  if (n <= (i64)blockDim.x * SM_ITEMS) {
    // The lane fits in registers: one read, one exp per element, one write.
    A v[SM_ITEMS];
    A m = sm_ninf<A>();
#pragma unroll
    for (int k = 0; k < SM_ITEMS; k++) {
      i64 i = threadIdx.x + (i64)k * blockDim.x;
      v[k] = i < n ? (A)sm_ld(p, i) : sm_ninf<A>();
      m = sm_max(m, v[k]);
    }
    m = sm_shift<A, MODE>(sm_block_max(m, sh));
    A s = 0;
#pragma unroll
    for (int k = 0; k < SM_ITEMS; k++) {
      i64 i = threadIdx.x + (i64)k * blockDim.x;
      if (i < n) {
        A e = sm_exp(v[k] - m);
        s += e;
        if (MODE == 0) v[k] = e;
      }
    }
    s = sm_block_sum(s, sh);
    T* o = out + (i64)blockIdx.x * n;
    if (MODE == 2) {
      if (threadIdx.x == 0) sm_st(out, blockIdx.x, sm_log(s) + m);
    } else if (MODE == 0) {
      A inv = (A)1 / s;
#pragma unroll
      for (int k = 0; k < SM_ITEMS; k++) {
        i64 i = threadIdx.x + (i64)k * blockDim.x;
        if (i < n) sm_st(o, i, v[k] * inv);
      }
    } else {
      A ls = sm_log(s);
#pragma unroll
      for (int k = 0; k < SM_ITEMS; k++) {
        i64 i = threadIdx.x + (i64)k * blockDim.x;
        if (i < n) sm_st(o, i, (v[k] - m) - ls);
      }
    }
    return;
  }
  A m = sm_ninf<A>();
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) m = sm_max(m, (A)sm_ld(p, i));
  m = sm_shift<A, MODE>(sm_block_max(m, sh));
  A s = 0;
  for (i64 i = threadIdx.x; i < n; i += blockDim.x) s += sm_exp((A)sm_ld(p, i) - m);
  s = sm_block_sum(s, sh);
  if (MODE == 2) {
    if (threadIdx.x == 0) sm_st(out, blockIdx.x, sm_log(s) + m);
  } else {
    sm_write<T, A, MODE>(p, out + (i64)blockIdx.x * n, n, 1, threadIdx.x, blockDim.x, m, s);
  }
}

// A warp per lane of the last axis.
template <typename T, typename A, int MODE>
__device__ void softmax_warp(const T* __restrict__ x, T* __restrict__ out, i64 lanes, i64 n) {
  i64 w = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int l = threadIdx.x & 31;
  if (w >= lanes) return;
  const T* p = x + w * n;
  A m = sm_ninf<A>();
  for (i64 i = l; i < n; i += 32) m = sm_max(m, (A)sm_ld(p, i));
  m = sm_shift<A, MODE>(sm_warp_max(m));
  A s = 0;
  for (i64 i = l; i < n; i += 32) s += sm_exp((A)sm_ld(p, i) - m);
  s = sm_warp_sum(s);
  if (MODE == 2) {
    if (l == 0) sm_st(out, w, sm_log(s) + m);
  } else {
    sm_write<T, A, MODE>(p, out + w * n, n, 1, l, 32, m, s);
  }
}

// A thread per (outer, inner) lane of a middle axis (stride inner).
template <typename T, typename A, int MODE>
__device__ void softmax_cols(const T* __restrict__ x, T* __restrict__ out, i64 outer, i64 n, i64 inner) {
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= outer * inner) return;
  i64 base = (t / inner) * n * inner + t % inner;
  const T* p = x + base;
  A m = sm_ninf<A>();
  for (i64 i = 0; i < n; i++) m = sm_max(m, (A)sm_ld(p, i * inner));
  m = sm_shift<A, MODE>(m);
  A s = 0;
  for (i64 i = 0; i < n; i++) s += sm_exp((A)sm_ld(p, i * inner) - m);
  if (MODE == 2) {
    sm_st(out, t, sm_log(s) + m);
  } else {
    sm_write<T, A, MODE>(p, out + base, n, inner, 0, 1, m, s);
  }
}
