//! Random variates from the Philox stream, written operation for operation
//! like their CUDA twin `kernels/src/cuda/samplers.cuh` (compiled without
//! FMA contraction), so that a draw gives the same bits on the CPU and on
//! the GPU: every value is a function of (counter, key, element index,
//! parameters) only, made with IEEE-exact operations (+ - * / sqrt floor)
//! and the polynomial `ln_f64`/`exp_f64` of `math.rs` (the twin has the same
//! polynomials). The stream's layout is documented in runtime/src/random.rs.

// NumPy's and Hörmann's constants, kept as printed (the CUDA twin has the same text).
#![allow(clippy::excessive_precision)]

use super::math::{exp_f64 as exp, ln_f64 as ln};

const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// Philox 4x32 with 10 rounds (Salmon et al. 2011).
pub fn philox4x32_10(mut ctr: [u32; 4], mut key: [u32; 2]) -> [u32; 4] {
    for round in 0..10 {
        if round > 0 {
            key = [key[0].wrapping_add(W0), key[1].wrapping_add(W1)];
        }
        let p0 = M0 as u64 * ctr[0] as u64;
        let p1 = M1 as u64 * ctr[2] as u64;
        let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
        let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
        ctr = [hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0];
    }
    ctr
}

fn key2(key: u64) -> [u32; 2] {
    [key as u32, (key >> 32) as u32]
}

/// A uniform in [0, 1) with 53 random bits from two words (low, high).
#[inline]
pub fn u53(lo: u32, hi: u32) -> f64 {
    ((((hi as u64) << 32) | lo as u64) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// Element `i`'s uniform of a draw taking two words per element from the
/// main stream at block counter `ctr`: words 2i and 2i+1, in block `ctr + i/2`.
pub fn pair_uniform(ctr: u64, key: u64, i: u64) -> f64 {
    let c = ctr.wrapping_add(i / 2);
    let b = philox4x32_10([c as u32, (c >> 32) as u32, 0, 0], key2(key));
    let h = (i % 2) as usize * 2;
    u53(b[h], b[h + 1])
}

/// An element's own stream, for samplers that take as many uniforms as
/// they need: uniform `j` is the pair `j % 2` of the block with counter
/// `[ctr + i (64 bits), j / 2, tag]` (tag >= 1: never a block of the main
/// stream, whose third and fourth words are 0).
pub struct ElemStream {
    c: u64,
    key: [u32; 2],
    tag: u32,
    next: u32,
    blk: u32,
    w: [u32; 4],
}

impl ElemStream {
    pub fn new(ctr: u64, key: u64, i: u64, tag: u32) -> ElemStream {
        ElemStream {
            c: ctr.wrapping_add(i),
            key: key2(key),
            tag,
            next: 0,
            blk: u32::MAX,
            w: [0; 4],
        }
    }

    /// The next uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        let b = self.next / 2;
        if b != self.blk {
            self.w = philox4x32_10(
                [self.c as u32, (self.c >> 32) as u32, b, self.tag],
                self.key,
            );
            self.blk = b;
        }
        let h = (self.next % 2) as usize * 2;
        self.next = self.next.wrapping_add(1);
        u53(self.w[h], self.w[h + 1])
    }
}

/// A standard normal (Marsaglia's polar method; the first of the pair).
fn normal(s: &mut ElemStream) -> f64 {
    loop {
        let u = 2.0 * s.uniform() - 1.0;
        let v = 2.0 * s.uniform() - 1.0;
        let q = u * u + v * v;
        if q < 1.0 && q > 0.0 {
            return u * (-2.0 * ln(q) / q).sqrt();
        }
    }
}

/// Gamma(k, 1) for k >= 1 (Marsaglia and Tsang 2000).
fn gamma_mt(s: &mut ElemStream, k: f64) -> f64 {
    let d = k - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let z = normal(s);
        let v = 1.0 + c * z;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = s.uniform();
        let z2 = z * z;
        if u < 1.0 - 0.0331 * (z2 * z2) {
            return d * v;
        }
        if ln(u) < 0.5 * z2 + d * (1.0 - v + ln(v)) {
            return d * v;
        }
    }
}

/// Gamma(k, 1), k >= 0; below 1 by Gamma(k + 1) * U^(1/k).
pub fn gamma(s: &mut ElemStream, k: f64) -> f64 {
    if k == 0.0 {
        return 0.0;
    }
    if k >= 1.0 {
        return gamma_mt(s, k);
    }
    let g = gamma_mt(s, k + 1.0);
    let u = 1.0 - s.uniform();
    g * exp(ln(u) / k)
}

