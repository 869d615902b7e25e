// gcalc CUDA prelude, part 2: helpers named by the CUDA templates of
// runtime/src/ops/elementwise_math.rs (templates over float and double, so
// float32 kernels stay in float arithmetic: CUDA overloads exp, log1p, exp2).
// NumPy's npy_logaddexp: equal operands (infinities too) give x + ln 2, nan gives nan.
template <typename T> __device__ __forceinline__ T gc_logaddexp(T x, T y) {
  if (x == y) return x + (T)0.693147180559945309;
  T d = x - y;
  if (d > 0) return x + log1p(exp(-d));
  if (d <= 0) return y + log1p(exp(d));
  return d;
}
template <typename T> __device__ __forceinline__ T gc_logaddexp2(T x, T y) {
  if (x == y) return x + (T)1;
  T d = x - y;
  if (d > 0) return x + log1p(exp2(-d)) * (T)1.44269504088896340736;
  if (d <= 0) return y + log1p(exp2(d)) * (T)1.44269504088896340736;
  return d;
}
// NumPy's constants: rounded in the compute type (x * (NPY_PIf / 180.0f)).
__device__ __forceinline__ float gc_deg2rad(float x) { return x * (3.14159265358979323846f / 180.0f); }
__device__ __forceinline__ double gc_deg2rad(double x) { return x * (3.14159265358979323846 / 180.0); }
__device__ __forceinline__ float gc_rad2deg(float x) { return x * (180.0f / 3.14159265358979323846f); }
__device__ __forceinline__ double gc_rad2deg(double x) { return x * (180.0 / 3.14159265358979323846); }
template <typename T> __device__ __forceinline__ T gc_heaviside(T x, T h0) {
  if (x < 0) return (T)0;
  if (x > 0) return (T)1;
  return x == 0 ? h0 : x;
}
// Integer reciprocal (NumPy truncates: 1, -1 or 0) and fmod (C's remainder,
// the dividend's sign); a zero divisor gives 0 here, as gc_floordiv does.
__device__ __forceinline__ long long gc_recip_i(long long x) { return (x == 1 || x == -1) ? x : 0; }
__device__ __forceinline__ long long gc_fmod_i(long long a, long long b) {
  return (b == 0 || b == -1) ? 0 : a % b;
}
