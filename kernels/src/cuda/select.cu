// gcalc order statistics (median, percentile, quantile): radix select over
// lanes of a contiguous array (lane l at l * n). Each element becomes an
// unsigned key that orders as NumPy sorts (NaN last); the r-th smallest key
// is found 8 bits at a time from the top: a histogram of the next digit
// over the elements whose higher digits match the prefix found so far, then
// the bucket holding rank r. Up to SEL_R ranks per lane at once. Few long
// lanes: several blocks per lane add their histograms into global memory
// (select_hist), one block per lane picks the buckets (select_pick); many
// lanes: a block per lane does every pass itself (select_lane). Counts are exact, so
// the result does not depend on the grid.
#include <cuda_fp16.h>
typedef long long i64;
typedef unsigned long long u64;

#define SEL_R 4
#define SEL_BINS 256
#define SEL_THREADS 256

// Keys: floats flip so that their order is the unsigned order (every NaN the
// largest key); signed ints flip the sign bit.
__device__ __forceinline__ u64 sel_key(float v) {
  unsigned b = __float_as_uint(v);
  if (v != v) return 0xffffffffull;
  return (b & 0x80000000u) ? (u64)(~b) : (u64)(b | 0x80000000u);
}
__device__ __forceinline__ u64 sel_key(double v) {
  u64 b = (u64)__double_as_longlong(v);
  if (v != v) return 0xffffffffffffffffull;
  return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}
__device__ __forceinline__ u64 sel_key(__half v) {
  unsigned short b = __half_as_ushort(v);
  if (__hisnan(v)) return 0xffffull;
  return (b & 0x8000u) ? (u64)((unsigned short)~b) : (u64)(b | 0x8000u);
}
__device__ __forceinline__ u64 sel_key(int v) { return (u64)((unsigned)v ^ 0x80000000u); }
__device__ __forceinline__ u64 sel_key(long long v) { return (u64)v ^ 0x8000000000000000ull; }
__device__ __forceinline__ u64 sel_key(bool v) { return v ? 1ull : 0ull; }

template <typename T> __device__ __forceinline__ T sel_value(u64 k);
template <> __device__ __forceinline__ float sel_value<float>(u64 k) {
  unsigned b = (unsigned)k;
  b = (b & 0x80000000u) ? (b & 0x7fffffffu) : ~b;
  return __uint_as_float(b);
}
template <> __device__ __forceinline__ double sel_value<double>(u64 k) {
  u64 b = (k & 0x8000000000000000ull) ? (k & 0x7fffffffffffffffull) : ~k;
  return __longlong_as_double((long long)b);
}
template <> __device__ __forceinline__ __half sel_value<__half>(u64 k) {
  unsigned short b = (unsigned short)k;
  b = (b & 0x8000u) ? (unsigned short)(b & 0x7fffu) : (unsigned short)~b;
  return __ushort_as_half(b);
}
template <> __device__ __forceinline__ int sel_value<int>(u64 k) { return (int)((unsigned)k ^ 0x80000000u); }
template <> __device__ __forceinline__ long long sel_value<long long>(u64 k) { return (long long)(k ^ 0x8000000000000000ull); }
template <> __device__ __forceinline__ bool sel_value<bool>(u64 k) { return k != 0; }

// The search state of one (lane, rank): the key bits found so far and the
// rank still to find among the elements that carry them.
struct SelState { u64 prefix; u64 k; };

// The bits above the digit at `shift` (all of them compared against prefix).
__device__ __forceinline__ u64 sel_above(int shift) {
  return shift + 8 >= 64 ? 0ull : ~((1ull << (shift + 8)) - 1ull);
}

// Block-wide: find, for each of `nr` states, the bucket of `hist`
// (nr x SEL_BINS counts) holding its rank; update the state. blockDim.x ==
// SEL_BINS: thread b owns bin b.
template <typename C>
__device__ void sel_pick_block(const C* hist, SelState* st, int nr, int shift) {
  __shared__ u64 scan[SEL_BINS];
  int b = threadIdx.x;
  for (int t = 0; t < nr; t++) {
    u64 c = (u64)hist[t * SEL_BINS + b];
    scan[b] = c;
    __syncthreads();
    // Inclusive scan (Hillis-Steele) over the bins.
    for (int d = 1; d < SEL_BINS; d <<= 1) {
      u64 v = b >= d ? scan[b - d] : 0ull;
      __syncthreads();
      scan[b] += v;
      __syncthreads();
    }
    u64 incl = scan[b], excl = incl - c;
    u64 k = st[t].k;
    // Every thread reads the rank before the one owning the bucket updates it.
    __syncthreads();
    if (c > 0 && excl <= k && k < incl) {
      st[t].prefix |= ((u64)b) << shift;
      st[t].k = k - excl;
    }
    __syncthreads();
  }
}

