// gcalc scans (cumsum, cumprod, cummax, cummin, and the segmented reverse
// sum behind cummax's gradient) along one axis of a contiguous array seen as
// (outer, n, inner). Lanes along the last axis: a warp per short lane, or
// reduce-then-scan for long ones (tiles of SC_TILE elements: the tiles'
// totals, one block per lane scanning them into carries, then every tile
// scanned from its carry). A middle axis: a thread per (outer, inner) lane.
// The order of every combination depends on the sizes only: deterministic.
// A policy P gives the running type (P::Acc), its identity and combination,
// how an element is read (P::load) and how a result is written (P::store).
#include <cuda_fp16.h>
typedef long long i64;

#define SC_THREADS 512
#define SC_ITEMS 8
#define SC_TILE (SC_THREADS * SC_ITEMS)

template <typename A, typename T> __device__ __forceinline__ A sc_load(T x) { return (A)x; }
template <> __device__ __forceinline__ double sc_load<double, __half>(__half x) { return (double)__half2float(x); }
template <typename O, typename A> __device__ __forceinline__ O sc_store(A a) { return (O)a; }
template <> __device__ __forceinline__ __half sc_store<__half, double>(double a) { return __double2half(a); }

struct ScAdd { template <typename A> __device__ static A id() { return (A)0; }
  template <typename A> __device__ static A f(A a, A b) { return a + b; } };
struct ScMul { template <typename A> __device__ static A id() { return (A)1; }
  template <typename A> __device__ static A f(A a, A b) { return a * b; } };
template <typename A> struct ScLim;
template <> struct ScLim<double> { __device__ static double lo() { return __longlong_as_double(0xfff0000000000000ULL); }
  __device__ static double hi() { return __longlong_as_double(0x7ff0000000000000ULL); } };
template <> struct ScLim<long long> { __device__ static long long lo() { return -9223372036854775807LL - 1; }
  __device__ static long long hi() { return 9223372036854775807LL; } };
// Running max/min: NaN, once met, stays (a != a only for NaN).
struct ScMax { template <typename A> __device__ static A id() { return ScLim<A>::lo(); }
  template <typename A> __device__ static A f(A a, A b) { return (a != a || a > b) ? a : b; } };
struct ScMin { template <typename A> __device__ static A id() { return ScLim<A>::hi(); }
  template <typename A> __device__ static A f(A a, A b) { return (a != a || a < b) ? a : b; } };

// Element i (at position j of its lane of length n, stride st) read as A;
// results written as O.
template <typename T, typename A, typename C, typename O> struct Plain {
  typedef A Acc;
  __device__ static A id() { return C::template id<A>(); }
  __device__ static A f(A a, A b) { return C::template f<A>(a, b); }
  __device__ static A load(const T* x, const T*, const T*, i64 i, i64, i64, i64) { return sc_load<A, T>(x[i]); }
  __device__ static void store(O* o, const T*, const T*, const T*, i64 i, i64, A v) { o[i] = sc_store<O, A>(v); }
};

// The segmented sum: a value and whether a segment starts at or after it.
struct Seg { double v; int f; };
__device__ __forceinline__ double sc_f64(double x) { return x; }
__device__ __forceinline__ double sc_f64(float x) { return (double)x; }
__device__ __forceinline__ double sc_f64(__half x) { return (double)__half2float(x); }
// cummax/cummin's gradient, scanned from the end of the lane: g (x) summed
// back to the last element i <= j that set the running value (x0[i] ==
// y[i], or x0[i] is NaN: a1 = x0 the scan's input, a2 = y its output);
// element j starts a segment when j + 1 set it. Elements that set nothing get 0.
template <typename T> struct SegRev {
  typedef Seg Acc;
  __device__ static Seg id() { Seg s; s.v = 0.0; s.f = 0; return s; }
  __device__ static Seg f(Seg a, Seg b) {
    if (b.f) return b;
    Seg s; s.v = a.v + b.v; s.f = a.f; return s;
  }
  __device__ static bool sets(const T* x0, const T* y, i64 i) {
    double a = sc_f64(x0[i]), b = sc_f64(y[i]);
    return a == b || a != a;
  }
  __device__ static Seg load(const T* g, const T* x0, const T* y, i64 i, i64 j, i64 n, i64 st) {
    Seg s; s.v = sc_f64(g[i]); s.f = (j + 1 < n) && sets(x0, y, i + st); return s;
  }
  __device__ static void store(T* o, const T*, const T* x0, const T* y, i64 i, i64, Seg v) {
    o[i] = sc_store<T, double>(sets(x0, y, i) ? v.v : 0.0);
  }
};

