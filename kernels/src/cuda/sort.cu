// gcalc sorting and searching on the GPU. Every element becomes an unsigned
// key whose integer order is NumPy's (numbers ascending, every nan after
// every number, all nans one key; `canon`: -0.0 gets +0.0's key; `desc`:
// numbers reversed, nans still last) — the same keys as the CPU's
// (kernels/src/cpu/sort/keys.rs), so both devices give the same results.
// Sorting: short lanes by a bitonic sort of (key, position) in shared memory,
// one block per lane (stable: positions break ties); long ones by a stable
// LSD radix sort (8-bit digits; per pass: block histograms, a scan per
// digit over the blocks, a stable scatter ranked by warp match), the lane
// number as the last, most significant digits when there are several lanes.
// Selections (unique, nonzero) scan 0/1 flags; the caller reads the count.
#include <cuda_fp16.h>
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;

// ---- keys ----------------------------------------------------------------
// U: the key container, BITS: the key's width in it.
template <typename U, int BITS> struct Bits {
  static constexpr U SIGN = (U)1 << (BITS - 1);
  static constexpr U MASK = (~(U)0) >> (sizeof(U) * 8 - BITS);
};

template <typename U, int BITS>
__device__ __forceinline__ U float_key(U b, U inf, bool desc, bool canon) {
  const U S = Bits<U, BITS>::SIGN, M = Bits<U, BITS>::MASK;
  U mag = b & ~S & M;
  bool nan = mag > inf;
  if (canon && mag == 0) b = 0;
  U k = (b & S) ? (~b & M) : (b | S);
  if (desc) k = ~k & M;
  return nan ? M : k;
}

template <typename U, int BITS> __device__ __forceinline__ U float_bits(U k, bool desc) {
  const U S = Bits<U, BITS>::SIGN, M = Bits<U, BITS>::MASK;
  if (k == M) return M >> 1;  // a quiet nan
  if (desc) k = ~k & M;
  return (k & S) ? (k & ~S) : (~k & M);
}

template <typename T> struct Key;
template <> struct Key<bool> {
  typedef u32 K;
  static constexpr int BITS = 8;
  static constexpr bool FLOAT = false;
  static __device__ __forceinline__ K key(bool x, bool desc, bool) { return (u32)(x != desc); }
  static __device__ __forceinline__ bool from(K k, bool desc) { return (k != 0) != desc; }
  static __device__ __forceinline__ bool nonzero(bool x) { return x; }
};
template <> struct Key<int> {
  typedef u32 K;
  static constexpr int BITS = 32;
  static constexpr bool FLOAT = false;
  static __device__ __forceinline__ K key(int x, bool desc, bool) {
    K k = (u32)x ^ 0x80000000u;
    return desc ? ~k : k;
  }
  static __device__ __forceinline__ int from(K k, bool desc) { return (int)((desc ? ~k : k) ^ 0x80000000u); }
  static __device__ __forceinline__ bool nonzero(int x) { return x != 0; }
};
template <> struct Key<i64> {
  typedef u64 K;
  static constexpr int BITS = 64;
  static constexpr bool FLOAT = false;
  static __device__ __forceinline__ K key(i64 x, bool desc, bool) {
    K k = (u64)x ^ 0x8000000000000000ull;
    return desc ? ~k : k;
  }
  static __device__ __forceinline__ i64 from(K k, bool desc) { return (i64)((desc ? ~k : k) ^ 0x8000000000000000ull); }
  static __device__ __forceinline__ bool nonzero(i64 x) { return x != 0; }
};
template <> struct Key<__half> {
  typedef u32 K;
  static constexpr int BITS = 16;
  static constexpr bool FLOAT = true;
  static __device__ __forceinline__ K key(__half x, bool desc, bool canon) {
    return float_key<u32, 16>((u32)__half_as_ushort(x), 0x7c00u, desc, canon);
  }
  static __device__ __forceinline__ __half from(K k, bool desc) {
    return __ushort_as_half((unsigned short)float_bits<u32, 16>(k, desc));
  }
  static __device__ __forceinline__ bool nonzero(__half x) { return __half2float(x) != 0.0f; }
};
template <> struct Key<float> {
  typedef u32 K;
  static constexpr int BITS = 32;
  static constexpr bool FLOAT = true;
  static __device__ __forceinline__ K key(float x, bool desc, bool canon) {
    return float_key<u32, 32>(__float_as_uint(x), 0x7f800000u, desc, canon);
  }
  static __device__ __forceinline__ float from(K k, bool desc) { return __uint_as_float(float_bits<u32, 32>(k, desc)); }
  static __device__ __forceinline__ bool nonzero(float x) { return x != 0.0f; }
};
template <> struct Key<double> {
  typedef u64 K;
  static constexpr int BITS = 64;
  static constexpr bool FLOAT = true;
  static __device__ __forceinline__ K key(double x, bool desc, bool canon) {
    return float_key<u64, 64>((u64)__double_as_longlong(x), 0x7ff0000000000000ull, desc, canon);
  }
  static __device__ __forceinline__ double from(K k, bool desc) {
    return __longlong_as_double((i64)float_bits<u64, 64>(k, desc));
  }
  static __device__ __forceinline__ bool nonzero(double x) { return x != 0.0; }
};