// Few long lanes, one pass: blocks (lane = blockIdx.x / per_lane) add the
// histogram of their part of the lane into hist (lanes x SEL_R x SEL_BINS).
template <typename T>
__device__ void select_hist(const T* __restrict__ x, i64 n, int per_lane, const SelState* state, int nr,
                         unsigned long long* hist, int shift) {
  __shared__ unsigned sh[SEL_R * SEL_BINS];
  __shared__ u64 pre[SEL_R];
  i64 lane = blockIdx.x / per_lane;
  int part = blockIdx.x % per_lane;
  for (int i = threadIdx.x; i < SEL_R * SEL_BINS; i += blockDim.x) sh[i] = 0;
  if (threadIdx.x < nr) pre[threadIdx.x] = state[lane * SEL_R + threadIdx.x].prefix;
  __syncthreads();
  u64 above = sel_above(shift);
  const T* p = x + lane * n;
  for (i64 i = (i64)part * blockDim.x + threadIdx.x; i < n; i += (i64)per_lane * blockDim.x) {
    u64 key = sel_key(p[i]);
    unsigned digit = (unsigned)(key >> shift) & 0xffu;
    for (int t = 0; t < nr; t++)
      if ((key & above) == pre[t]) atomicAdd(&sh[t * SEL_BINS + digit], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < nr * SEL_BINS; i += blockDim.x)
    if (sh[i]) atomicAdd(&hist[lane * SEL_R * SEL_BINS + i], (unsigned long long)sh[i]);
}

// Few long lanes: a block per lane picks the buckets of this pass, clears
// the histogram for the next, and after the last pass writes the values
// (out[t * lanes + lane]).
template <typename T>
__device__ void select_pick(unsigned long long* hist, SelState* state, int nr, int shift, i64 lanes, T* out) {
  i64 lane = blockIdx.x;
  unsigned long long* h = hist + lane * SEL_R * SEL_BINS;
  __shared__ SelState st[SEL_R];
  if (threadIdx.x < nr) st[threadIdx.x] = state[lane * SEL_R + threadIdx.x];
  __syncthreads();
  sel_pick_block(h, st, nr, shift);
  for (int i = threadIdx.x; i < nr * SEL_BINS; i += blockDim.x) h[i] = 0ull;
  if (threadIdx.x < nr) {
    state[lane * SEL_R + threadIdx.x] = st[threadIdx.x];
    if (shift == 0) out[threadIdx.x * lanes + lane] = sel_value<T>(st[threadIdx.x].prefix);
  }
}

// Sets every lane's states to the ranks r0..r3 (prefix 0).
__device__ void select_init(SelState* state, i64 lanes, int nr, i64 r0, i64 r1, i64 r2, i64 r3) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lanes * SEL_R) return;
  int t = (int)(i % SEL_R);
  i64 r = t == 0 ? r0 : t == 1 ? r1 : t == 2 ? r2 : r3;
  state[i].prefix = 0ull;
  state[i].k = (u64)(t < nr ? r : 0);
}

// Many lanes: a block per lane does every pass (`bits` of key: 16, 32, 64).
template <typename T>
__device__ void select_lane(const T* __restrict__ x, i64 n, int nr, i64 r0, i64 r1, i64 r2, i64 r3, int bits,
                         i64 lanes, T* out) {
  __shared__ unsigned sh[SEL_R * SEL_BINS];
  __shared__ SelState st[SEL_R];
  i64 lane = blockIdx.x;
  const T* p = x + lane * n;
  if (threadIdx.x < SEL_R) {
    int t = threadIdx.x;
    st[t].prefix = 0ull;
    st[t].k = (u64)(t == 0 ? r0 : t == 1 ? r1 : t == 2 ? r2 : r3);
  }
  for (int shift = bits - 8; shift >= 0; shift -= 8) {
    for (int i = threadIdx.x; i < SEL_R * SEL_BINS; i += blockDim.x) sh[i] = 0;
    __syncthreads();
    u64 above = sel_above(shift);
    for (i64 i = threadIdx.x; i < n; i += blockDim.x) {
      u64 key = sel_key(p[i]);
      unsigned digit = (unsigned)(key >> shift) & 0xffu;
      for (int t = 0; t < nr; t++)
        if ((key & above) == st[t].prefix) atomicAdd(&sh[t * SEL_BINS + digit], 1u);
    }
    __syncthreads();
    sel_pick_block(sh, st, nr, shift);
  }
  if (threadIdx.x < nr) out[threadIdx.x * lanes + lane] = sel_value<T>(st[threadIdx.x].prefix);
}
