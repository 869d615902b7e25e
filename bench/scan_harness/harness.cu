// Standalone check of scan.cu's long-lane path (reduce, carry, tile), built
// with nvcc on the GPU host, no Rust: per-case output hashes (compare two
// builds of different scan.cu files bit for bit), determinism, error against
// a float64 host reference, and event timings per kernel. bench/scan_harness/run.sh.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include <algorithm>
#include <cuda_runtime.h>
#include SCAN_FILE
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
template <typename T, typename O, typename P> __global__ void __launch_bounds__(SC_THREADS) k_reduce(const T* x, typename P::Acc* partial, i64 n, i64 tiles, int rev) { scan_reduce<T, O, P>(x, x, x, partial, n, tiles, rev); }
template <typename P> __global__ void __launch_bounds__(SC_THREADS) k_carry(typename P::Acc* partial, i64 tiles) { scan_carry<P>(partial, tiles); }
template <typename T, typename O, typename P> __global__ void __launch_bounds__(SC_THREADS) k_tile(const T* x, const typename P::Acc* partial, O* out, i64 n, i64 tiles, int rev) { scan_tile<T, O, P>(x, x, x, partial, out, n, tiles, rev); }

template <typename T, typename O, typename P>
void run(const T* x, O* out, typename P::Acc* partial, i64 outer, i64 n, int rev, float* kt = nullptr) {
  i64 tiles = (n + SC_TILE - 1) / SC_TILE;
  unsigned blocks = outer * tiles;
  cudaEvent_t e[4];
  if (kt) { for (int i = 0; i < 4; i++) cudaEventCreate(&e[i]); cudaEventRecord(e[0]); }
  if (tiles > 1) {
    k_reduce<T, O, P><<<blocks, SC_THREADS>>>(x, partial, n, tiles, rev);
    if (kt) cudaEventRecord(e[1]);
    k_carry<P><<<outer, SC_THREADS>>>(partial, tiles);
    if (kt) cudaEventRecord(e[2]);
  }
  k_tile<T, O, P><<<blocks, SC_THREADS>>>(x, partial, out, n, tiles, rev);
  if (kt) { cudaEventRecord(e[3]); cudaEventSynchronize(e[3]);
    cudaEventElapsedTime(&kt[0], e[0], e[1]); cudaEventElapsedTime(&kt[1], e[1], e[2]); cudaEventElapsedTime(&kt[2], e[2], e[3]);
    for (int i = 0; i < 4; i++) cudaEventDestroy(e[i]); }
}

unsigned long long fnv(const void* p, size_t b) { const unsigned char* c = (const unsigned char*)p; unsigned long long h = 1469598103934665603ULL; for (size_t i = 0; i < b; i++) { h ^= c[i]; h *= 1099511628211ULL; } return h; }
double tod(float v) { return v; } double tod(double v) { return v; } double tod(long long v) { return (double)v; } double tod(int v) { return v; } double tod(__half v) { return __half2float(v); }

