// gcalc's random variates, the twin of kernels/src/cpu/samplers.rs operation
// for operation: Philox 4x32-10, the polynomial ln/exp of kernels/src/cpu/math.rs,
// and the samplers (exponential, Bernoulli, gamma, beta, Poisson, binomial),
// the keyed Feistel permutation and the cdf search of `choice`. Compiled
// without FMA contraction (--fmad=false), every value is the CPU's bit for
// bit. Plain C++ apart from GC_FN, so the tests also build it with the host
// compiler (-ffp-contract=off) and compare it with the Rust code.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GC_FN __device__ __forceinline__
#define GC_BITS(d) ((gc_u64)__double_as_longlong(d))
#define GC_FROM_BITS(u) __longlong_as_double((long long)(u))
#else
#include <math.h>
#include <string.h>
#define GC_FN static inline
static inline unsigned long long gc_bits_host(double d) { unsigned long long u; memcpy(&u, &d, 8); return u; }
static inline double gc_from_bits_host(unsigned long long u) { double d; memcpy(&d, &u, 8); return d; }
#define GC_BITS(d) gc_bits_host(d)
#define GC_FROM_BITS(u) gc_from_bits_host(u)
#endif
typedef unsigned int gc_u32;
typedef unsigned long long gc_u64;
typedef long long gc_i64;

