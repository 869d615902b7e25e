// gcalc reductions: one launch, vectorised grid-stride accumulation, warp
// shuffle + shared-memory block reduce, last block finishes (atomic ticket).
// Deterministic: the grid is fixed for a device, so the order of every
// addition is fixed. RT = element type, AT = accumulator, OP = combine.
#include <cuda_fp16.h>
typedef long long i64;
template <typename T, int N> struct alignas(sizeof(T) * N) gvec { T v[N]; };

struct OpSum { template <typename A> __device__ static A id() { return (A)0; }
  template <typename A> __device__ static A f(A a, A b) { return a + b; } };
struct OpProd { template <typename A> __device__ static A id() { return (A)1; }
  template <typename A> __device__ static A f(A a, A b) { return a * b; } };
template <typename A> struct Lim;
template <> struct Lim<float> { __device__ static float lo() { return __int_as_float(0xff800000); } __device__ static float hi() { return __int_as_float(0x7f800000); } };
template <> struct Lim<double> { __device__ static double lo() { return __longlong_as_double(0xfff0000000000000ULL); } __device__ static double hi() { return __longlong_as_double(0x7ff0000000000000ULL); } };
template <> struct Lim<int> { __device__ static int lo() { return -2147483647 - 1; } __device__ static int hi() { return 2147483647; } };
template <> struct Lim<long long> { __device__ static long long lo() { return -9223372036854775807LL - 1; } __device__ static long long hi() { return 9223372036854775807LL; } };
struct OpMax { template <typename A> __device__ static A id() { return Lim<A>::lo(); }
  template <typename A> __device__ static A f(A a, A b) { return (a != a || a > b) ? a : b; } };
struct OpMin { template <typename A> __device__ static A id() { return Lim<A>::hi(); }
  template <typename A> __device__ static A f(A a, A b) { return (a != a || a < b) ? a : b; } };

template <typename A> __device__ __forceinline__ A shfl_down(A v, int o) { return __shfl_down_sync(0xffffffffu, v, o); }

template <typename OP, typename A> __device__ __forceinline__ A block_reduce(A v, A* sh) {
  for (int o = 16; o > 0; o >>= 1) v = OP::f(v, shfl_down(v, o));
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0) sh[w] = v;
  __syncthreads();
  int nw = blockDim.x >> 5;
  v = (threadIdx.x < nw) ? sh[threadIdx.x] : OP::template id<A>();
  if (w == 0) for (int o = 16; o > 0; o >>= 1) v = OP::f(v, shfl_down(v, o));
  return v;
}

template <typename T> __device__ __forceinline__ T ldf(T x) { return x; }
template <typename O> struct Out { template <typename A> __device__ static O cvt(A v) { return (O)v; } };
template <> struct Out<__half> { template <typename A> __device__ static __half cvt(A v) { return __double2half((double)v); } };
template <> struct Out<bool> { template <typename A> __device__ static bool cvt(A v) { return v != (A)0; } };
__device__ __forceinline__ float ldf(__half x) { return __half2float(x); }

// The final value divided by `div` (mean = sum / n in one launch; 1: as is).
template <typename A> __device__ __forceinline__ A divided(A v, double div) {
  return div == 1.0 ? v : (A)((double)v / div);
}

template <typename T, typename A, typename OP, int VEC, typename O>
__device__ void reduce_all(const T* __restrict__ x, i64 n, A* partial, unsigned* ticket, O* out, double div) {
  __shared__ A sh[32];
  __shared__ bool last;
  A acc = OP::template id<A>();
  i64 stride = (i64)gridDim.x * blockDim.x;
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  i64 nv = n / VEC;
  const gvec<T, VEC>* xv = (const gvec<T, VEC>*)x;
  for (i64 i = t; i < nv; i += stride) {
    gvec<T, VEC> g = xv[i];
#pragma unroll
    for (int k = 0; k < VEC; k++) acc = OP::f(acc, (A)ldf(g.v[k]) );
  }
  for (i64 i = nv * VEC + t; i < n; i += stride) acc = OP::f(acc, (A)ldf(x[i]));
  acc = block_reduce<OP, A>(acc, sh);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = acc;
    __threadfence();
    unsigned k = atomicAdd(ticket, 1u);
    last = (k == gridDim.x - 1);
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  A v = OP::template id<A>();
  for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) v = OP::f(v, ((volatile A*)partial)[i]);
  __syncthreads();
  v = block_reduce<OP, A>(v, sh);
  if (threadIdx.x == 0) { *out = Out<O>::cvt(divided(v, div)); *ticket = 0u; }
}

// Axis reduction of a contiguous (outer, r, inner) array.
// inner == 1: one warp per output (lanes stride over r); else one thread per output.
template <typename T, typename A, typename OP, typename O>
__device__ void reduce_rows(const T* __restrict__ x, i64 outer, i64 r, O* out) {
  i64 w = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (w >= outer) return;
  const T* p = x + w * r;
  A acc = OP::template id<A>();
  for (i64 i = lane; i < r; i += 32) acc = OP::f(acc, (A)ldf(p[i]));
  for (int o = 16; o > 0; o >>= 1) acc = OP::f(acc, shfl_down(acc, o));
  if (lane == 0) out[w] = Out<O>::cvt(acc);
}
template <typename T, typename A, typename OP, typename O>
__device__ void reduce_cols(const T* __restrict__ x, i64 outer, i64 r, i64 inner, O* out) {
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= outer * inner) return;
  i64 o = t / inner, in = t % inner;
  const T* p = x + o * r * inner + in;
  A acc = OP::template id<A>();
  for (i64 i = 0; i < r; i++) acc = OP::f(acc, (A)ldf(p[i * inner]));
  out[t] = Out<O>::cvt(acc);
}