/// ln of a Gamma(k, 1) variate, k > 0 (no underflow for small k).
fn ln_gamma_variate(s: &mut ElemStream, k: f64) -> f64 {
    if k >= 1.0 {
        return ln(gamma_mt(s, k));
    }
    let g = gamma_mt(s, k + 1.0);
    let u = 1.0 - s.uniform();
    ln(g) + ln(u) / k
}

/// Beta(a, b) = Ga / (Ga + Gb), from the logs of two gamma variates (element
/// streams of tags 1 and 2), so tiny a and b give no 0 / 0.
pub fn beta(ctr: u64, key: u64, i: u64, a: f64, b: f64) -> f64 {
    let la = ln_gamma_variate(&mut ElemStream::new(ctr, key, i, 1), a);
    let lb = ln_gamma_variate(&mut ElemStream::new(ctr, key, i, 2), b);
    1.0 / (1.0 + exp(lb - la))
}

/// ln Gamma(x) for x >= 1 (NumPy's random_loggam: Stirling's series from 7 up).
fn loggam(x: f64) -> f64 {
    const A: [f64; 10] = [
        8.333333333333333e-02,
        -2.777777777777778e-03,
        7.936507936507937e-04,
        -5.952380952380952e-04,
        8.417508417508418e-04,
        -1.917526917526918e-03,
        6.410256410256410e-03,
        -2.955065359477124e-02,
        1.796443723688307e-01,
        -1.39243221690590e+00,
    ];
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    let n = if x < 7.0 { (7.0 - x).floor() } else { 0.0 };
    let mut x0 = x + n;
    let x2 = (1.0 / x0) * (1.0 / x0);
    let mut gl0 = A[9];
    for k in (0..9).rev() {
        gl0 = gl0 * x2 + A[k];
    }
    // 0.5 * ln(2 pi)
    let mut gl = gl0 / x0 + 0.918_938_533_204_672_7 + (x0 - 0.5) * ln(x0) - x0;
    let mut j = 0.0;
    while j < n {
        gl -= ln(x0 - 1.0);
        x0 -= 1.0;
        j += 1.0;
    }
    gl
}

/// Poisson(lam): multiplication of uniforms below 10, else Hörmann's PTRS
/// (transformed rejection with squeeze, as NumPy).
pub fn poisson(s: &mut ElemStream, lam: f64) -> f64 {
    if lam == 0.0 {
        return 0.0;
    }
    if lam < 10.0 {
        let enlam = exp(-lam);
        let mut x = 0.0;
        let mut prod = 1.0;
        loop {
            prod *= s.uniform();
            if prod > enlam {
                x += 1.0;
            } else {
                return x;
            }
        }
    }
    let slam = lam.sqrt();
    let loglam = ln(lam);
    let b = 0.931 + 2.53 * slam;
    let a = -0.059 + 0.02483 * b;
    let invalpha = 1.1239 + 1.1328 / (b - 3.4);
    let vr = 0.9277 - 3.6224 / (b - 2.0);
    loop {
        let u = s.uniform() - 0.5;
        let v = s.uniform();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + lam + 0.43).floor();
        if us >= 0.07 && v <= vr {
            return k;
        }
        if k < 0.0 || (us < 0.013 && v > us) {
            continue;
        }
        if ln(v) + ln(invalpha) - ln(a / (us * us) + b) <= -lam + k * loglam - loggam(k + 1.0) {
            return k;
        }
    }
}