__device__ __forceinline__ u64 gtid() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }

// ---- block scan (256 threads) --------------------------------------------
// Inclusive scan of one value per thread over a block of 256; `ws` is 8
// shared words; `total` gets the block's sum. Every thread must call it.
__device__ __forceinline__ u32 block_scan256(u32 v, u32* ws, u32* total) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    u32 t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  if (lane == 31) ws[w] = v;
  __syncthreads();
  if (w == 0) {
    u32 s = lane < 8 ? ws[lane] : 0;
#pragma unroll
    for (int o = 1; o < 8; o <<= 1) {
      u32 t = __shfl_up_sync(0xffffffffu, s, o);
      if (lane >= o) s += t;
    }
    if (lane < 8) ws[lane] = s;
  }
  __syncthreads();
  u32 add = w > 0 ? ws[w - 1] : 0;
  *total = ws[7];
  __syncthreads();
  return v + add;
}

// ---- short lanes: bitonic sort in shared memory ---------------------------
// One block per lane (grid-stride over lanes); P = the power of two >= n.
// Writes the first `keep` of each lane: values (exact elements when
// `canon`, from the keys otherwise) and/or lane positions.
template <typename T>
__device__ void sort_small_t(const T* x, u32 rows, u32 n, u32 P, int desc, int canon, T* vals, i64* idx, u32 keep) {
  typedef typename Key<T>::K K;
  extern __shared__ u64 smem_u64[];
  K* sk = (K*)smem_u64;
  u32* si = (u32*)(sk + P);
  for (u32 row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* xr = x + (u64)row * n;
    for (u32 i = threadIdx.x; i < P; i += blockDim.x) {
      if (i < n) {
        sk[i] = Key<T>::key(xr[i], desc != 0, canon != 0);
        si[i] = i;
      } else {
        sk[i] = ~(K)0;
        si[i] = 0xffffffffu;
      }
    }
    __syncthreads();
    for (u32 k = 2; k <= P; k <<= 1) {
      for (u32 j = k >> 1; j > 0; j >>= 1) {
        for (u32 i = threadIdx.x; i < P; i += blockDim.x) {
          u32 l = i ^ j;
          if (l > i) {
            K a = sk[i], b = sk[l];
            u32 ai = si[i], bi = si[l];
            bool gt = a > b || (a == b && ai > bi);
            if (gt == ((i & k) == 0)) {
              sk[i] = b;
              sk[l] = a;
              si[i] = bi;
              si[l] = ai;
            }
          }
        }
        __syncthreads();
      }
    }
    u32 m = keep < n ? keep : n;
    for (u32 i = threadIdx.x; i < m; i += blockDim.x) {
      u64 o = (u64)row * keep + i;
      if (vals) vals[o] = canon ? xr[si[i]] : Key<T>::from(sk[i], desc != 0);
      if (idx) idx[o] = (i64)si[i];
    }
    __syncthreads();
  }
}

// ---- long lanes: LSD radix sort -------------------------------------------
#define RT 256
#define RI 8
#define TILE (RT * RI)