__device__ __forceinline__ double sc_shfl_up(double v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ long long sc_shfl_up(long long v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ Seg sc_shfl_up(Seg v, int d) {
  Seg r; r.v = __shfl_up_sync(0xffffffffu, v.v, d); r.f = __shfl_up_sync(0xffffffffu, v.f, d); return r;
}
__device__ __forceinline__ double sc_shfl(double v, int s) { return __shfl_sync(0xffffffffu, v, s); }
__device__ __forceinline__ long long sc_shfl(long long v, int s) { return __shfl_sync(0xffffffffu, v, s); }
__device__ __forceinline__ Seg sc_shfl(Seg v, int s) {
  Seg r; r.v = __shfl_sync(0xffffffffu, v.v, s); r.f = __shfl_sync(0xffffffffu, v.f, s); return r;
}

// Inclusive scan across a warp (every lane takes part).
template <typename P> __device__ __forceinline__ typename P::Acc sc_warp_scan(typename P::Acc a, int l) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    typename P::Acc y = sc_shfl_up(a, d);
    if (l >= d) a = P::f(y, a);
  }
  return a;
}

// Given each warp's total (the same in all its lanes), the combination of
// the warps before this one, and the block's total in *total.
template <typename P> __device__ typename P::Acc sc_warps_prefix(typename P::Acc wtot, typename P::Acc* total) {
  typedef typename P::Acc A;
  __shared__ A sh_in[32];
  __shared__ A sh_ex[32];
  __shared__ A sh_tot[1];
  int w = threadIdx.x >> 5, l = threadIdx.x & 31, nw = blockDim.x >> 5;
  if (l == 0) sh_in[w] = wtot;
  __syncthreads();
  if (w == 0) {
    A t = l < nw ? sh_in[l] : P::id();
    A inc = sc_warp_scan<P>(t, l);
    A ex = sc_shfl_up(inc, 1);
    if (l == 0) ex = P::id();
    sh_ex[l] = ex;
    if (l == 31) sh_tot[0] = inc;
  }
  __syncthreads();
  A r = sh_ex[w];
  *total = sh_tot[0];
  __syncthreads();
  return r;
}

// A warp per lane of contiguous lanes of length n (lane w at w * n).
template <typename T, typename O, typename P>
__device__ void scan_warp(const T* x, const T* a1, const T* a2, O* out, i64 lanes, i64 n, int rev) {
  typedef typename P::Acc A;
  i64 w = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int l = threadIdx.x & 31;
  if (w >= lanes) return;
  i64 base = w * n;
  A carry = P::id();
  for (i64 r0 = 0; r0 < n; r0 += 32) {
    i64 r = r0 + l;
    i64 j = rev ? n - 1 - r : r;
    A a = r < n ? P::load(x, a1, a2, base + j, j, n, 1) : P::id();
    a = sc_warp_scan<P>(a, l);
    a = P::f(carry, a);
    if (r < n) P::store(out, x, a1, a2, base + j, j, a);
    carry = sc_shfl(a, 31);
  }
}

// sc_tile_pass for running values wider than 8 bytes (the segmented sum),
// whose staging would not fit in shared memory: warp w scans positions
// w*32*SC_ITEMS onwards, 32 at a time, coalesced, a warp scan per 32.
template <typename T, typename O, typename P, typename G>
__device__ typename P::Acc sc_tile_pass_shfl(const T* x, const T* a1, const T* a2, O* out, i64 base, i64 n,
                                        i64 tile, int rev, G carry_of, bool write) {
  typedef typename P::Acc A;
  int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  i64 r0 = tile * SC_TILE + (i64)w * 32 * SC_ITEMS + l;
  A v[SC_ITEMS];
  A wc = P::id();
#pragma unroll
  for (int k = 0; k < SC_ITEMS; k++) {
    i64 r = r0 + 32 * k;
    i64 j = rev ? n - 1 - r : r;
    A a = r < n ? P::load(x, a1, a2, base + j, j, n, 1) : P::id();
    a = sc_warp_scan<P>(a, l);
    a = P::f(wc, a);
    wc = sc_shfl(a, 31);
    v[k] = a;
  }
  A total;
  A pre = sc_warps_prefix<P>(wc, &total);
  if (write) {
    pre = P::f(carry_of(total), pre);
#pragma unroll
    for (int k = 0; k < SC_ITEMS; k++) {
      i64 r = r0 + 32 * k;
      if (r < n) {
        i64 j = rev ? n - 1 - r : r;
        P::store(out, x, a1, a2, base + j, j, P::f(pre, v[k]));
      }
    }
  }
  return total;
}