/// ln(k!) - (0.5 ln(2 pi) + (k + 0.5) ln(k + 1) - (k + 1)): Stirling's
/// error, tabled below 10 (BTRS's correction term).
pub fn stirling_tail(k: f64) -> f64 {
    const T: [f64; 10] = [
        0.0810614667953272,
        0.0413406959554092,
        0.0276779256849983,
        0.02079067210376509,
        0.0166446911898211,
        0.0138761288230707,
        0.0118967099458917,
        0.0104112652619720,
        0.00925546218271273,
        0.00833056343336287,
    ];
    if k <= 9.0 {
        return T[k as usize];
    }
    let kp1sq = (k + 1.0) * (k + 1.0);
    (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / (k + 1.0)
}

/// Binomial(n, p) for p <= 1/2 and n p < 10: inversion (NumPy's, with its bound).
fn binomial_inversion(s: &mut ElemStream, n: f64, p: f64) -> f64 {
    let q = 1.0 - p;
    let qn = exp(n * ln(q));
    let np = n * p;
    let bound = n.min(np + 10.0 * (np * q + 1.0).sqrt());
    let mut x = 0.0;
    let mut px = qn;
    let mut u = s.uniform();
    while u > px {
        x += 1.0;
        if x > bound {
            x = 0.0;
            px = qn;
            u = s.uniform();
        } else {
            u -= px;
            px = ((n - x + 1.0) * p * px) / (x * q);
        }
    }
    x
}

/// Binomial(n, p) for p <= 1/2 and n p >= 10: Hörmann's BTRS.
fn binomial_btrs(s: &mut ElemStream, n: f64, p: f64) -> f64 {
    let q = 1.0 - p;
    let spq = (n * p * q).sqrt();
    let b = 1.15 + 2.53 * spq;
    let a = -0.0873 + 0.0248 * b + 0.01 * p;
    let c = n * p + 0.5;
    let vr = 0.92 - 4.2 / b;
    let r = p / q;
    let alpha = (2.83 + 5.1 / b) * spq;
    let m = ((n + 1.0) * p).floor();
    loop {
        let u = s.uniform() - 0.5;
        let v = s.uniform();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + c).floor();
        if k < 0.0 || k > n {
            continue;
        }
        if us >= 0.07 && v <= vr {
            return k;
        }
        let lv = ln(v * alpha / (a / (us * us) + b));
        let bound = (m + 0.5) * ln((m + 1.0) / (r * (n - m + 1.0)))
            + (n + 1.0) * ln((n - m + 1.0) / (n - k + 1.0))
            + (k + 0.5) * ln(r * (n - k + 1.0) / (k + 1.0))
            + stirling_tail(m)
            + stirling_tail(n - m)
            - stirling_tail(k)
            - stirling_tail(n - k);
        if lv <= bound {
            return k;
        }
    }
}

/// Binomial(n, p), n >= 0 an integer, 0 <= p <= 1.
pub fn binomial(s: &mut ElemStream, n: f64, p: f64) -> f64 {
    if n == 0.0 || p == 0.0 {
        return 0.0;
    }
    if p == 1.0 {
        return n;
    }
    let flip = p > 0.5;
    let pp = if flip { 1.0 - p } else { p };
    let k = if n * pp < 10.0 {
        binomial_inversion(s, n, pp)
    } else {
        binomial_btrs(s, n, pp)
    };
    if flip { n - k } else { k }
}

/// The distributions drawn element by element (the random family's typed
/// identity: each backend matches it without a wildcard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dist {
    /// scale * E, E = -ln(1 - u) (two words per element of the main stream).
    Exponential,
    /// u < p (two words per element of the main stream).
    Bernoulli,
    /// theta * Gamma(k) (element streams).
    Gamma,
    /// Beta(a, b) (element streams, tags 1 and 2).
    Beta,
    /// Poisson(lam) (element streams).
    Poisson,
    /// Binomial(n, p) (element streams).
    Binomial,
}

impl Dist {
    pub const ALL: [Dist; 6] = [
        Dist::Exponential,
        Dist::Bernoulli,
        Dist::Gamma,
        Dist::Beta,
        Dist::Poisson,
        Dist::Binomial,
    ];

    /// Its name (the builtin's, and the CUDA kernels' prefix).
    pub fn name(self) -> &'static str {
        match self {
            Dist::Exponential => "exponential",
            Dist::Bernoulli => "bernoulli",
            Dist::Gamma => "gamma",
            Dist::Beta => "beta",
            Dist::Poisson => "poisson",
            Dist::Binomial => "binomial",
        }
    }

    /// Blocks of the main stream a draw of `n` elements advances the counter by.
    pub fn blocks(self, n: u64) -> u64 {
        match self {
            Dist::Exponential | Dist::Bernoulli => (2 * n).div_ceil(4),
            Dist::Gamma | Dist::Beta | Dist::Poisson | Dist::Binomial => n,
        }
    }
}

/// Element `i` of a draw of `dist` with parameters `(a, b)` from counter `ctr`.
pub fn draw(dist: Dist, ctr: u64, key: u64, i: u64, a: f64, b: f64) -> f64 {
    match dist {
        Dist::Exponential => -ln(1.0 - pair_uniform(ctr, key, i)) * a,
        Dist::Bernoulli => {
            if pair_uniform(ctr, key, i) < a {
                1.0
            } else {
                0.0
            }
        }
        Dist::Gamma => gamma(&mut ElemStream::new(ctr, key, i, 1), a) * b,
        Dist::Beta => beta(ctr, key, i, a, b),
        Dist::Poisson => poisson(&mut ElemStream::new(ctr, key, i, 1), a),
        Dist::Binomial => binomial(&mut ElemStream::new(ctr, key, i, 1), a, b),
    }
}

