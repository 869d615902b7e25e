// gcalc CUDA prelude, part 3: helpers named by the CUDA templates of
// runtime/src/ops/npmath_ew.rs (NumPy's sinc, gcd, lcm, bitwise_count).
// sinc: sin(pi x) / (pi x), 1 at 0, in the compute type (float stays float).
template <typename T> __device__ __forceinline__ T gc_sinc(T x) {
  if (x == (T)0) return (T)1;
  T y = (T)3.14159265358979323846 * x;
  return sin(y) / y;
}
// NumPy's gcd and lcm on integers: of the absolute values; gcd(0, 0) = 0,
// lcm(x, 0) = 0 (wrapping like NumPy's int64 at the most negative value).
__device__ __forceinline__ long long gc_gcd(long long a, long long b) {
  unsigned long long x = a < 0 ? 0ULL - (unsigned long long)a : (unsigned long long)a;
  unsigned long long y = b < 0 ? 0ULL - (unsigned long long)b : (unsigned long long)b;
  while (y != 0) {
    unsigned long long t = x % y;
    x = y;
    y = t;
  }
  return (long long)x;
}
__device__ __forceinline__ long long gc_lcm(long long a, long long b) {
  long long g = gc_gcd(a, b);
  if (g == 0) return 0;
  unsigned long long x = a < 0 ? 0ULL - (unsigned long long)a : (unsigned long long)a;
  unsigned long long y = b < 0 ? 0ULL - (unsigned long long)b : (unsigned long long)b;
  return (long long)((x / (unsigned long long)g) * y);
}
// The number of 1 bits of |x| (NumPy's bitwise_count on signed ints).
__device__ __forceinline__ long long gc_bitcount(long long a) {
  unsigned long long x = a < 0 ? 0ULL - (unsigned long long)a : (unsigned long long)a;
  return (long long)__popcll(x);
}
