// gcalc indexing kernels (after index_sel.cuh): stores into a strided view,
// gathers and stores through a selection, the bounds check NumPy makes
// before a write (every index value, when the index block is not empty),
// and "last wins" for repeated positions: `sel_win` keeps, per position of
// the array's span, the highest element number written there (atomicMax),
// so `sel_store` writes each position once, from the last element, as the
// CPU's in-order loop does. Elements move as unsigned integers of their
// size (U), so one kernel serves every dtype of that size.
#define GC_VIEW_DIMS 8
struct GcView { i64 shape[GC_VIEW_DIMS]; i64 st[GC_VIEW_DIMS]; };

// Element i (C order over v.shape[0..nd]) of contiguous src into the view
// of base with strides v.st.
template <typename U>
__device__ void store_view(U* base, i64 n, const U* __restrict__ src, int nd, GcView v) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  i64 r = i, o = 0;
  for (int d = nd - 1; d >= 0; d--) {
    i64 c = r % v.shape[d];
    r /= v.shape[d];
    o += c * v.st[d];
  }
  base[o] = src[i];
}

// out[i] = base[position of i] (0 where an index is out of bounds: reported).
template <typename U>
__device__ void sel_gather(U* out, const U* base, const GcSel& s, GcFault* f, GcFault* h) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.n) return;
  i64 o;
  out[i] = gc_sel_offset(s, i, &o, f, h) ? base[o] : (U)0;
}

// base[position of i] = src[i] for the element that wins its position.
template <typename U>
__device__ void sel_store(U* base, const U* __restrict__ src, const GcSel& s, const unsigned int* win, i64 lo, GcFault* f, GcFault* h) {
  if (gc_faulted(f)) return;
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.n) return;
  i64 o;
  if (!gc_sel_offset(s, i, &o, f, h)) return;
  if (win == 0 || win[o - lo] == (unsigned int)(i + 1)) base[o] = src[i];
}

#define GC_MOVES(S, U) \
extern "C" __global__ void store_view_##S(U* base, i64 n, const U* src, int nd, GcView v) { store_view<U>(base, n, src, nd, v); } \
extern "C" __global__ void sel_gather_##S(U* out, const U* base, GcSel s, GcFault* f, GcFault* h) { sel_gather<U>(out, base, s, f, h); } \
extern "C" __global__ void sel_store_##S(U* base, const U* src, GcSel s, const unsigned int* win, i64 lo, GcFault* f, GcFault* h) { sel_store<U>(base, src, s, win, lo, f, h); }
GC_MOVES(1, unsigned char)
GC_MOVES(2, unsigned short)
GC_MOVES(4, unsigned int)
GC_MOVES(8, unsigned long long)
GC_MOVES(16, gc_u128)

// Every value of every axis entry checked (thread i: position i of the
// index block), as NumPy checks an index before writing through it.
extern "C" __global__ void sel_check(GcSel s, GcFault* f, GcFault* h) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  i64 nb = 1;
  for (int j = 0; j < s.bnd; j++) nb *= s.shape[s.bstart + j];
  if (i >= nb) return;
  for (int k = 0; k < s.ne; k++) {
    if (s.e[k].kind != 0) continue;
    i64 r = i, vp = 0;
    for (int j = s.bnd - 1; j >= 0; j--) {
      int d = s.bstart + j;
      vp += (r % s.shape[d]) * s.e[k].vst[d];
      r /= s.shape[d];
    }
    i64 a;
    gc_entry_add(s.e[k], vp, &a, f, h);
  }
}

// win[position - lo] = the highest i + 1 written there.
extern "C" __global__ void sel_win(unsigned int* win, i64 lo, GcSel s, GcFault* f, GcFault* h) {
  if (gc_faulted(f)) return;
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.n) return;
  i64 o;
  if (gc_sel_offset(s, i, &o, f, h)) atomicMax(&win[o - lo], (unsigned int)(i + 1));
}

// out[i] = whether element i wins its position (a store keeps it).
extern "C" __global__ void sel_kept(bool* out, GcSel s, const unsigned int* win, i64 lo, GcFault* f, GcFault* h) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.n) return;
  i64 o;
  out[i] = gc_sel_offset(s, i, &o, f, h) && win[o - lo] == (unsigned int)(i + 1);
}
