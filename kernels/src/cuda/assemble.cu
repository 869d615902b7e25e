// gcalc assembly on the GPU: the remap gather behind pad, roll, tile,
// repeat, take and take_along_axis (each output axis maps its coordinate to
// a source coordinate through a small table, an index array, or nothing);
// the adjoint of an axis map (the gradient: a fixed-order sum per source
// coordinate, deterministic, no atomics); and put_along_axis's in-place
// writes (repeated targets: the last in C order wins, as on the CPU).
// Elements move as unsigned integers of their size (U): one kernel per size.
#include <cuda_fp16.h>
typedef long long i64;
typedef unsigned long long u64;
// A 16-byte element (complex128) moved as two words; from a 64-bit fill
// value it takes the low word (a complex128 fill of real value: the
// imaginary part's bits are 0).
struct __align__(16) gc_u128 {
  u64 lo, hi;
  __device__ gc_u128() {}
  __device__ gc_u128(u64 v) : lo(v), hi(0) {}
};

#define GC_FILL_BEFORE (-9223372036854775807LL - 1)
// Fields per axis of a remap's meta: output length, source stride, map kind,
// table start (in meta), source length, fill before, fill after (the bits
// of an element, zero-extended).
#define GC_RM_FIELDS 7
#define GC_RM_MAX_DIMS 64

// out[i] = src[sum of map_d(c_d) * stride_d] or a fill value: the last axis
// whose map gives a fill wins (NumPy's pad fills axis by axis). Kinds (arg
// is meta field 3): 0 the same coordinate; 1 meta[arg + c]; 2 ext[c]
// (negative from the end); 3 ext[c] modulo n; 4 ext[c] clamped; 5 ext[i]
// (negative from the end); 6 (c - arg) mod n; 7 c / arg; 8-11 c - arg,
// outside 0..n: the fills (8), the edge (9), reflected (10), symmetric (11).
// Index entries were checked on the host side; they are clamped here too so
// that a bug can never read outside the source.
template <typename U>
__device__ void remap(U* __restrict__ out, i64 n, const U* __restrict__ src, int nd,
                      const i64* __restrict__ meta, const i64* __restrict__ ext) {
  __shared__ i64 sm[GC_RM_FIELDS * GC_RM_MAX_DIMS];
  for (int k = threadIdx.x; k < GC_RM_FIELDS * nd; k += blockDim.x) sm[k] = meta[k];
  __syncthreads();
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  i64 r = i, off = 0;
  int fill = -1;
  for (int d = nd - 1; d >= 0; d--) {
    const i64* m = sm + GC_RM_FIELDS * d;
    i64 len = m[0], c = r % len, t, ns = m[4], arg = m[3];
    int kind = (int)m[2];
    r /= len;
    switch (kind) {
      case 0: t = c; break;
      case 1: t = meta[arg + c]; break;
      case 2: t = ext[c]; if (t < 0) t += ns; break;
      case 3: t = ext[c] % ns; if (t < 0) t += ns; break;
      case 4: t = ext[c]; t = t < 0 ? 0 : (t >= ns ? ns - 1 : t); break;
      case 5: t = ext[i]; if (t < 0) t += ns; break;
      case 6: t = (c - arg) % ns; if (t < 0) t += ns; break;
      case 7: t = c / arg; break;
      case 8: t = c - arg; if (t < 0) t = GC_FILL_BEFORE; else if (t >= ns) t = GC_FILL_BEFORE + 1; break;
      case 9: t = c - arg; t = t < 0 ? 0 : (t >= ns ? ns - 1 : t); break;
      case 10: {
        t = c - arg;
        if (ns <= 1) { t = 0; break; }
        i64 p = 2 * (ns - 1), q = t % p;
        if (q < 0) q += p;
        t = q < ns ? q : p - q;
        break;
      }
      default: {
        t = c - arg;
        i64 p = 2 * ns, q = t % p;
        if (q < 0) q += p;
        t = q < ns ? q : p - 1 - q;
        break;
      }
    }
    if ((kind == 1 || kind == 8) && t < 0) {
      if (fill < 0) fill = GC_RM_FIELDS * d + (t == GC_FILL_BEFORE ? 5 : 6);
      continue;
    }
    t = t < 0 ? 0 : (t >= ns ? ns - 1 : t);
    off += t * m[1];
  }
  out[i] = fill >= 0 ? (U)(u64)sm[fill] : src[off];
}

