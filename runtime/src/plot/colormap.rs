//! Colours: the viridis colormap for `imshow` (matplotlib's default, readable
//! in grey and by colour-blind readers) and the palette that tells series apart.

/// Viridis at ten evenly spaced stops (0, 1/9, ..., 1); between stops the
/// colour is interpolated linearly.
const VIRIDIS: [(u8, u8, u8); 10] = [
    (0x44, 0x01, 0x54),
    (0x48, 0x28, 0x78),
    (0x3e, 0x4a, 0x89),
    (0x31, 0x68, 0x8e),
    (0x26, 0x82, 0x8e),
    (0x1f, 0x9e, 0x89),
    (0x35, 0xb7, 0x79),
    (0x6d, 0xcd, 0x59),
    (0xb4, 0xde, 0x2c),
    (0xfd, 0xe7, 0x25),
];

/// matplotlib's `tab10`: the colours of series 1, 2, ... (then again).
const PALETTE: [(u8, u8, u8); 10] = [
    (0x1f, 0x77, 0xb4),
    (0xff, 0x7f, 0x0e),
    (0x2c, 0xa0, 0x2c),
    (0xd6, 0x27, 0x28),
    (0x94, 0x67, 0xbd),
    (0x8c, 0x56, 0x4b),
    (0xe3, 0x77, 0xc2),
    (0x7f, 0x7f, 0x7f),
    (0xbc, 0xbd, 0x22),
    (0x17, 0xbe, 0xcf),
];

/// The colour of viridis at `t` in [0, 1] (clamped; NaN gives the low end).
pub fn viridis(t: f64) -> (u8, u8, u8) {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let pos = t * (VIRIDIS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(VIRIDIS.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Where `v` falls in `[lo, hi]`, as a fraction (0.5 when the range is empty).
pub fn normalize(v: f64, lo: f64, hi: f64) -> f64 {
    if hi > lo { (v - lo) / (hi - lo) } else { 0.5 }
}

/// The colour of series `i`.
pub fn series(i: usize) -> (u8, u8, u8) {
    PALETTE[i % PALETTE.len()]
}

/// `#rrggbb`, as SVG writes colours.
pub fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viridis_ends_and_middle() {
        assert_eq!(viridis(0.0), VIRIDIS[0]);
        assert_eq!(viridis(1.0), VIRIDIS[9]);
        assert_eq!(viridis(f64::NAN), VIRIDIS[0]);
        assert_eq!(viridis(2.0), VIRIDIS[9]);
        let m = viridis(0.5);
        assert!(m.1 > VIRIDIS[4].1 && m.1 < VIRIDIS[5].1);
        assert_eq!(normalize(3.0, 1.0, 5.0), 0.5);
        assert_eq!(normalize(3.0, 3.0, 3.0), 0.5);
        assert_eq!(hex((255, 0, 16)), "#FF0010");
    }
}
