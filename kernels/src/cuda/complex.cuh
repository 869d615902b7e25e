// gcalc complex arithmetic on the GPU: every value is a double2 (re, im)
// computed in double, as the CPU computes complex ops in f64 (opid::CxOp
// apply) and rounds once to the output's dtype. The formulas are the CPU's
// (num-complex 0.4's, and for exp and the trigonometric and hyperbolic
// functions the C99 ones of opid/complex/cmath.rs), branch cuts and
// special values included;
// division is NumPy's (Smith's algorithm), power NumPy's integral rule.
typedef double2 cx;
__device__ __forceinline__ cx gc_cx(double re, double im) { return make_double2(re, im); }
__device__ __forceinline__ cx gc_cadd(cx a, cx b) { return gc_cx(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ cx gc_csub(cx a, cx b) { return gc_cx(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ cx gc_cmul(cx a, cx b) {
  return gc_cx(__dmul_rn(a.x, b.x) - __dmul_rn(a.y, b.y), __dmul_rn(a.x, b.y) + __dmul_rn(a.y, b.x));
}
__device__ __forceinline__ cx gc_cunscale(cx a, double t) { return gc_cx(a.x / t, a.y / t); }
// num-complex's division (a * conj(b) / |b|^2), used by its powi.
__device__ __forceinline__ cx gc_cdiv_nc(cx a, cx b) {
  double ns = __dmul_rn(b.x, b.x) + __dmul_rn(b.y, b.y);
  return gc_cx((__dmul_rn(a.x, b.x) + __dmul_rn(a.y, b.y)) / ns, (__dmul_rn(a.y, b.x) - __dmul_rn(a.x, b.y)) / ns);
}
// NumPy's division (Smith's algorithm); a zero divisor divides the parts by 0.
__device__ __forceinline__ cx gc_cdiv(cx a, cx b) {
  double br = fabs(b.x), bi = fabs(b.y);
  if (br >= bi) {
    if (br == 0.0 && bi == 0.0) return gc_cx(a.x / br, a.y / br);
    double rat = b.y / b.x;
    double scl = 1.0 / (b.x + __dmul_rn(b.y, rat));
    return gc_cx(__dmul_rn(a.x + __dmul_rn(a.y, rat), scl), __dmul_rn(a.y - __dmul_rn(a.x, rat), scl));
  }
  double rat = b.x / b.y;
  double scl = 1.0 / (b.y + __dmul_rn(b.x, rat));
  return gc_cx(__dmul_rn(__dmul_rn(a.x, rat) + a.y, scl), __dmul_rn(__dmul_rn(a.y, rat) - a.x, scl));
}
__device__ __forceinline__ cx gc_cpolar(double r, double t) { return gc_cx(r * cos(t), r * sin(t)); }
// num-complex's exp (from_polar(exp(re), im)), as the CPU's powc uses it.
__device__ cx gc_cexp_nc(cx z) {
  double re = z.x, im = z.y;
  if (isinf(re)) {
    if (re < 0.0) {
      if (!isfinite(im)) return gc_cx(0.0, 0.0);
    } else if (im == 0.0 || !isfinite(im)) {
      if (isinf(im)) im = nan("");
      return gc_cx(re, im);
    }
  } else if (isnan(re) && im == 0.0) {
    return z;
  }
  return gc_cpolar(exp(re), im);
}
__device__ __forceinline__ cx gc_cln(cx z) { return gc_cx(log(hypot(z.x, z.y)), atan2(z.y, z.x)); }
__device__ cx gc_csqrt(cx z) {
  if (z.y == 0.0) {
    if (!signbit(z.x)) return gc_cx(sqrt(z.x), z.y);
    double im = sqrt(-z.x);
    return signbit(z.y) ? gc_cx(0.0, -im) : gc_cx(0.0, im);
  }
  if (z.x == 0.0) {
    double x = sqrt(fabs(z.y) / 2.0);
    return signbit(z.y) ? gc_cx(x, -x) : gc_cx(x, x);
  }
  return gc_cpolar(sqrt(hypot(z.x, z.y)), atan2(z.y, z.x) / 2.0);
}
// exp, sin, cos, tan, sinh, cosh, tanh with C99 Annex G's special values
// and overflow scaling, as glibc's (NumPy's): a port of the CPU's
// runtime/src/opid/complex/cmath.rs, line for line.
#define GC_CX_T (1023.0 * 0.6931471805599453)
#define GC_INF __longlong_as_double(0x7ff0000000000000ULL)
#define GC_DBL_MIN 2.2250738585072014e-308
#define GC_DBL_MAX 1.7976931348623157e308
#define GC_DBL_EPS 2.220446049250313e-16
__device__ __forceinline__ void gc_sincos(double y, double* s, double* c) {
  if (fabs(y) > GC_DBL_MIN) { *s = sin(y); *c = cos(y); } else { *s = y; *c = 1.0; }
}
__device__ cx gc_cscaled_exp(double x, double c, double s, double scale) {
  double et = exp(GC_CX_T);
  c = __dmul_rn(__dmul_rn(c, et), scale);
  s = __dmul_rn(__dmul_rn(s, et), scale);
  double rx = x - GC_CX_T;
  if (rx > GC_CX_T) { rx -= GC_CX_T; c = __dmul_rn(c, et); s = __dmul_rn(s, et); }
  if (rx > GC_CX_T) return gc_cx(__dmul_rn(GC_DBL_MAX, c), __dmul_rn(GC_DBL_MAX, s));
  double e = exp(rx);
  return gc_cx(__dmul_rn(e, c), __dmul_rn(e, s));
}
__device__ cx gc_cexp(cx z) {
  double x = z.x, y = z.y, s, c;
  if (isfinite(x)) {
    if (!isfinite(y)) return gc_cx(nan(""), nan(""));
    if (y == 0.0) return gc_cx(exp(x), y);
    gc_sincos(y, &s, &c);
    if (x > GC_CX_T) return gc_cscaled_exp(x, c, s, 1.0);
    double e = exp(x);
    return gc_cx(__dmul_rn(e, c), __dmul_rn(e, s));
  }
  if (isinf(x)) {
    double v = x > 0.0 ? GC_INF : 0.0;
    if (y == 0.0) return gc_cx(v, y);
    if (isfinite(y)) { gc_sincos(y, &s, &c); return gc_cx(copysign(v, c), copysign(v, s)); }
    if (x > 0.0) return gc_cx(GC_INF, nan(""));
    return gc_cx(0.0, copysign(0.0, y));
  }
  return y == 0.0 ? gc_cx(nan(""), y) : gc_cx(nan(""), nan(""));
}
__device__ cx gc_ccosh(cx z) {
  double x = z.x, y = z.y, s, c;
  if (isfinite(x)) {
    if (!isfinite(y)) return gc_cx(nan(""), x == 0.0 ? 0.0 : nan(""));
    gc_sincos(y, &s, &c);
    if (fabs(x) > GC_CX_T) return gc_cscaled_exp(fabs(x), c, x < 0.0 ? -s : s, 0.5);
    return gc_cx(__dmul_rn(cosh(x), c), __dmul_rn(sinh(x), s));
  }
  if (isinf(x)) {
    if (y == 0.0) return gc_cx(GC_INF, y * copysign(1.0, x));
    if (isfinite(y)) {
      gc_sincos(y, &s, &c);
      return gc_cx(copysign(GC_INF, c), copysign(GC_INF, s) * copysign(1.0, x));
    }
    return gc_cx(GC_INF, nan(""));
  }
  return gc_cx(nan(""), y == 0.0 ? y : nan(""));
}
__device__ cx gc_csinh(cx z) {
  double x = z.x, y = z.y, s, c;
  if (isfinite(x)) {
    if (!isfinite(y)) return gc_cx(x == 0.0 ? x : nan(""), nan(""));
    gc_sincos(y, &s, &c);
    if (fabs(x) > GC_CX_T) return gc_cscaled_exp(fabs(x), x < 0.0 ? -c : c, s, 0.5);
    return gc_cx(__dmul_rn(sinh(x), c), __dmul_rn(cosh(x), s));
  }
  if (isinf(x)) {
    if (y == 0.0) return gc_cx(x, y);
    if (isfinite(y)) {
      gc_sincos(y, &s, &c);
      return gc_cx(copysign(GC_INF, c) * copysign(1.0, x), copysign(GC_INF, s));
    }
    return gc_cx(GC_INF, nan(""));
  }
  return gc_cx(nan(""), y == 0.0 ? y : nan(""));
}
__device__ cx gc_ctanh(cx z) {
  double x = z.x, y = z.y, s, c;
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(x)) {
      double im;
      if (isfinite(y) && fabs(y) > 1.0) { s = sin(y); c = cos(y); im = copysign(0.0, __dmul_rn(s, c)); }
      else im = copysign(0.0, y);
      return gc_cx(copysign(1.0, x), im);
    }
    if (y == 0.0) return gc_cx(x, y);
    return gc_cx(x == 0.0 ? x : nan(""), nan(""));
  }
  const double h = 354.0;
  gc_sincos(y, &s, &c);
  if (fabs(x) > h) {
    double e2 = exp(2.0 * h);
    double rx = fabs(x) - h;
    double im = __dmul_rn(__dmul_rn(4.0, s), c) / e2;
    im /= rx > h ? e2 : exp(2.0 * rx);
    return gc_cx(copysign(1.0, x), im);
  }
  double sh = x, ch = 1.0;
  if (fabs(x) > GC_DBL_MIN) { sh = sinh(x); ch = cosh(x); }
  double cc = __dmul_rn(c, c);
  double den = fabs(sh) > __dmul_rn(fabs(c), GC_DBL_EPS) ? __dadd_rn(__dmul_rn(sh, sh), cc) : cc;
  return gc_cx(__dmul_rn(sh, ch) / den, __dmul_rn(s, c) / den);
}
__device__ cx gc_csin(cx z) {
  if (isinf(z.y) && !isfinite(z.x)) return gc_cx(nan(""), GC_INF);
  cx r = gc_csinh(gc_cx(-z.y, z.x));
  return gc_cx(r.y, -r.x);
}
__device__ cx gc_ccos(cx z) { return gc_ccosh(gc_cx(-z.y, z.x)); }
__device__ cx gc_ctan(cx z) {
  cx r = gc_ctanh(gc_cx(-z.y, z.x));
  return gc_cx(r.y, -r.x);
}
// num-complex's Pow<u32> (squaring, in its order).
__device__ cx gc_cpowu(cx base, unsigned e) {
  if (e == 0) return gc_cx(1.0, 0.0);
  while ((e & 1) == 0) { base = gc_cmul(base, base); e >>= 1; }
  if (e == 1) return base;
  cx acc = base;
  while (e > 1) {
    e >>= 1;
    base = gc_cmul(base, base);
    if (e & 1) acc = gc_cmul(acc, base);
  }
  return acc;
}
// NumPy's complex power (opid::complex pow): 0 ** 0 is 1, integral
// exponents up to 64 by repeated multiplication, others exp(y ln x).
__device__ cx gc_cpow(cx x, cx y) {
  if (y.y == 0.0 && y.x == trunc(y.x) && fabs(y.x) <= 64.0) {
    int n = (int)y.x;
    cx p = gc_cpowu(x, (unsigned)(n < 0 ? -n : n));
    return n < 0 ? gc_cdiv_nc(gc_cx(1.0, 0.0), p) : p;
  }
  if (x.x == 0.0 && x.y == 0.0) return y.x > 0.0 ? gc_cx(0.0, 0.0) : gc_cx(nan(""), nan(""));
  if (y.x == 0.0 && y.y == 0.0) return gc_cx(1.0, 0.0);
  return gc_cexp_nc(gc_cmul(y, gc_cln(x)));
}
__device__ __forceinline__ cx gc_cb(bool b) { return gc_cx(b ? 1.0 : 0.0, 0.0); }
__device__ __forceinline__ bool gc_cnz(cx z) { return z.x != 0.0 || z.y != 0.0; }
// Loads as complex double, from every dtype.
__device__ __forceinline__ cx gc_cld(bool v) { return gc_cx(v ? 1.0 : 0.0, 0.0); }
__device__ __forceinline__ cx gc_cld(int v) { return gc_cx((double)v, 0.0); }
__device__ __forceinline__ cx gc_cld(long long v) { return gc_cx((double)v, 0.0); }
__device__ __forceinline__ cx gc_cld(__half v) { return gc_cx((double)__half2float(v), 0.0); }
__device__ __forceinline__ cx gc_cld(float v) { return gc_cx((double)v, 0.0); }
__device__ __forceinline__ cx gc_cld(double v) { return gc_cx(v, 0.0); }
__device__ __forceinline__ cx gc_cld(float2 v) { return gc_cx((double)v.x, (double)v.y); }
__device__ __forceinline__ cx gc_cld(double2 v) { return v; }
// Stores: the real part for real dtypes (bool: nonzero), as the CPU's from_parts.
__device__ __forceinline__ void gc_cst(bool* p, cx v) { *p = v.x != 0.0; }
__device__ __forceinline__ void gc_cst(int* p, cx v) { *p = (int)v.x; }
__device__ __forceinline__ void gc_cst(long long* p, cx v) { *p = (long long)v.x; }
__device__ __forceinline__ void gc_cst(__half* p, cx v) { *p = __double2half(v.x); }
__device__ __forceinline__ void gc_cst(float* p, cx v) { *p = (float)v.x; }
__device__ __forceinline__ void gc_cst(double* p, cx v) { *p = v.x; }
__device__ __forceinline__ void gc_cst(float2* p, cx v) { *p = make_float2((float)v.x, (float)v.y); }
__device__ __forceinline__ void gc_cst(double2* p, cx v) { *p = v; }

#define GC_CX_DIMS 8
struct GcCxStrides { i64 shape[GC_CX_DIMS]; i64 st[3][GC_CX_DIMS]; };

// sum (0), prod (1) or mean (2) of each row of a contiguous [lanes, m]
// input: one block per row, a fixed order per thread, a tree in shared memory.
template <typename I, typename O>
__device__ void gc_cx_rows(O* out, const I* src, i64 lanes, i64 m, int op) {
  __shared__ cx sh[256];
  for (i64 l = blockIdx.x; l < lanes; l += gridDim.x) {
    cx acc = op == 1 ? gc_cx(1.0, 0.0) : gc_cx(0.0, 0.0);
    for (i64 j = threadIdx.x; j < m; j += blockDim.x) {
      cx v = gc_cld(src[l * m + j]);
      acc = op == 1 ? gc_cmul(acc, v) : gc_cadd(acc, v);
    }
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) sh[threadIdx.x] = op == 1 ? gc_cmul(sh[threadIdx.x], sh[threadIdx.x + s]) : gc_cadd(sh[threadIdx.x], sh[threadIdx.x + s]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      cx r = sh[0];
      if (op == 2) r = gc_cx(r.x / (double)m, r.y / (double)m);
      gc_cst(out + l, r);
    }
    __syncthreads();
  }
}

// The input of a batch of 1-d FFTs: out is [rows, nin] contiguous; row r's
// element k is src at the row's offset (rows over `nd` outer dims of `p`,
// strides in p.st[0]) plus k * last, for k < len, else 0; scaled by `scale`;
// the imaginary parts at k == z0 and k == z1 set to 0 (irfft's zero and
// Nyquist terms, which NumPy ignores).
template <typename I, typename O>
__device__ void gc_fft_pad(O* out, const I* src, i64 rows, i64 nin, i64 len, i64 last, int nd,
                           GcCxStrides p, double scale, i64 z0, i64 z1) {
  i64 n = rows * nin;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    i64 k = i % nin, r = i / nin, off = 0;
    for (int d = nd - 1; d >= 0; --d) {
      i64 c = r % p.shape[d];
      r /= p.shape[d];
      off += c * p.st[0][d];
    }
    cx v = k < len ? gc_cld(src[off + k * last]) : gc_cx(0.0, 0.0);
    if (k == z0 || k == z1) v.y = 0.0;
    gc_cst(out + i, gc_cx(v.x * scale, v.y * scale));
  }
}