// Digit `pass`: the key's bytes first, then the lane number's (pos / n).
template <typename K>
__device__ __forceinline__ u32 digit(K key, u32 pos, int pass, int kpasses, u32 n) {
  if (pass < kpasses) return (u32)(key >> (8 * pass)) & 255u;
  return ((pos / n) >> (8 * (pass - kpasses))) & 255u;
}

template <typename T>
__device__ void radix_keys_t(const T* x, u32 N, int desc, int canon, typename Key<T>::K* keys, u32* pos, u64* diff) {
  typedef typename Key<T>::K K;
  u64 i = gtid();
  K k = 0;
  if (i < N) {
    k = Key<T>::key(x[i], desc != 0, canon != 0);
    keys[i] = k;
    if (pos) pos[i] = (u32)i;
  }
  // diff (zeroed by the caller), when asked: the OR of every key XOR the
  // first one, so its highest set bit is the highest bit any two keys differ
  // in (the radix passes above it would move nothing).
  if (diff) {
    K k0 = Key<T>::key(x[0], desc != 0, canon != 0);
    u64 d = i < N ? (u64)(k ^ k0) : 0ull;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) d |= __shfl_xor_sync(0xffffffffu, d, o);
    if ((threadIdx.x & 31) == 0 && d) atomicOr(diff, d);
  }
}

// counts[d * gridDim.x + block]: how many of the block's tile have digit d.
// The tile's keys are loaded first (RI loads in flight per thread), then
// counted in shared memory.
template <typename K>
__device__ void radix_hist_t(const K* keys, const u32* pos, u32 N, int pass, int kpasses, u32 n, u32* counts) {
  __shared__ u32 h[256];
  h[threadIdx.x] = 0;
  u64 base = (u64)blockIdx.x * TILE;
  bool lanes = pos && pass >= kpasses;
  K k[RI];
  u32 q[RI];
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u64 i = base + (u64)j * RT + threadIdx.x;
    k[j] = i < N ? keys[i] : (K)0;
    q[j] = (lanes && i < N) ? pos[i] : 0u;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u64 i = base + (u64)j * RT + threadIdx.x;
    if (i < N) atomicAdd(&h[digit(k[j], q[j], pass, kpasses, n)], 1u);
  }
  __syncthreads();
  counts[(u64)threadIdx.x * gridDim.x + blockIdx.x] = h[threadIdx.x];
}

// One block per digit: its row of block counts made exclusive prefix sums,
// the row's total in totals[d]. Each thread sums a run of consecutive
// counts, one block scan places the runs, and each thread rewrites its run.
__device__ void radix_scan_t(u32* counts, u32 nb, u32* totals) {
  __shared__ u32 ws[8];
  u32* row = counts + (u64)blockIdx.x * nb;
  u32 per = (nb + RT - 1) / RT;
  u32 b0 = min(threadIdx.x * per, nb), b1 = min(b0 + per, nb);
  u32 s = 0;
  for (u32 b = b0; b < b1; b++) s += row[b];
  u32 tot;
  u32 run = block_scan256(s, ws, &tot) - s;
  for (u32 b = b0; b < b1; b++) {
    u32 v = row[b];
    row[b] = run;
    run += v;
  }
  if (threadIdx.x == 0) totals[blockIdx.x] = tot;
}

// status[tile * 256 + d] (zeroed by the caller, with the tile counter after
// it): 0 while the tile has published nothing, OS_AGG | count once its own
// count of digit d is known, OS_INC | count of tiles 0..=tile once its
// look-back has finished. Tiles are numbered in the order blocks start
// (an atomic counter), so every tile a block waits on belongs to a block
// already running: the wait always ends. Counts fit in 30 bits (the caller
// sends larger arrays down the three-kernel path).
#define OS_AGG (1u << 30)
#define OS_INC (2u << 30)
#define OS_VAL (OS_AGG - 1u)

// Tile b's count of one digit published at *st, then the counts of the tiles
// before it added up: walking back over tiles that have only their own count
// (OS_AGG) to the nearest one whose look-back is done (OS_INC; tile 0 is
// from the start). Gives the keys of that digit in tiles 0..b.
__device__ __forceinline__ u32 look_back(u32* status_at, u32 b, u32 run) {
  volatile u32* st = status_at;
  if (b == 0) {
    *st = OS_INC | run;
    return 0;
  }
  *st = OS_AGG | run;
  u32 sum = 0;
  volatile u32* q = st;
  for (;;) {
    q -= 256;
    u32 s;
    do {
      s = *q;
    } while (s == 0u);
    sum += s & OS_VAL;
    if (s & OS_INC) break;
  }
  *st = OS_INC | (sum + run);
  return sum;
}