/// Rounds of the permutation's Feistel network.
const ROUNDS: u64 = 8;

/// A keyed pseudo-random permutation of `0..n`: a balanced Feistel network
/// on the smallest even number of bits covering n, walked until it lands
/// below n (cycle walking: each step is a bijection, so the walk from i < n
/// returns below n, and `at` is a bijection of 0..n). Each element is
/// computed on its own, in parallel, the same way on the CPU and the GPU.
#[derive(Clone, Copy, Debug)]
pub struct Perm {
    n: u64,
    half: u32,
    k0: u64,
    k1: u64,
}

fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Perm {
    /// The permutation of `0..n` keyed by one block of the stream (4 words).
    pub fn new(n: u64, w: [u32; 4]) -> Perm {
        let mut half = 1;
        while half < 32 && (1u64 << (2 * half)) < n {
            half += 1;
        }
        Perm {
            n,
            half,
            k0: ((w[1] as u64) << 32) | w[0] as u64,
            k1: ((w[3] as u64) << 32) | w[2] as u64,
        }
    }

    /// The block at counter `ctr` of the main stream, as `new` takes it.
    pub fn from_stream(n: u64, ctr: u64, key: u64) -> Perm {
        Perm::new(
            n,
            philox4x32_10([ctr as u32, (ctr >> 32) as u32, 0, 0], key2(key)),
        )
    }

    fn feistel(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half) - 1;
        let mut l = x >> self.half;
        let mut r = x & mask;
        for round in 0..ROUNDS {
            let k = mix64(self.k0 ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ self.k1;
            let f = mix64(r ^ k) & mask;
            let t = l ^ f;
            l = r;
            r = t;
        }
        (l << self.half) | r
    }

    /// The image of `i` (< n).
    pub fn at(&self, i: u64) -> u64 {
        let mut x = self.feistel(i);
        while x >= self.n {
            x = self.feistel(x);
        }
        x
    }
}

/// Index of the first cdf entry above `u` (NumPy's `searchsorted(cdf, u,
/// side="right")`), at most `cdf.len() - 1`: an entry of zero probability
/// (a cdf step of 0) is never chosen.
pub fn cdf_index(cdf: &[f64], u: f64) -> u64 {
    let (mut lo, mut hi) = (0usize, cdf.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cdf[mid] <= u {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo.min(cdf.len().saturating_sub(1)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stirling_table_is_the_definition() {
        let mut lf = 0.0f64; // ln k!
        for k in 0..40u32 {
            if k > 0 {
                lf += (k as f64).ln();
            }
            let kf = k as f64;
            let want = lf
                - (0.5 * (2.0 * std::f64::consts::PI).ln() + (kf + 0.5) * (kf + 1.0).ln()
                    - (kf + 1.0));
            // The table is exact; the series from 10 up is within 4e-11.
            let tol = if k < 10 { 1e-13 } else { 4e-11 };
            assert!((stirling_tail(kf) - want).abs() < tol, "k = {k}");
        }
    }

    #[test]
    fn loggam_is_ln_gamma() {
        let mut lf = 0.0f64; // ln (x-1)!
        for x in 1..200u32 {
            if x > 1 {
                lf += ((x - 1) as f64).ln();
            }
            let g = loggam(x as f64);
            assert!(
                (g - lf).abs() <= 1e-12 * lf.abs().max(1.0),
                "x = {x}: {g} vs {lf}"
            );
        }
    }

    #[test]
    fn perm_is_a_bijection() {
        for n in [0u64, 1, 2, 3, 4, 5, 15, 16, 17, 100, 1000, 4097] {
            let p = Perm::new(n, [1, 2, 3, 4]);
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                let j = p.at(i);
                assert!(j < n && !seen[j as usize], "n = {n}");
                seen[j as usize] = true;
            }
        }
    }

    #[test]
    fn cdf_index_skips_zero_probabilities() {
        let cdf = [0.25, 0.25, 0.75, 1.0];
        assert_eq!(cdf_index(&cdf, 0.0), 0);
        assert_eq!(cdf_index(&cdf, 0.25), 2);
        assert_eq!(cdf_index(&cdf, 0.999), 3);
        assert_eq!(cdf_index(&cdf, 1.0), 3);
    }
}
