//! The FFT family's identities: which transform (`FftKind`), its scaling
//! (`FftNorm`, NumPy's `norm=`), and one job: a 1-d transform of length `n`
//! along one axis, which both backends run (the n-d transforms are made of
//! these, one axis after another).

/// The transform along one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    /// Complex to complex, forward (`fft`) or inverse (`ifft`).
    C2c { inverse: bool },
    /// Real to the n//2+1 non-negative frequencies (`rfft`).
    R2c,
    /// Those frequencies back to n real values (`irfft`).
    C2r,
}

/// NumPy's `norm=`: which direction is scaled, by 1/n or both by 1/sqrt(n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftNorm {
    Backward,
    Ortho,
    Forward,
}

impl FftNorm {
    pub const NAMES: [&'static str; 3] = ["backward", "ortho", "forward"];
    pub fn from_name(s: &str) -> Option<FftNorm> {
        match s {
            "backward" => Some(FftNorm::Backward),
            "ortho" => Some(FftNorm::Ortho),
            "forward" => Some(FftNorm::Forward),
            _ => None,
        }
    }
    /// The other direction's norm with the same pairing (the adjoint of a
    /// transform with this norm is the opposite transform with `dual`).
    pub fn dual(self) -> FftNorm {
        match self {
            FftNorm::Backward => FftNorm::Forward,
            FftNorm::Ortho => FftNorm::Ortho,
            FftNorm::Forward => FftNorm::Backward,
        }
    }
}

/// One 1-d transform: along `axis`, of length `n` (the input is cut or
/// padded with zeros to `n`, or to n//2+1 for `C2r`), scaled per `norm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FftJob {
    pub kind: FftKind,
    pub axis: usize,
    pub n: usize,
    pub norm: FftNorm,
}

impl FftJob {
    pub fn inverse(&self) -> bool {
        matches!(self.kind, FftKind::C2c { inverse: true } | FftKind::C2r)
    }
    /// The factor the result is multiplied by.
    pub fn scale(&self) -> f64 {
        let n = self.n as f64;
        match (self.norm, self.inverse()) {
            (FftNorm::Ortho, _) => 1.0 / n.sqrt(),
            (FftNorm::Backward, true) | (FftNorm::Forward, false) => 1.0 / n,
            _ => 1.0,
        }
    }
    /// How many input elements the transform reads along its axis.
    pub fn len_in(&self) -> usize {
        match self.kind {
            FftKind::C2r => self.n / 2 + 1,
            _ => self.n,
        }
    }
    /// How many elements it writes along its axis.
    pub fn len_out(&self) -> usize {
        match self.kind {
            FftKind::R2c => self.n / 2 + 1,
            _ => self.n,
        }
    }
}