// Tile `tile` of the lane at `base` (SC_TILE positions in scan order): its
// elements scanned from `carry_of(total)` and written when `write` (every
// thread calls carry_of with the tile's total, which may synchronise the
// block); gives the tile's total (without the carry). Warp w owns positions w*32*SC_ITEMS onwards:
// read coalesced into shared memory, each lane then folds SC_ITEMS
// consecutive ones in registers, one warp scan of the lanes' totals (a
// shuffle per SC_ITEMS elements rather than per element: the shuffles,
// not memory, bounded the old pass), and the results go back out through
// shared memory, coalesced. The reduce-only pass (write false) skips the
// write-back. Combination order follows positions throughout.
template <typename T, typename O, typename P, typename G>
__device__ typename P::Acc sc_tile_pass(const T* x, const T* a1, const T* a2, O* out, i64 base, i64 n,
                                        i64 tile, int rev, G carry_of, bool write) {
  typedef typename P::Acc A;
  if constexpr (sizeof(A) != 8) {
    return sc_tile_pass_shfl<T, O, P>(x, a1, a2, out, base, n, tile, rev, carry_of, write);
  } else {
    // Position p of a warp's run sits at (p / SC_ITEMS) * (SC_ITEMS + 1) + p % SC_ITEMS:
    // the pad keeps a lane's SC_ITEMS reads clear of its neighbours' banks.
    constexpr int RUN = 32 * SC_ITEMS, ROW = SC_ITEMS + 1;
    __shared__ A sh[SC_THREADS / 32][32 * ROW];
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    A* s = sh[w];
    i64 r0 = tile * SC_TILE + (i64)w * RUN;
#pragma unroll
    for (int k = 0; k < SC_ITEMS; k++) {
      int q = 32 * k + l;
      i64 r = r0 + q;
      i64 j = rev ? n - 1 - r : r;
      s[(q / SC_ITEMS) * ROW + q % SC_ITEMS] = r < n ? P::load(x, a1, a2, base + j, j, n, 1) : P::id();
    }
    __syncwarp();
    A v[SC_ITEMS];
    A t = P::id();
#pragma unroll
    for (int k = 0; k < SC_ITEMS; k++) {
      t = k == 0 ? s[l * ROW] : P::f(t, s[l * ROW + k]);
      v[k] = t;
    }
    A inc = sc_warp_scan<P>(t, l);
    A ex = sc_shfl_up(inc, 1);
    A wc = sc_shfl(inc, 31);
    A total;
    A pre = sc_warps_prefix<P>(wc, &total);
    if (write) {
      pre = P::f(carry_of(total), pre);
      if (l > 0) pre = P::f(pre, ex);
#pragma unroll
      for (int k = 0; k < SC_ITEMS; k++) s[l * ROW + k] = P::f(pre, v[k]);
      __syncwarp();
#pragma unroll
      for (int k = 0; k < SC_ITEMS; k++) {
        int q = 32 * k + l;
        i64 r = r0 + q;
        if (r < n) {
          i64 j = rev ? n - 1 - r : r;
          P::store(out, x, a1, a2, base + j, j, s[(q / SC_ITEMS) * ROW + q % SC_ITEMS]);
        }
      }
    }
    return total;
  }
}

// Block b = lane * tiles + tile: the tile's total into partial[b].
template <typename T, typename O, typename P>
__device__ void scan_reduce(const T* x, const T* a1, const T* a2, typename P::Acc* partial, i64 n, i64 tiles, int rev) {
  i64 lane = blockIdx.x / tiles, tile = blockIdx.x % tiles;
  typedef typename P::Acc A;
  A t = sc_tile_pass<T, O, P>(x, a1, a2, (O*)0, lane * n, n, tile, rev, [](A) { return P::id(); }, false);
  if (threadIdx.x == 0) partial[blockIdx.x] = t;
}

