// gcalc's random draws on the GPU, launched by runtime/src/cuda/rng_draws.rs:
// element i of a draw is samplers.cuh's gc_draw (the CPU's value bit for bit,
// this module being compiled with --fmad=false), the permutation's indices,
// rows gathered by an index array, and choice's cdf search.
template <typename T> __device__ __forceinline__ void gc_store(T* o, gc_u64 i, double v) { o[i] = (T)v; }
// float16 rounds once from float64 (to nearest even), as the CPU's f16::from_f64_const.
__device__ __forceinline__ void gc_store(__half* o, gc_u64 i, double v) { o[i] = __double2half(v); }
__device__ __forceinline__ void gc_store(bool* o, gc_u64 i, double v) { o[i] = v != 0.0; }
__device__ __forceinline__ gc_u64 gc_tid() { return (gc_u64)blockIdx.x * blockDim.x + threadIdx.x; }
// Parameters: an array of n float64 values (the parameter broadcast to the
// output's shape), or a null pointer and one value for every element.
template <typename T>
__device__ void gc_draw_kernel(int dist, T* o, gc_u64 n, gc_u64 ctr, gc_u64 key, const double* pa,
                               double a, const double* pb, double b) {
  gc_u64 i = gc_tid();
  if (i >= n) return;
  gc_store(o, i, gc_draw(dist, ctr, key, i, pa ? pa[i] : a, pb ? pb[i] : b));
}
// o[i] = the permutation of 0..n at i, for i < k.
extern "C" __global__ void perm_index(gc_i64* o, gc_u64 k, gc_u64 n, gc_u64 ctr, gc_u64 key) {
  gc_u64 i = gc_tid();
  if (i >= k) return;
  gc_perm p = gc_perm_new(n, ctr, key);
  o[i] = (gc_i64)gc_perm_at(&p, i);
}
// o[i] = the cdf index of element i's uniform (choice with p, with replacement).
extern "C" __global__ void choice_cdf(gc_i64* o, gc_u64 k, const double* cdf, gc_u64 n, gc_u64 ctr, gc_u64 key) {
  gc_u64 i = gc_tid();
  if (i >= k) return;
  o[i] = (gc_i64)gc_cdf_index(cdf, n, gc_pair_uniform(ctr, key, i));
}
// Rows of x (each `len` elements of one width) by an index array: o row i = x row idx[i].
template <typename W>
__device__ void gc_take_rows(W* o, const W* x, const gc_i64* idx, gc_u64 k, gc_u64 len) {
  gc_u64 t = gc_tid();
  if (t >= k * len) return;
  gc_u64 i = t / len, j = t - i * len;
  o[t] = x[(gc_u64)idx[i] * len + j];
}
extern "C" __global__ void take_rows_1(unsigned char* o, const unsigned char* x, const gc_i64* idx, gc_u64 k, gc_u64 len) { gc_take_rows(o, x, idx, k, len); }
extern "C" __global__ void take_rows_2(unsigned short* o, const unsigned short* x, const gc_i64* idx, gc_u64 k, gc_u64 len) { gc_take_rows(o, x, idx, k, len); }
extern "C" __global__ void take_rows_4(unsigned int* o, const unsigned int* x, const gc_i64* idx, gc_u64 k, gc_u64 len) { gc_take_rows(o, x, idx, k, len); }
extern "C" __global__ void take_rows_8(gc_u64* o, const gc_u64* x, const gc_i64* idx, gc_u64 k, gc_u64 len) { gc_take_rows(o, x, idx, k, len); }