// The adjoint of an axis map over g of shape (outer, m, inner), contiguous:
// out[o, j, k] = sum of g[o, members[s], k] for s in [starts[j], starts[j+1]),
// added in that order in double, then rounded once to T.
__device__ __forceinline__ double gc_as_d(__half v) { return (double)__half2float(v); }
__device__ __forceinline__ double gc_as_d(float v) { return (double)v; }
__device__ __forceinline__ double gc_as_d(double v) { return v; }
__device__ __forceinline__ void gc_from_d(__half* o, double v) { *o = __double2half(v); }
__device__ __forceinline__ void gc_from_d(float* o, double v) { *o = (float)v; }
__device__ __forceinline__ void gc_from_d(double* o, double v) { *o = v; }

template <typename T>
__device__ void axis_sum(T* __restrict__ out, i64 n_out, const T* __restrict__ g, i64 m, i64 n,
                         i64 inner, const i64* __restrict__ starts, const i64* __restrict__ members) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_out) return;
  i64 k = i % inner, j = (i / inner) % n, o = i / (inner * n);
  double acc = 0.0;
  for (i64 s = starts[j]; s < starts[j + 1]; s++) acc += gc_as_d(g[(o * m + members[s]) * inner + k]);
  gc_from_d(out + i, acc);
}

// put_along_axis: vals and idx are contiguous over the index shape S; meta
// holds per axis of S: its length, arr's stride, S's stride, and whether it
// is serial (the axis itself, or an axis arr broadcasts over). One thread
// per combination of the other (free) coordinates, which never share a
// target; it writes its serial coordinates in C order, so the last write
// to a target is the last in C order. Index entries were checked (in
// -n..n, negative from the end).
template <typename U>
__device__ void put_along(U* arr, i64 nfree, const U* __restrict__ vals, const i64* __restrict__ idx,
                          int nd, const i64* __restrict__ meta, int axis, i64 n_axis, i64 nserial) {
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nfree) return;
  i64 r = t, base = 0, pbase = 0;
  for (int d = nd - 1; d >= 0; d--) {
    const i64* m = meta + 4 * d;
    if (m[3]) continue;
    i64 c = r % m[0];
    r /= m[0];
    base += c * m[1];
    pbase += c * m[2];
  }
  for (i64 k = 0; k < nserial; k++) {
    i64 q = k, off = base, p = pbase;
    for (int d = nd - 1; d >= 0; d--) {
      const i64* m = meta + 4 * d;
      if (!m[3]) continue;
      i64 c = q % m[0];
      q /= m[0];
      p += c * m[2];
      if (d != axis) off += c * m[1];
    }
    i64 j = idx[p];
    if (j < 0) j += n_axis;
    j = j < 0 ? 0 : (j >= n_axis ? n_axis - 1 : j);
    arr[off + j * meta[4 * axis + 1]] = vals[p];
  }
}

#define GC_ASSEMBLE(S, U) \
extern "C" __global__ void remap_##S(U* out, i64 n, const U* src, int nd, const i64* meta, const i64* ext) { remap<U>(out, n, src, nd, meta, ext); } \
extern "C" __global__ void put_along_##S(U* arr, i64 nfree, const U* vals, const i64* idx, int nd, const i64* meta, int axis, i64 n_axis, i64 nserial) { put_along<U>(arr, nfree, vals, idx, nd, meta, axis, n_axis, nserial); }
GC_ASSEMBLE(1, unsigned char)
GC_ASSEMBLE(2, unsigned short)
GC_ASSEMBLE(4, unsigned int)
GC_ASSEMBLE(8, unsigned long long)
GC_ASSEMBLE(16, gc_u128)

#define GC_AXIS_SUM(N, T) \
extern "C" __global__ void axis_sum_##N(T* out, i64 n_out, const T* g, i64 m, i64 n, i64 inner, const i64* starts, const i64* members) { axis_sum<T>(out, n_out, g, m, n, inner, starts, members); }
GC_AXIS_SUM(f16, __half)
GC_AXIS_SUM(f32, float)
GC_AXIS_SUM(f64, double)
