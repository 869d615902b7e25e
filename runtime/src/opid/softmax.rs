//! softmax, log_softmax and logsumexp: one pass structure (a lane's max, the
//! sum of exponentials, then the outputs) that both backends implement.

/// Which of the three a call computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoftmaxOp {
    Softmax,
    LogSoftmax,
    /// One value per lane (the axis is reduced).
    Logsumexp,
}

impl SoftmaxOp {
    /// Every op, in table order.
    pub const ALL: &'static [SoftmaxOp] = &[
        SoftmaxOp::Softmax,
        SoftmaxOp::LogSoftmax,
        SoftmaxOp::Logsumexp,
    ];

    /// The op-table name.
    pub const fn name(self) -> &'static str {
        match self {
            SoftmaxOp::Softmax => "softmax",
            SoftmaxOp::LogSoftmax => "log_softmax",
            SoftmaxOp::Logsumexp => "logsumexp",
        }
    }

    /// The CUDA kernels' MODE (0 softmax, 1 log_softmax, 2 logsumexp).
    pub const fn mode(self) -> i32 {
        match self {
            SoftmaxOp::Softmax => 0,
            SoftmaxOp::LogSoftmax => 1,
            SoftmaxOp::Logsumexp => 2,
        }
    }

    /// Whether the lane's max is replaced by 0 when it is not finite
    /// (SciPy's log_softmax and logsumexp; its softmax does not).
    pub const fn finite_shift(self) -> bool {
        !matches!(self, SoftmaxOp::Softmax)
    }
}
