// gcalc Philox 4x32-10 on the GPU, reproducing runtime/src/random.rs bit for bit.
#include <cuda_fp16.h>
typedef unsigned long long u64;
typedef unsigned int u32;
__device__ __forceinline__ uint4 philox(u64 c, u64 seed) {
  u32 c0 = (u32)c, c1 = (u32)(c >> 32), c2 = 0, c3 = 0;
  u32 k0 = (u32)seed, k1 = (u32)(seed >> 32);
#pragma unroll
  for (int r = 0; r < 10; r++) {
    if (r > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    u64 p0 = (u64)0xD2511F53u * c0, p1 = (u64)0xCD9E8D57u * c2;
    u32 hi0 = (u32)(p0 >> 32), lo0 = (u32)p0, hi1 = (u32)(p1 >> 32), lo1 = (u32)p1;
    u32 n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
  }
  return make_uint4(c0, c1, c2, c3);
}
// Word j of the stream that starts at block counter `ctr`.
// (ctr + j/4 never carries past 64 bits for the sizes gcalc draws.)
__device__ __forceinline__ u32 word(u64 ctr, u64 seed, u64 j) {
  uint4 b = philox(ctr + j / 4, seed);
  switch (j & 3) { case 0: return b.x; case 1: return b.y; case 2: return b.z; default: return b.w; }
}
__device__ __forceinline__ double u53(u32 lo, u32 hi) {
  return (double)(((((u64)hi) << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}
// Uniform values in [0,1) as float64 for element i; dt: 0 = f16, 1 = f32, 2 = f64.
__device__ __forceinline__ double unif(u64 ctr, u64 seed, u64 i, int dt) {
  if (dt == 2) return u53(word(ctr, seed, 2 * i), word(ctr, seed, 2 * i + 1));
  u32 w = word(ctr, seed, i);
  return dt == 0 ? (double)(w >> 21) / 2048.0 : (double)(w >> 8) / 16777216.0;
}
template <typename T> __device__ __forceinline__ void put(T* o, u64 i, double v) { o[i] = (T)v; }
// float16 rounds once from float64 (round to nearest even), as the CPU's f16::from_f64_const.
__device__ __forceinline__ void put(__half* o, u64 i, double v) { o[i] = __double2half(v); }
// uniform: out[i] = lo + (hi - lo) * u
template <typename T>
__device__ void rng_uniform(T* o, u64 n, u64 ctr, u64 seed, int dt, double lo, double hi) {
  u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // __dmul_rn/__dadd_rn: no fused multiply-add, so the value is the CPU's bit for bit.
  put(o, i, __dadd_rn(lo, __dmul_rn(hi - lo, unif(ctr, seed, i, dt))));
}
// normal: Box-Muller on pairs (element 2p = r cos, 2p+1 = r sin).
template <typename T>
__device__ void rng_normal(T* o, u64 n, u64 ctr, u64 seed, int dt, double mu, double sigma) {
  u64 p = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * p >= n) return;
  double a = unif(ctr, seed, 2 * p, dt), b = unif(ctr, seed, 2 * p + 1, dt);
  double r = sqrt(-2.0 * log(1.0 - a));
  double t = 2.0 * 3.141592653589793 * b;
  put(o, 2 * p, __dadd_rn(mu, __dmul_rn(sigma, __dmul_rn(r, cos(t)))));
  if (2 * p + 1 < n) put(o, 2 * p + 1, __dadd_rn(mu, __dmul_rn(sigma, __dmul_rn(r, sin(t)))));
}
// randint: out[i] = lo + ((w * r) >> 32) from word i when r <= 2^32, else
// lo + high64(x * r) with x = words 2i (low) and 2i+1 (high); Lemire's
// multiply-shift without rejection, wrapping like the CPU's i64 arithmetic.
__device__ void rng_randint(long long* o, u64 n, u64 ctr, u64 seed, long long lo, u64 r) {
  u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u64 off;
  if (r <= (1ULL << 32)) {
    off = ((u64)word(ctr, seed, i) * r) >> 32;
  } else {
    u64 x = ((u64)word(ctr, seed, 2 * i + 1) << 32) | (u64)word(ctr, seed, 2 * i);
    off = __umul64hi(x, r);
  }
  o[i] = (long long)((u64)lo + off);
}
