// gcalc CUDA prelude: included at the top of every generated kernel.
#include <cuda_fp16.h>
typedef long long i64;
typedef unsigned long long u64;
template <typename T, int N> struct alignas(sizeof(T) * N) gvec { T v[N]; };
__device__ __forceinline__ float gc_ld(const __half* p, i64 i) { return __half2float(p[i]); }
__device__ __forceinline__ float gc_cvt_h(__half h) { return __half2float(h); }
template <typename T> __device__ __forceinline__ T gc_ld(const T* p, i64 i) { return p[i]; }
template <typename T> __device__ __forceinline__ float gc_up(T x) { return (float)x; }
__device__ __forceinline__ __half gc_to_half(float x) { return __float2half_rn(x); }
__device__ __forceinline__ __half gc_to_half(double x) { return __double2half(x); }
template <typename T> __device__ __forceinline__ __half gc_to_half(T x) { return __float2half_rn((float)x); }
__device__ __forceinline__ float gc_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
__device__ __forceinline__ double gc_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
__device__ __forceinline__ float gc_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double gc_rsqrt(double x) { return rsqrt(x); }
// Integer and Python-style helpers named by the op table's CUDA templates.
__device__ __forceinline__ long long gc_floordiv(long long a, long long b) {
  if (b == 0) return 0;
  long long q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}
__device__ __forceinline__ long long gc_mod(long long a, long long b) {
  if (b == 0) return 0;
  long long r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
// NumPy's clip, minimum(maximum(x, lo), hi): a nan (in x, lo or hi) wins.
template <typename T> __device__ __forceinline__ T gc_clip(T x, T lo, T hi) {
  T m = (x > lo || x != x) ? x : lo;
  return (m < hi || m != m) ? m : hi;
}
// NumPy's float remainder: the divisor's sign, a zero too (copysign(0, b)).
template <typename T> __device__ __forceinline__ T gc_fmod_py(T a, T b) {
  T r = fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  else if (r == 0) r = copysign((T)0, b);
  return r;
}
// NumPy's float floor division (npy_floor_divide): through fmod, so that
// 1.0 // 0.1 is 9 and -3 // inf is -1 as NumPy gives, not floor(a / b).
template <typename T> __device__ __forceinline__ T gc_floordiv_f(T a, T b) {
  if (b == 0) return a / b;
  T m = fmod(a, b);
  T d = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
  if (d == 0) return copysign((T)0, a / b);
  T f = floor(d);
  if (d - f > (T)0.5) f += 1;
  return f;
}
__device__ __forceinline__ long long gc_ipow(long long a, long long b) {
  if (b < 0) return 0;
  long long r = 1;
  while (b) { if (b & 1) r *= a; a *= a; b >>= 1; }
  return r;
}
// Bitwise not (logical on bools) and NumPy's shifts (a count outside 0..63 shifts everything out).
__device__ __forceinline__ bool gc_invert(bool x) { return !x; }
__device__ __forceinline__ int gc_invert(int x) { return ~x; }
__device__ __forceinline__ long long gc_invert(long long x) { return ~x; }
__device__ __forceinline__ long long gc_shl(long long a, long long b) {
  return (b >= 0 && b < 64) ? (long long)((unsigned long long)a << b) : 0;
}
__device__ __forceinline__ long long gc_shr(long long a, long long b) {
  return (b >= 0 && b < 64) ? (a >> b) : (a < 0 ? -1 : 0);
}