// Each warp takes 32 * RI consecutive elements, RI rounds of 32: an
// element's rank among its warp's elements of the same digit is the count
// so far plus its match-group peers on lower lanes, so the order is kept.
// The tile is then laid out sorted by digit in shared memory (warps and
// rounds in position order: stable) and written from there, consecutive
// threads to consecutive places of a digit's run (coalesced, where writing
// each element from its own thread scattered every warp's stores over up
// to 32 runs).
//
// totals[d]: how many keys have digit d in this pass. The tile's offset
// within a digit's run comes from counts[d * gridDim.x + block] (the
// three-kernel pass) or, when `status` is given, from the look-back over
// the tiles before (onesweep: the tile is numbered by `counter`).
template <typename K>
__device__ void radix_scatter_t(const K* kin, const u32* pin, K* kout, u32* pout, u32 N, int pass, int kpasses, u32 n,
                                const u32* counts, const u32* totals, u32* status, u32* counter) {
  __shared__ u32 base[256];
  __shared__ u32 lstart[256];
  __shared__ u32 wc[RT / 32][256];
  __shared__ u32 ws[8];
  __shared__ u32 tile_id;
  __shared__ K sk[TILE];
  __shared__ u32 sp[TILE];
  int t = threadIdx.x, lane = t & 31, w = t >> 5;
  if (t == 0) tile_id = status ? atomicAdd(counter, 1u) : blockIdx.x;
  u32 tot = totals[t];
  u32 all;
  u32 gex = block_scan256(tot, ws, &all) - tot;
#pragma unroll
  for (int k = 0; k < RT / 32; k++) wc[k][t] = 0;
  __syncthreads();
  u32 b = tile_id;
  u64 tile0 = (u64)b * TILE;
  u64 tile = tile0 + (u64)w * (32 * RI);
  bool lanes = pass >= kpasses;
  K key[RI];
  u32 p[RI], dg[RI], rank[RI];
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u64 i = tile + (u64)j * 32 + lane;
    bool ok = i < N;
    key[j] = ok ? kin[i] : (K)0;
    p[j] = (ok && pin) ? pin[i] : 0u;
    u32 d = ok ? digit(key[j], p[j], pass, kpasses, n) : 256u + lane;
    dg[j] = d;
    u32 peers = __match_any_sync(0xffffffffu, d);
    u32 before = __popc(peers & ((1u << lane) - 1u));
    u32 cnt = ok ? wc[w][d] : 0u;
    __syncwarp();
    if (ok && before == 0) wc[w][d] = cnt + __popc(peers);
    __syncwarp();
    rank[j] = cnt + before;
  }
  __syncthreads();
  u32 run = 0;
#pragma unroll
  for (int k = 0; k < RT / 32; k++) {
    u32 c = wc[k][t];
    wc[k][t] = run;
    run += c;
  }
  // run: the tile's count of digit t; its run starts at ls in the tile.
  u32 before_tiles = status ? look_back(status + (u64)b * 256 + t, b, run) : counts[(u64)t * gridDim.x + b];
  u32 tile_n;
  u32 ls = block_scan256(run, ws, &tile_n) - run;
  lstart[t] = ls;
  base[t] = gex + before_tiles - ls;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u32 d = dg[j];
    if (d < 256u) {
      u32 at = lstart[d] + wc[w][d] + rank[j];
      sk[at] = key[j];
      if (pin) sp[at] = p[j];
    }
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u32 at = (u32)j * RT + t;
    if (at < tile_n) {
      K k = sk[at];
      u32 q = pin ? sp[at] : 0u;
      u32 dst = base[digit(k, lanes ? q : 0u, pass, kpasses, n)] + at;
      kout[dst] = k;
      if (pout) pout[dst] = q;
    }
  }
}