// Block = lane: its tiles' totals become exclusive carries, in place.
template <typename P> __device__ void scan_carry(typename P::Acc* partial, i64 tiles) {
  typedef typename P::Acc A;
  A* p = partial + (i64)blockIdx.x * tiles;
  int l = threadIdx.x & 31;
  A run = P::id();
  for (i64 c0 = 0; c0 < tiles; c0 += blockDim.x) {
    i64 c = c0 + threadIdx.x;
    A a = c < tiles ? p[c] : P::id();
    A inc = sc_warp_scan<P>(a, l);
    A wex = sc_shfl_up(inc, 1);
    if (l == 0) wex = P::id();
    A total;
    A pre = sc_warps_prefix<P>(sc_shfl(inc, 31), &total);
    if (c < tiles) p[c] = P::f(run, P::f(pre, wex));
    run = P::f(run, total);
  }
}

// Block b = lane * tiles + tile: the tile scanned from its carry.
template <typename T, typename O, typename P>
__device__ void scan_tile(const T* x, const T* a1, const T* a2, const typename P::Acc* partial, O* out, i64 n,
                          i64 tiles, int rev) {
  i64 lane = blockIdx.x / tiles, tile = blockIdx.x % tiles;
  typedef typename P::Acc A;
  A carry = tiles > 1 ? partial[blockIdx.x] : P::id();
  sc_tile_pass<T, O, P>(x, a1, a2, out, lane * n, n, tile, rev, [=](A) { return carry; }, true);
}

// One pass over lanes of `tiles` tiles (running values of 8 bytes): block
// tickets (`counter`, zeroed) number the tiles in the order blocks start, so
// a block only waits on tiles that started before it. Each block reads its
// tile once, publishes the tile's total (`partial`, then `flags`, zeroed),
// and takes as its carry the combination of every earlier tile's total of
// its lane, in a fixed order: contiguous runs per thread, then the block's
// ordered scan. The order depends on the tile's index only, so the results
// are deterministic (no look-back that stops wherever a prefix happens to be
// ready). The carry costs O(tiles) reads of L2 per block: the launcher keeps
// this pass to lanes of at most SC_ONE_TILES tiles.
template <typename T, typename O, typename P>
__device__ void scan_one(const T* x, const T* a1, const T* a2, typename P::Acc* partial, int* flags,
                         unsigned long long* counter, O* out, i64 n, i64 tiles, int rev) {
  typedef typename P::Acc A;
  __shared__ unsigned long long sh_ticket;
  if (threadIdx.x == 0) sh_ticket = atomicAdd(counter, 1ULL);
  __syncthreads();
  i64 b = (i64)sh_ticket;
  i64 lane = b / tiles, tile = b % tiles, first = b - tile;
  auto carry_of = [&](A total) -> A {
    if (threadIdx.x == 0) {
      ((volatile A*)partial)[b] = total;
      __threadfence();
      atomicExch(&flags[b], 1);
    }
    if (tile == 0) return P::id();
    i64 c = (tile + blockDim.x - 1) / blockDim.x;
    i64 lo = first + (i64)threadIdx.x * c, hi = min(lo + c, b);
    A a = P::id();
    for (i64 i = lo; i < hi; i++) {
      while (((volatile int*)flags)[i] == 0) {
      }
      __threadfence();
      A v = ((volatile A*)partial)[i];
      a = i == lo ? v : P::f(a, v);
    }
    A inc = sc_warp_scan<P>(a, threadIdx.x & 31);
    A tot;
    sc_warps_prefix<P>(sc_shfl(inc, 31), &tot);
    return tot;
  };
  sc_tile_pass<T, O, P>(x, a1, a2, out, lane * n, n, tile, rev, carry_of, true);
}

// A thread per (outer, inner) lane of a middle axis (stride inner), coalesced across threads.
template <typename T, typename O, typename P>
__device__ void scan_cols(const T* x, const T* a1, const T* a2, O* out, i64 outer, i64 n, i64 inner, int rev) {
  typedef typename P::Acc A;
  i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= outer * inner) return;
  i64 base = (t / inner) * n * inner + t % inner;
  A acc = P::id();
  for (i64 r = 0; r < n; r++) {
    i64 j = rev ? n - 1 - r : r;
    i64 i = base + j * inner;
    acc = P::f(acc, P::load(x, a1, a2, i, j, n, inner));
    P::store(out, x, a1, a2, i, j, acc);
  }
}
