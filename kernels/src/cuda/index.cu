// gcalc indexing on the GPU: gathers by element offsets, stores into a
// strided view or at listed offsets, and the gradient of a gather (a
// segmented sum in a fixed order: deterministic, no atomics). Elements move
// as unsigned integers of their size (U), so one kernel serves every dtype
// of that size. Offsets and strides count elements.
typedef long long i64;
#define GC_VIEW_DIMS 8
struct GcView { i64 shape[GC_VIEW_DIMS]; i64 st[GC_VIEW_DIMS]; };

// out[i] = base[offs[i]]
template <typename U>
__device__ void gather(U* __restrict__ out, i64 n, const U* __restrict__ base, const i64* __restrict__ offs) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base[offs[i]];
}

// base[tgt[k]] = src[from[k]] for k < n (the targets are distinct).
template <typename U>
__device__ void scatter(U* base, i64 n, const U* __restrict__ src, const i64* __restrict__ tgt, const i64* __restrict__ from) {
  i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) base[tgt[k]] = src[from[k]];
}

// Element i (C order over v.shape[0..nd]) of contiguous src into the view
// of base with strides v.st.
template <typename U>
__device__ void store_view(U* base, i64 n, const U* __restrict__ src, int nd, GcView v) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  i64 r = i, o = 0;
  for (int d = nd - 1; d >= 0; d--) {
    i64 c = r % v.shape[d];
    r /= v.shape[d];
    o += c * v.st[d];
  }
  base[o] = src[i];
}

#define GC_MOVES(S, U) \
extern "C" __global__ void gather_##S(U* out, i64 n, const U* base, const i64* offs) { gather<U>(out, n, base, offs); } \
extern "C" __global__ void scatter_##S(U* base, i64 n, const U* src, const i64* tgt, const i64* from) { scatter<U>(base, n, src, tgt, from); } \
extern "C" __global__ void store_view_##S(U* base, i64 n, const U* src, int nd, GcView v) { store_view<U>(base, n, src, nd, v); }
GC_MOVES(1, unsigned char)
GC_MOVES(2, unsigned short)
GC_MOVES(4, unsigned int)
GC_MOVES(8, unsigned long long)

// The gradient of a gather: out[tgt[k]] = sum of g[from[j]] for j in
// [start[k], start[k+1]), added in that order in float64 (as the CPU does).
extern "C" __global__ void scatter_add_f64(double* out, i64 u, const i64* tgt, const i64* start, const i64* from, const double* g) {
  i64 k = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= u) return;
  double acc = 0.0;
  for (i64 j = start[k]; j < start[k + 1]; j++) acc += g[from[j]];
  out[tgt[k]] = acc;
}