// ---- onesweep: one kernel per pass, tile offsets by decoupled look-back ---
// (Merrill and Garland's single-pass prefix scan, as CUB's onesweep sorts.)
// hist[pass * 256 + d] (zeroed by the caller): how many keys have digit d in
// each pass, counted once before the passes — a digit's total does not
// depend on the order the keys are in. Lane digits come from the initial
// positions, which are the element indices.
template <typename K>
__device__ void radix_hist_all_t(const K* keys, u32 N, int kpasses, int passes, u32 n, u32* hist) {
  __shared__ u32 h[12][256];
  for (int p = 0; p < passes; p++) h[p][threadIdx.x] = 0;
  __syncthreads();
  for (u64 i = (u64)blockIdx.x * RT + threadIdx.x; i < N; i += (u64)gridDim.x * RT) {
    K k = keys[i];
    for (int p = 0; p < passes; p++) atomicAdd(&h[p][digit(k, (u32)i, p, kpasses, n)], 1u);
  }
  __syncthreads();
  for (int p = 0; p < passes; p++) {
    u32 c = h[p][threadIdx.x];
    if (c) atomicAdd(&hist[p * 256 + threadIdx.x], c);
  }
}

// The sorted lanes out: the first `keep` of each lane of length n, values
// (gathered from x by position when `gather`, else from the keys) and/or
// lane positions.
template <typename T>
__device__ void radix_finish_t(const typename Key<T>::K* keys, const u32* pos, u32 N, u32 n, u32 keep, int desc,
                               int gather, const T* x, T* vals, i64* idx) {
  u64 i = gtid();
  if (i >= N) return;
  u32 lane = (u32)(i / n), at = (u32)(i - (u64)lane * n);
  if (at >= keep) return;
  u64 o = (u64)lane * keep + at;
  if (vals) vals[o] = gather ? x[pos[i]] : Key<T>::from(keys[i], desc != 0);
  if (idx) idx[o] = (i64)(pos[i] - lane * n);
}

// ---- scans of 0/1 flags (inclusive) ---------------------------------------
// Each block scans TILE consecutive flags (RI per thread); sums[block] = its total.
__device__ void scan_blocks_t(const u32* in, u32 N, u32* out, u32* sums) {
  __shared__ u32 ws[8];
  u64 start = (u64)blockIdx.x * TILE + (u64)threadIdx.x * RI;
  u32 v[RI];
  u32 s = 0;
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u64 i = start + j;
    s += i < N ? in[i] : 0u;
    v[j] = s;
  }
  u32 tot;
  u32 inc = block_scan256(s, ws, &tot);
  u32 before = inc - s;
#pragma unroll
  for (int j = 0; j < RI; j++) {
    u64 i = start + j;
    if (i < N) out[i] = before + v[j];
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = tot;
}

// One block: the block sums made exclusive prefix sums.
__device__ void scan_sums_t(u32* sums, u32 nb) {
  __shared__ u32 ws[8];
  u32 carry = 0;
  for (u32 b0 = 0; b0 < nb; b0 += RT) {
    u32 b = b0 + threadIdx.x;
    u32 v = b < nb ? sums[b] : 0u;
    u32 tot;
    u32 inc = block_scan256(v, ws, &tot);
    if (b < nb) sums[b] = carry + inc - v;
    carry += tot;
  }
}

__device__ void scan_add_t(u32* out, u32 N, const u32* sums) {
  u64 i = gtid();
  if (i < N) out[i] += sums[i / TILE];
}

// ---- unique ---------------------------------------------------------------
template <typename T>
__device__ void unique_flags_t(const typename Key<T>::K* keys, u32 N, int equal_nan, u32* flags) {
  typedef typename Key<T>::K K;
  u64 i = gtid();
  if (i >= N) return;
  const K M = Bits<K, Key<T>::BITS>::MASK;
  K k = keys[i];
  bool start = i == 0 || k != keys[i - 1] || (!equal_nan && Key<T>::FLOAT && k == M);
  flags[i] = start ? 1u : 0u;
}

