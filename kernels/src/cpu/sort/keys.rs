//! Order-preserving unsigned keys of gcalc's element types: comparing keys
//! as unsigned integers gives NumPy's order (numbers ascending, every nan
//! after every number, all nans one key), so every sort, search and
//! comparison of the sorting family works on integers. Options: `canon`
//! gives -0.0 the key of +0.0 (they compare equal, so stable argsorts and
//! `unique` treat them as ties); `desc` reverses the order of the numbers
//! while nans stay last (the array API's descending order).

use half::f16;

/// An unsigned key type: its bytes are the radix sort's digits.
pub trait Radix: Copy + Ord + Default + Send + Sync + std::fmt::Debug + 'static {
    const BYTES: usize;
    const MAX: Self;
    /// Byte `i` (0: least significant) as a bucket number.
    fn byte(self, i: usize) -> usize;
}

macro_rules! radix {
    ($($t:ty),*) => {$(
        impl Radix for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            const MAX: Self = <$t>::MAX;
            #[inline(always)]
            fn byte(self, i: usize) -> usize {
                ((self >> (8 * i)) & 0xff) as usize
            }
        }
    )*};
}
radix!(u8, u16, u32, u64);

/// An element type with an order-preserving key.
pub trait SortKey: Copy + Send + Sync + 'static {
    type K: Radix;
    /// Whether the type has nans (floats).
    const FLOAT: bool;
    /// The key of `self` (see the module doc for `desc` and `canon`).
    fn key(self, desc: bool, canon: bool) -> Self::K;
    /// The element of a key made with `canon = false` (a nan key gives a nan).
    fn from_key(k: Self::K, desc: bool) -> Self;
}

impl SortKey for bool {
    type K = u8;
    const FLOAT: bool = false;
    #[inline(always)]
    fn key(self, desc: bool, _: bool) -> u8 {
        (self != desc) as u8
    }
    #[inline(always)]
    fn from_key(k: u8, desc: bool) -> bool {
        (k != 0) != desc
    }
}

macro_rules! int_key {
    ($t:ty, $k:ty) => {
        impl SortKey for $t {
            type K = $k;
            const FLOAT: bool = false;
            #[inline(always)]
            fn key(self, desc: bool, _: bool) -> $k {
                let k = (self as $k) ^ (1 << (<$k>::BITS - 1));
                if desc { !k } else { k }
            }
            #[inline(always)]
            fn from_key(k: $k, desc: bool) -> $t {
                let k = if desc { !k } else { k };
                (k ^ (1 << (<$k>::BITS - 1))) as $t
            }
        }
    };
}
int_key!(i32, u32);
int_key!(i64, u64);

/// Floats: negative numbers get every bit flipped, positive ones the sign
/// bit set; bits above +inf's (without the sign) are a nan.
macro_rules! float_key {
    ($t:ty, $k:ty, $inf:expr) => {
        impl SortKey for $t {
            type K = $k;
            const FLOAT: bool = true;
            #[inline(always)]
            fn key(self, desc: bool, canon: bool) -> $k {
                const SIGN: $k = 1 << (<$k>::BITS - 1);
                let b: $k = self.to_bits();
                let nan = (b & !SIGN) > $inf;
                let b = if canon && (b & !SIGN) == 0 { 0 } else { b };
                let k = if b & SIGN != 0 { !b } else { b | SIGN };
                let k = if desc { !k } else { k };
                if nan { <$k>::MAX } else { k }
            }
            #[inline(always)]
            fn from_key(k: $k, desc: bool) -> $t {
                const SIGN: $k = 1 << (<$k>::BITS - 1);
                if k == <$k>::MAX {
                    return <$t>::from_bits(<$k>::MAX >> 1);
                }
                let k = if desc { !k } else { k };
                <$t>::from_bits(if k & SIGN != 0 { k & !SIGN } else { !k })
            }
        }
    };
}
float_key!(f32, u32, 0x7f80_0000);
float_key!(f64, u64, 0x7ff0_0000_0000_0000);
float_key!(f16, u16, 0x7c00);

