//! Runtime SIMD dispatch: the release binary targets baseline x86-64, so hot
//! loops are compiled three times (AVX-512, AVX2+FMA, baseline) and the best
//! one the CPU supports is picked once, here.

use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Base,
    Avx2,
    Avx512,
}

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The best instruction set this CPU has (detected once; `GCALC_SIMD=base|avx2`
/// lowers it, for testing the other paths).
#[inline]
pub fn level() -> Level {
    match LEVEL.load(Ordering::Relaxed) {
        1 => Level::Base,
        2 => Level::Avx2,
        3 => Level::Avx512,
        _ => detect(),
    }
}

#[cold]
fn detect() -> Level {
    let cap = std::env::var("GCALC_SIMD").unwrap_or_default();
    #[allow(unused_mut)]
    let mut l = Level::Base;
    #[cfg(target_arch = "x86_64")]
    {
        if cap != "base"
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c")
        {
            l = Level::Avx2;
            if cap != "avx2"
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq")
            {
                l = Level::Avx512;
            }
        }
    }
    LEVEL.store(
        match l {
            Level::Base => 1,
            Level::Avx2 => 2,
            Level::Avx512 => 3,
        },
        Ordering::Relaxed,
    );
    l
}