// g: the inclusive scan of the flags. Group j = g - 1 starts at its flag.
template <typename T>
__device__ void unique_write_t(const typename Key<T>::K* keys, const u32* pos, const u32* g, u32 N, const T* x, T* vals,
                               u32* starts, i64* index) {
  u64 i = gtid();
  if (i >= N) return;
  u32 gi = g[i];
  if (i > 0 && gi == g[i - 1]) return;
  u32 j = gi - 1;
  vals[j] = pos ? x[pos[i]] : Key<T>::from(keys[i], false);
  starts[j] = (u32)i;
  if (index) index[j] = (i64)pos[i];
}

__device__ void unique_counts_t(const u32* starts, u32 m, u32 N, i64* counts) {
  u64 j = gtid();
  if (j >= m) return;
  u32 end = j + 1 < m ? starts[j + 1] : N;
  counts[j] = (i64)(end - starts[j]);
}

__device__ void unique_inverse_t(const u32* pos, const u32* g, u32 N, i64* inv) {
  u64 i = gtid();
  if (i < N) inv[pos[i]] = (i64)g[i] - 1;
}

// ---- nonzero --------------------------------------------------------------
template <typename T> __device__ void nz_flags_t(const T* x, u32 N, u32* flags) {
  u64 i = gtid();
  if (i < N) flags[i] = Key<T>::nonzero(x[i]) ? 1u : 0u;
}

// Coordinates of the element each flag stands for: row d of the (ndim,
// count) result, or the flat position when `flat`.
__device__ void nz_write_t(const u32* g, u32 N, u32 count, const i64* dims, int ndim, int flat, i64* out) {
  u64 i = gtid();
  if (i >= N) return;
  u32 gi = g[i];
  if (gi == (i > 0 ? g[i - 1] : 0u)) return;
  u32 j = gi - 1;
  if (flat) {
    out[j] = (i64)i;
    return;
  }
  u64 rest = i;
  for (int d = ndim - 1; d >= 0; d--) {
    u64 len = (u64)dims[d];
    out[(u64)d * count + j] = (i64)(rest % len);
    rest /= len;
  }
}

// ---- searching ------------------------------------------------------------
template <typename T>
__device__ void ss_keys_t(const T* a, u32 m, const i64* sorter, typename Key<T>::K* keys) {
  u64 i = gtid();
  if (i < m) keys[i] = Key<T>::key(a[sorter ? (u64)sorter[i] : i], false, true);
}

// The first position whose key is >= (left) or > (right) each value's.
template <typename T>
__device__ void ss_search_t(const typename Key<T>::K* keys, u32 m, const T* v, u32 nv, int right, i64* out) {
  typedef typename Key<T>::K K;
  u64 i = gtid();
  if (i >= nv) return;
  K k = Key<T>::key(v[i], false, true);
  u32 lo = 0, hi = m;
  while (lo < hi) {
    u32 mid = lo + (hi - lo) / 2;
    K km = keys[mid];
    bool go_right = right ? km <= k : km < k;
    if (go_right) lo = mid + 1; else hi = mid;
  }
  out[i] = (i64)lo;
}

// Whether each element's key is among the m sorted test keys (a nan never is).
template <typename T>
__device__ void isin_search_t(const typename Key<T>::K* keys, u32 m, const T* x, u32 nx, int invert, bool* out) {
  typedef typename Key<T>::K K;
  u64 i = gtid();
  if (i >= nx) return;
  const K M = Bits<K, Key<T>::BITS>::MASK;
  K k = Key<T>::key(x[i], false, true);
  bool found = false;
  if (!(Key<T>::FLOAT && k == M)) {
    u32 lo = 0, hi = m;
    while (lo < hi) {
      u32 mid = lo + (hi - lo) / 2;
      if (keys[mid] < k) lo = mid + 1; else hi = mid;
    }
    found = lo < m && keys[lo] == k;
  }
  out[i] = found != (invert != 0);
}

// ---- the gradient of a permutation ----------------------------------------
// out (zeroed, lanes of n) gets g[r, j] at lane position idx[r, j].
template <typename T>
__device__ void scatter_lanes_t(const T* g, const i64* idx, u32 total, u32 k, u32 n, T* out) {
  u64 t = gtid();
  if (t >= total) return;
  u64 r = t / k;
  i64 p = idx[t];
  if (p >= 0 && (u64)p < n) out[r * n + (u64)p] = g[t];
}