GC_FN void gc_philox(gc_u32 c[4], gc_u32 k0, gc_u32 k1) {
  for (int r = 0; r < 10; r++) {
    if (r > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    gc_u64 p0 = (gc_u64)0xD2511F53u * c[0], p1 = (gc_u64)0xCD9E8D57u * c[2];
    gc_u32 hi0 = (gc_u32)(p0 >> 32), lo0 = (gc_u32)p0, hi1 = (gc_u32)(p1 >> 32), lo1 = (gc_u32)p1;
    gc_u32 n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0; c[1] = lo1; c[2] = n2; c[3] = lo0;
  }
}
GC_FN double gc_u53(gc_u32 lo, gc_u32 hi) {
  return (double)(((((gc_u64)hi) << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}
// Element i's uniform of a draw of two words per element from the main stream.
GC_FN double gc_pair_uniform(gc_u64 ctr, gc_u64 key, gc_u64 i) {
  gc_u64 c = ctr + i / 2;
  gc_u32 b[4] = {(gc_u32)c, (gc_u32)(c >> 32), 0, 0};
  gc_philox(b, (gc_u32)key, (gc_u32)(key >> 32));
  int h = (int)(i % 2) * 2;
  return gc_u53(b[h], b[h + 1]);
}

// ---- ln and exp: kernels/src/cpu/math.rs's ln_f64 and exp_f64.
GC_FN double gc_ln(double x) {
  bool den = x < 2.2250738585072014e-308;
  double xs = den ? x * 4503599627370496.0 : x;
  gc_u64 bits = GC_BITS(xs);
  gc_i64 e = (gc_i64)((bits >> 52) & 0x7ff) - 1023 - (den ? 52 : 0);
  double m = GC_FROM_BITS((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  bool big = m > 1.4142135623730951;
  m = big ? m * 0.5 : m;
  e += big ? 1 : 0;
  double f = m - 1.0;
  double z = f * f;
  double p = 1.01875663804580931796E-4;
  p = p * f + 4.97494994976747001425E-1;
  p = p * f + 4.70579119878881725854E0;
  p = p * f + 1.44989225341610930846E1;
  p = p * f + 1.79368678507819816313E1;
  p = p * f + 7.70838733755885391666E0;
  double q = f + 1.12873587189167450590E1;
  q = q * f + 4.52279145837532221105E1;
  q = q * f + 8.29875266912776603211E1;
  q = q * f + 7.11544750618563894466E1;
  q = q * f + 2.31251620126765340583E1;
  double y = f * (z * p / q) - 0.5 * z;
  double ef = (double)e;
  double r = (f + y) - ef * 2.121944400546905827679e-4 + ef * 0.693359375;
  if (x == 1.0 / 0.0) r = x;
  if (x == 0.0) r = -1.0 / 0.0;
  if (x < 0.0 || x != x) r = 0.0 / 0.0;
  return r;
}
GC_FN double gc_exp(double x) {
  const double magic = 6755399441055744.0;
  double xc = x > 710.0 ? 710.0 : x;
  xc = xc < -746.0 ? -746.0 : xc;
  double t = xc * 1.4426950408889634 + magic;
  double nf = t - magic;
  gc_i64 n = (gc_i64)(GC_BITS(t) - GC_BITS(magic));
  double r = xc - nf * 6.93145751953125E-1 - nf * 1.42860682030941723212E-6;
  double xx = r * r;
  double p = 1.26177193074810590878E-4;
  p = p * xx + 3.02994407707441961300E-2;
  p = p * xx + 9.99999999999999999910E-1;
  double px = r * p;
  double q = 3.00198505138664455042E-6;
  q = q * xx + 2.52448340349684104739E-3;
  q = q * xx + 2.27265548208155028766E-1;
  q = q * xx + 2.00000000000000000009E0;
  double em1 = 2.0 * px / (q - px);
  gc_i64 n1 = n >> 1;
  gc_i64 n2 = n - n1;
  double s1 = GC_FROM_BITS(((gc_u64)(n1 + 1023)) << 52);
  double s2 = GC_FROM_BITS(((gc_u64)(n2 + 1023)) << 52);
  return (1.0 + em1) * s1 * s2;
}

// ---- An element's own stream: uniform j is pair j % 2 of block [ctr + i, j / 2, tag].
struct gc_stream {
  gc_u64 c, key;
  gc_u32 tag, next, blk;
  gc_u32 w[4];
};
GC_FN gc_stream gc_stream_at(gc_u64 ctr, gc_u64 key, gc_u64 i, gc_u32 tag) {
  gc_stream s;
  s.c = ctr + i; s.key = key; s.tag = tag; s.next = 0; s.blk = 0xFFFFFFFFu;
  s.w[0] = s.w[1] = s.w[2] = s.w[3] = 0;
  return s;
}
GC_FN double gc_uniform(gc_stream* s) {
  gc_u32 b = s->next / 2;
  if (b != s->blk) {
    s->w[0] = (gc_u32)s->c; s->w[1] = (gc_u32)(s->c >> 32); s->w[2] = b; s->w[3] = s->tag;
    gc_philox(s->w, (gc_u32)s->key, (gc_u32)(s->key >> 32));
    s->blk = b;
  }
  int h = (int)(s->next % 2) * 2;
  s->next += 1;
  return gc_u53(s->w[h], s->w[h + 1]);
}

GC_FN double gc_normal(gc_stream* s) {
  for (;;) {
    double u = 2.0 * gc_uniform(s) - 1.0;
    double v = 2.0 * gc_uniform(s) - 1.0;
    double q = u * u + v * v;
    if (q < 1.0 && q > 0.0) return u * sqrt(-2.0 * gc_ln(q) / q);
  }
}
GC_FN double gc_gamma_mt(gc_stream* s, double k) {
  double d = k - 1.0 / 3.0;
  double c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double z = gc_normal(s);
    double v = 1.0 + c * z;
    if (v <= 0.0) continue;
    v = v * v * v;
    double u = gc_uniform(s);
    double z2 = z * z;
    if (u < 1.0 - 0.0331 * (z2 * z2)) return d * v;
    if (gc_ln(u) < 0.5 * z2 + d * (1.0 - v + gc_ln(v))) return d * v;
  }
}
GC_FN double gc_gamma(gc_stream* s, double k) {
  if (k == 0.0) return 0.0;
  if (k >= 1.0) return gc_gamma_mt(s, k);
  double g = gc_gamma_mt(s, k + 1.0);
  double u = 1.0 - gc_uniform(s);
  return g * gc_exp(gc_ln(u) / k);
}
GC_FN double gc_ln_gamma_variate(gc_stream* s, double k) {
  if (k >= 1.0) return gc_ln(gc_gamma_mt(s, k));
  double g = gc_gamma_mt(s, k + 1.0);
  double u = 1.0 - gc_uniform(s);
  return gc_ln(g) + gc_ln(u) / k;
}
GC_FN double gc_beta(gc_u64 ctr, gc_u64 key, gc_u64 i, double a, double b) {
  gc_stream sa = gc_stream_at(ctr, key, i, 1);
  double la = gc_ln_gamma_variate(&sa, a);
  gc_stream sb = gc_stream_at(ctr, key, i, 2);
  double lb = gc_ln_gamma_variate(&sb, b);
  return 1.0 / (1.0 + gc_exp(lb - la));
}
GC_FN double gc_loggam(double x) {
  const double A[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                        -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                        6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                        -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  double n = x < 7.0 ? floor(7.0 - x) : 0.0;
  double x0 = x + n;
  double x2 = (1.0 / x0) * (1.0 / x0);
  double gl0 = A[9];
  for (int k = 8; k >= 0; k--) gl0 = gl0 * x2 + A[k];
  double gl = gl0 / x0 + 0.9189385332046727 + (x0 - 0.5) * gc_ln(x0) - x0;
  for (double j = 0.0; j < n; j += 1.0) {
    gl -= gc_ln(x0 - 1.0);
    x0 -= 1.0;
  }
  return gl;
}
GC_FN double gc_poisson(gc_stream* s, double lam) {
  if (lam == 0.0) return 0.0;
  if (lam < 10.0) {
    double enlam = gc_exp(-lam);
    double x = 0.0, prod = 1.0;
    for (;;) {
      prod *= gc_uniform(s);
      if (prod > enlam) x += 1.0;
      else return x;
    }
  }
  double slam = sqrt(lam);
  double loglam = gc_ln(lam);
  double b = 0.931 + 2.53 * slam;
  double a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    double u = gc_uniform(s) - 0.5;
    double v = gc_uniform(s);
    double us = 0.5 - fabs(u);
    double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (gc_ln(v) + gc_ln(invalpha) - gc_ln(a / (us * us) + b) <= -lam + k * loglam - gc_loggam(k + 1.0)) return k;
  }
}
GC_FN double gc_stirling_tail(double k) {
  const double T[10] = {0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                        0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                        0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                        0.00833056343336287};
  if (k <= 9.0) return T[(int)k];
  double kp1sq = (k + 1.0) * (k + 1.0);
  return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / (k + 1.0);
}
GC_FN double gc_binomial_inversion(gc_stream* s, double n, double p) {
  double q = 1.0 - p;
  double qn = gc_exp(n * gc_ln(q));
  double np = n * p;
  double bound = np + 10.0 * sqrt(np * q + 1.0);
  bound = n < bound ? n : bound;
  double x = 0.0, px = qn, u = gc_uniform(s);
  while (u > px) {
    x += 1.0;
    if (x > bound) {
      x = 0.0; px = qn; u = gc_uniform(s);
    } else {
      u -= px;
      px = ((n - x + 1.0) * p * px) / (x * q);
    }
  }
  return x;
}
GC_FN double gc_binomial_btrs(gc_stream* s, double n, double p) {
  double q = 1.0 - p;
  double spq = sqrt(n * p * q);
  double b = 1.15 + 2.53 * spq;
  double a = -0.0873 + 0.0248 * b + 0.01 * p;
  double c = n * p + 0.5;
  double vr = 0.92 - 4.2 / b;
  double r = p / q;
  double alpha = (2.83 + 5.1 / b) * spq;
  double m = floor((n + 1.0) * p);
  for (;;) {
    double u = gc_uniform(s) - 0.5;
    double v = gc_uniform(s);
    double us = 0.5 - fabs(u);
    double k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    double lv = gc_ln(v * alpha / (a / (us * us) + b));
    double bound = (m + 0.5) * gc_ln((m + 1.0) / (r * (n - m + 1.0)))
        + (n + 1.0) * gc_ln((n - m + 1.0) / (n - k + 1.0))
        + (k + 0.5) * gc_ln(r * (n - k + 1.0) / (k + 1.0))
        + gc_stirling_tail(m)
        + gc_stirling_tail(n - m)
        - gc_stirling_tail(k)
        - gc_stirling_tail(n - k);
    if (lv <= bound) return k;
  }
}
GC_FN double gc_binomial(gc_stream* s, double n, double p) {
  if (n == 0.0 || p == 0.0) return 0.0;
  if (p == 1.0) return n;
  bool flip = p > 0.5;
  double pp = flip ? 1.0 - p : p;
  double k = n * pp < 10.0 ? gc_binomial_inversion(s, n, pp) : gc_binomial_btrs(s, n, pp);
  return flip ? n - k : k;
}

// Dist ids as in samplers.rs's Dist::ALL.
#define GC_EXPONENTIAL 0
#define GC_BERNOULLI 1
#define GC_GAMMA 2
#define GC_BETA 3
#define GC_POISSON 4
#define GC_BINOMIAL 5
GC_FN double gc_draw(int dist, gc_u64 ctr, gc_u64 key, gc_u64 i, double a, double b) {
  gc_stream s = gc_stream_at(ctr, key, i, 1);
  switch (dist) {
    case GC_EXPONENTIAL: return -gc_ln(1.0 - gc_pair_uniform(ctr, key, i)) * a;
    case GC_BERNOULLI: return gc_pair_uniform(ctr, key, i) < a ? 1.0 : 0.0;
    case GC_GAMMA: return gc_gamma(&s, a) * b;
    case GC_BETA: return gc_beta(ctr, key, i, a, b);
    case GC_POISSON: return gc_poisson(&s, a);
    default: return gc_binomial(&s, a, b);
  }
}

// ---- The keyed Feistel permutation of 0..n with cycle walking.
GC_FN gc_u64 gc_mix64(gc_u64 z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
struct gc_perm { gc_u64 n, k0, k1; gc_u32 half; };
GC_FN gc_perm gc_perm_new(gc_u64 n, gc_u64 ctr, gc_u64 key) {
  gc_u32 w[4] = {(gc_u32)ctr, (gc_u32)(ctr >> 32), 0, 0};
  gc_philox(w, (gc_u32)key, (gc_u32)(key >> 32));
  gc_perm p;
  gc_u32 half = 1;
  while (half < 32 && (1ULL << (2 * half)) < n) half++;
  p.n = n; p.half = half;
  p.k0 = (((gc_u64)w[1]) << 32) | w[0];
  p.k1 = (((gc_u64)w[3]) << 32) | w[2];
  return p;
}
GC_FN gc_u64 gc_feistel(const gc_perm* p, gc_u64 x) {
  gc_u64 mask = (1ULL << p->half) - 1;
  gc_u64 l = x >> p->half, r = x & mask;
  for (gc_u64 round = 0; round < 8; round++) {
    gc_u64 k = gc_mix64(p->k0 ^ (round * 0x9E3779B97F4A7C15ULL)) ^ p->k1;
    gc_u64 f = gc_mix64(r ^ k) & mask;
    gc_u64 t = l ^ f;
    l = r;
    r = t;
  }
  return (l << p->half) | r;
}
GC_FN gc_u64 gc_perm_at(const gc_perm* p, gc_u64 i) {
  gc_u64 x = gc_feistel(p, i);
  while (x >= p->n) x = gc_feistel(p, x);
  return x;
}
// searchsorted(cdf, u, side="right"), at most n - 1.
GC_FN gc_u64 gc_cdf_index(const double* cdf, gc_u64 n, double u) {
  gc_u64 lo = 0, hi = n;
  while (lo < hi) {
    gc_u64 mid = lo + (hi - lo) / 2;
    if (cdf[mid] <= u) lo = mid + 1;
    else hi = mid;
  }
  return lo < n ? lo : (n > 0 ? n - 1 : 0);
}
