// gcalc indexing on the GPU, shared part: a selection (`GcSel`, the
// runtime's `array::select::Select` passed by value) gives the buffer
// position of each selected element from its C-order number: a strided part
// (ints, slices, new axes) plus what each index array adds, read on the
// device. An index out of bounds is reported through a fault record: the
// first one (atomicCAS on the device word `f`) is copied to the host-mapped
// record `h`, which the host reads at its next sync point; stores and
// updates do nothing while `f` is set. Positions and strides count elements.
typedef long long i64;
typedef unsigned long long u64;
// A 16-byte element (complex128) moved as two words; from a 64-bit fill
// value it takes the low word (a complex128 fill of real value: the
// imaginary part's bits are 0).
struct __align__(16) gc_u128 {
  u64 lo, hi;
  __device__ gc_u128() {}
  __device__ gc_u128(u64 v) : lo(v), hi(0) {}
};
#define GC_SEL_DIMS 16
#define GC_SEL_ENTRIES 8
#define GC_FLAT_DIMS 4

// One index array: int32 (is32) or int64 values at p, stepped per output
// dim by vst. kind 0: an index along an axis of length len (negative from
// the end, checked), buffer stride stride; kind 1: flat positions over
// nflat dims (flen, fst), a mask's true elements (in range).
struct GcEnt {
  const void* p;
  int is32;
  int kind;
  i64 vst[GC_SEL_DIMS];
  i64 len;
  i64 stride;
  i64 axis;
  i64 nflat;
  i64 flen[GC_FLAT_DIMS];
  i64 fst[GC_FLAT_DIMS];
};

struct GcSel {
  i64 n;        // selected elements
  i64 offset;   // buffer position of element 0 before the entries
  int nd;       // output dims
  int ne;       // entries
  int bstart;   // the index block: output dims [bstart, bstart + bnd)
  int bnd;
  i64 shape[GC_SEL_DIMS];
  i64 st[GC_SEL_DIMS];
  GcEnt e[GC_SEL_ENTRIES];
};

struct GcFault {
  int flag;
  int pad;
  i64 value;
  i64 axis;
  i64 len;
};

// The runtime passes these as raw bytes (cuda/index/params.rs, fault.rs).
static_assert(sizeof(GcEnt) == 240, "GcEnt layout");
static_assert(sizeof(GcSel) == 2208, "GcSel layout");
static_assert(sizeof(GcFault) == 32, "GcFault layout");

__device__ __forceinline__ bool gc_faulted(const GcFault* f) {
  return *(volatile const int*)&f->flag != 0;
}

__device__ void gc_fault(GcFault* f, GcFault* h, i64 v, i64 axis, i64 len) {
  if (atomicCAS(&f->flag, 0, 1) == 0) {
    h->value = v;
    h->axis = axis;
    h->len = len;
    __threadfence_system();
    *(volatile int*)&h->flag = 1;
  }
}

__device__ __forceinline__ i64 gc_ival(const GcEnt& e, i64 k) {
  return e.is32 ? (i64)((const int*)e.p)[k] : ((const i64*)e.p)[k];
}

// What entry e adds for its value at k; false when the value is out of bounds.
__device__ __forceinline__ bool gc_entry_add(const GcEnt& e, i64 k, i64* add, GcFault* f, GcFault* h) {
  i64 v = gc_ival(e, k);
  if (e.kind == 0) {
    i64 w = v < 0 ? v + e.len : v;
    if (w < 0 || w >= e.len) {
      gc_fault(f, h, v, e.axis, e.len);
      return false;
    }
    *add = w * e.stride;
    return true;
  }
  i64 a = 0;
  for (int d = (int)e.nflat - 1; d >= 0; d--) {
    a += (v % e.flen[d]) * e.fst[d];
    v /= e.flen[d];
  }
  *add = a;
  return true;
}

// The buffer position of selected element i (C order over s.shape).
__device__ bool gc_sel_offset(const GcSel& s, i64 i, i64* out, GcFault* f, GcFault* h) {
  i64 c[GC_SEL_DIMS];
  i64 r = i;
  for (int d = s.nd - 1; d >= 0; d--) {
    c[d] = r % s.shape[d];
    r /= s.shape[d];
  }
  i64 off = s.offset;
  for (int d = 0; d < s.nd; d++) off += c[d] * s.st[d];
  for (int k = 0; k < s.ne; k++) {
    i64 vp = 0;
    for (int d = 0; d < s.nd; d++) vp += c[d] * s.e[k].vst[d];
    i64 a;
    if (!gc_entry_add(s.e[k], vp, &a, f, h)) return false;
    off += a;
  }
  *out = off;
  return true;
}