template <typename T, typename O, typename P>
void cases(const char* name, int kind, i64 outer, i64 n, int rev, int offset, bool timing) {
  i64 total = outer * n + offset;
  std::vector<T> h(total);
  unsigned s = 12345;
  for (i64 i = 0; i < total; i++) { s = s * 1664525u + 1013904223u; double u = (s >> 8) / 16777216.0; h[i] = (T)(kind == 2 ? (double)((s >> 8) % 100) : u * 2 - 0.5); }
  T* dx; O* dout; typename P::Acc* part;
  CK(cudaMalloc(&dx, total * sizeof(T))); CK(cudaMalloc(&dout, (outer * n + 1) * sizeof(O)));
  CK(cudaMalloc(&part, (outer * ((n + SC_TILE - 1) / SC_TILE) + 1) * sizeof(typename P::Acc)));
  CK(cudaMemcpy(dx, h.data(), total * sizeof(T), cudaMemcpyHostToDevice));
  run<T, O, P>(dx + offset, dout, part, outer, n, rev);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<O> o(outer * n);
  CK(cudaMemcpy(o.data(), dout, outer * n * sizeof(O), cudaMemcpyDeviceToHost));
  unsigned long long h1 = fnv(o.data(), o.size() * sizeof(O));
  run<T, O, P>(dx + offset, dout, part, outer, n, rev); CK(cudaDeviceSynchronize());
  std::vector<O> o2(outer * n);
  CK(cudaMemcpy(o2.data(), dout, outer * n * sizeof(O), cudaMemcpyDeviceToHost));
  bool det = fnv(o2.data(), o2.size() * sizeof(O)) == h1;
  double maxerr = 0, scale = 0;
  for (i64 L = 0; L < outer; L++) {
    double acc = kind == 1 ? -INFINITY : 0;
    for (i64 r = 0; r < n; r++) {
      i64 j = rev ? n - 1 - r : r;
      double v = tod(h[offset + L * n + j]);
      acc = kind == 1 ? std::max(acc, v) : acc + v;
      double g = tod(o[L * n + j]);
      maxerr = std::max(maxerr, std::fabs(g - acc)); scale = std::max(scale, std::fabs(acc));
    }
  }
  printf("%-28s outer %lld n %lld rev %d off %d: hash %016llx det %d relerr %.3g\n", name, outer, n, rev, offset, h1, det, maxerr / (scale > 0 ? scale : 1));
  if (timing) {
    float kt[3], best[3] = {1e9, 1e9, 1e9};
    std::vector<float> tot;
    for (int it = 0; it < 5; it++) run<T, O, P>(dx + offset, dout, part, outer, n, rev);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    for (int it = 0; it < 50; it++) {
      cudaEventRecord(a); run<T, O, P>(dx + offset, dout, part, outer, n, rev); cudaEventRecord(b); cudaEventSynchronize(b);
      float ms; cudaEventElapsedTime(&ms, a, b); tot.push_back(ms * 1000);
    }
    for (int it = 0; it < 20; it++) { run<T, O, P>(dx + offset, dout, part, outer, n, rev, kt); for (int k = 0; k < 3; k++) best[k] = std::min(best[k], kt[k] * 1000); }
    std::sort(tot.begin(), tot.end());
    printf("   time: median %.1f us (min %.1f); per kernel best: reduce %.1f carry %.1f tile %.1f us\n", tot[25], tot[0], best[0], best[1], best[2]);
  }
  cudaFree(dx); cudaFree(dout); cudaFree(part);
}

int main() {
  typedef Plain<float, double, ScAdd, float> PF;
  typedef Plain<double, double, ScAdd, double> PD;
  typedef Plain<int, long long, ScAdd, long long> PI;
  typedef Plain<__half, double, ScAdd, __half> PH;
  typedef Plain<float, double, ScMax, float> PM;
  cases<float, float, PF>("f32 sum 10M", 0, 1, 10000000, 0, 0, true);
  cases<float, float, PF>("f32 sum 10M+3 misaligned", 0, 1, 10000003, 0, 1, true);
  cases<float, float, PF>("f32 sum rev", 0, 1, 1000003, 1, 0, false);
  cases<float, float, PF>("f32 sum lanes", 0, 3, 5001, 0, 0, false);
  cases<float, float, PF>("f32 sum lanes 4096x", 0, 2, 8192, 0, 0, false);
  cases<double, double, PD>("f64 sum 10M", 0, 1, 10000000, 0, 0, true);
  cases<int, long long, PI>("i32->i64 sum", 2, 1, 3000001, 0, 0, true);
  cases<__half, __half, PH>("f16 sum", 0, 1, 100000, 0, 0, false);
  cases<float, float, PM>("f32 cummax", 1, 1, 2000000, 0, 0, false);
  cases<float, float, PM>("f32 cummax rev lanes", 1, 2, 300001, 1, 0, false);
  return 0;
}
