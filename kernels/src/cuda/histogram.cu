// gcalc histogram, bincount and digitize: a thread per element (grid-stride),
// bins found by index (bincount), by NumPy's uniform-bin formula corrected
// against the edges (histogram with a count of bins), or by binary search
// (histogram with edges, digitize). Counts add with 64-bit integer atomics,
// weights with double atomics (their order varies: sums of weights may differ
// from the CPU's in the last bits).
#include <cuda_fp16.h>
typedef long long i64;
typedef unsigned long long u64;

__device__ __forceinline__ double hg_f64(float v) { return (double)v; }
__device__ __forceinline__ double hg_f64(double v) { return v; }
__device__ __forceinline__ double hg_f64(__half v) { return (double)__half2float(v); }
__device__ __forceinline__ double hg_f64(int v) { return (double)v; }
__device__ __forceinline__ double hg_f64(long long v) { return (double)v; }
__device__ __forceinline__ double hg_f64(bool v) { return v ? 1.0 : 0.0; }

// How many edges are below v (strictly: `right` false counts e < v... see
// callers): the first k with v < e[k] (upper bound, side='right') or with
// v <= e[k] (lower bound, side='left'). NaN sorts after every number.
__device__ __forceinline__ i64 hg_bound(const double* e, i64 m, double v, bool left) {
  i64 lo = 0, hi = m;
  bool vn = v != v;
  while (lo < hi) {
    i64 mid = (lo + hi) >> 1;
    double em = e[mid];
    bool en = em != em;
    // e[mid] before v in the sort order (upper: e <= v; lower: e < v).
    bool before = left ? (vn ? !en : (!en && em < v)) : (vn ? true : (!en && em <= v));
    if (before) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// The bin of v among nb bins with edges e[0..nb] (the last bin closed), or
// -1 outside; uniform bins are guessed from the formula first.
__device__ __forceinline__ i64 hg_bin(const double* e, i64 nb, double v, int uniform) {
  double first = e[0], last = e[nb];
  if (!(v >= first && v <= last)) return -1;
  i64 k;
  if (uniform) {
    k = (i64)((v - first) / (last - first) * (double)nb);
    if (k >= nb) k = nb - 1;
    if (k < 0) k = 0;
    if (v < e[k]) k--;
    else if (k != nb - 1 && v >= e[k + 1]) k++;
  } else {
    k = hg_bound(e, nb + 1, v, false) - 1;
    if (k >= nb) k = nb - 1;
  }
  return k;
}

// mode 0: bincount (x non-negative ints); 1: uniform bins; 2: bins by edges.
// counts (when w is null) or sums of w per bin. With `shared` set (the
// launcher gives nb counters of dynamic shared memory: 4 bytes each for
// counts, 8 for sums) each block counts into shared memory and adds its
// nonzero bins to the global ones at the end: a few bins hit by millions of
// elements then contend per block, not across the whole GPU.
template <typename T>
__device__ __forceinline__ i64 hist_bin_of(const T* __restrict__ x, i64 i,
                                           const double* __restrict__ e, i64 nb, int mode) {
  if (mode == 0) return (i64)hg_f64(x[i]);
  return hg_bin(e, nb, hg_f64(x[i]), mode == 1);
}

template <typename T>
__device__ void hist_add(const T* __restrict__ x, const double* __restrict__ w, i64 n,
                         const double* __restrict__ e, i64 nb, int mode, u64* counts,
                         double* sums, int shared) {
  const i64 stride = (i64)gridDim.x * blockDim.x;
  if (shared) {
    extern __shared__ double hg_smem[];
    unsigned int* sc = (unsigned int*)hg_smem;
    for (i64 k = threadIdx.x; k < nb; k += blockDim.x) {
      if (w) hg_smem[k] = 0.0; else sc[k] = 0u;
    }
    __syncthreads();
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
      i64 k = hist_bin_of(x, i, e, nb, mode);
      if (k < 0 || k >= nb) continue;
      if (w) atomicAdd(&hg_smem[k], w[i]);
      else atomicAdd(&sc[k], 1u);
    }
    __syncthreads();
    for (i64 k = threadIdx.x; k < nb; k += blockDim.x) {
      if (w) {
        double v = hg_smem[k];
        if (v != 0.0 || v != v) atomicAdd(&sums[k], v);
      } else {
        unsigned int c = sc[k];
        if (c) atomicAdd(&counts[k], (u64)c);
      }
    }
    return;
  }
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    i64 k = hist_bin_of(x, i, e, nb, mode);
    if (k < 0 || k >= nb) continue;
    if (w) atomicAdd(&sums[k], w[i]);
    else atomicAdd(&counts[k], 1ull);
  }
}

// digitize: out[i] = searchsorted of x[i] in increasing edges e[0..m]
// (side='right' when !left), or for decreasing edges m - that of the
// reversed edges (given reversed in e).
template <typename T>
__device__ void digitize_n(const T* __restrict__ x, i64 n, const double* __restrict__ e, i64 m,
                           int left, int decreasing, i64* out) {
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    i64 k = hg_bound(e, m, hg_f64(x[i]), left != 0);
    out[i] = decreasing ? m - k : k;
  }
}