/// `out[i] = key(src[i])`, the options fixed for the loop.
pub fn keys_into<T: SortKey>(src: &[T], out: &mut [T::K], desc: bool, canon: bool) {
    match (desc, canon) {
        (false, false) => fill::<T, false, false>(src, out),
        (false, true) => fill::<T, false, true>(src, out),
        (true, false) => fill::<T, true, false>(src, out),
        (true, true) => fill::<T, true, true>(src, out),
    }
}

fn fill<T: SortKey, const DESC: bool, const CANON: bool>(src: &[T], out: &mut [T::K]) {
    for (o, &x) in out.iter_mut().zip(src) {
        *o = x.key(DESC, CANON);
    }
}

/// `out[i] = from_key(keys[i])`.
pub fn values_from_keys<T: SortKey>(keys: &[T::K], out: &mut [T], desc: bool) {
    if desc {
        for (o, &k) in out.iter_mut().zip(keys) {
            *o = T::from_key(k, true);
        }
    } else {
        for (o, &k) in out.iter_mut().zip(keys) {
            *o = T::from_key(k, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order<T: SortKey + Copy>(xs: &[T], desc: bool) -> Vec<T::K> {
        xs.iter().map(|&x| x.key(desc, false)).collect()
    }

    #[test]
    fn float_keys_follow_numpys_order() {
        let xs = [
            f32::NEG_INFINITY,
            -3.5,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            2.0,
            f32::INFINITY,
        ];
        let k = order(&xs, false);
        assert!(k.windows(2).all(|w| w[0] < w[1]), "{k:?}");
        for &x in &xs {
            assert_eq!(
                f32::from_key(x.key(false, false), false).to_bits(),
                x.to_bits()
            );
            assert_eq!(
                f32::from_key(x.key(true, false), true).to_bits(),
                x.to_bits()
            );
        }
        let kd = order(&xs, true);
        assert!(kd.windows(2).all(|w| w[0] > w[1]), "{kd:?}");
        for nan in [f32::NAN, -f32::NAN, f32::from_bits(0x7f80_0001)] {
            assert_eq!(nan.key(false, false), u32::MAX);
            assert_eq!(nan.key(true, false), u32::MAX);
            assert!(f32::from_key(u32::MAX, false).is_nan());
        }
        assert!(kd.iter().all(|&k| k != u32::MAX) && k.iter().all(|&k| k != u32::MAX));
        assert_eq!((-0.0f32).key(false, true), 0.0f32.key(false, true));
        assert_eq!((-0.0f64).key(true, true), 0.0f64.key(true, true));
        let h = [
            f16::NEG_INFINITY,
            f16::from_f32(-1.0),
            f16::ZERO,
            f16::MAX,
            f16::INFINITY,
        ];
        let kh = order(&h, false);
        assert!(kh.windows(2).all(|w| w[0] < w[1]), "{kh:?}");
        assert_eq!(f16::NAN.key(false, false), u16::MAX);
        assert_eq!(f64::INFINITY.key(false, false), 0xfff0_0000_0000_0000);
    }

    #[test]
    fn int_and_bool_keys() {
        let xs = [i64::MIN, -5, 0, 7, i64::MAX];
        let k = order(&xs, false);
        assert!(k.windows(2).all(|w| w[0] < w[1]));
        assert!(order(&xs, true).windows(2).all(|w| w[0] > w[1]));
        for &x in &xs {
            assert_eq!(i64::from_key(x.key(true, false), true), x);
        }
        assert_eq!(i32::from_key((-9i32).key(false, true), false), -9);
        assert!(false.key(false, false) < true.key(false, false));
        assert!(false.key(true, false) > true.key(true, false));
        assert!(bool::from_key(true.key(true, false), true));
    }
}
