//! The collectives over several GPUs (NCCL's): which collective and, for the
//! reducing ones, which reduction. The op table parses `op="sum"` into a
//! `RedKind`; `cuda/nccl.rs` matches both enums with no wildcard arm.

/// How a reducing collective combines the arrays of the GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedKind {
    Sum,
    Prod,
    Max,
    Min,
    /// The sum divided by the number of GPUs (NCCL's `ncclAvg`).
    Mean,
}

impl RedKind {
    pub const ALL: [RedKind; 5] = [
        RedKind::Sum,
        RedKind::Prod,
        RedKind::Max,
        RedKind::Min,
        RedKind::Mean,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RedKind::Sum => "sum",
            RedKind::Prod => "prod",
            RedKind::Max => "max",
            RedKind::Min => "min",
            RedKind::Mean => "mean",
        }
    }

    /// The reduction named `s` (`"sum"`, ...), if any.
    pub fn parse(s: &str) -> Option<RedKind> {
        RedKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// One collective over the GPUs of a communicator (ranks in list order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveOp {
    /// Every rank gets the reduction of all ranks' arrays.
    AllReduce(RedKind),
    /// Every rank gets rank `root`'s array.
    Broadcast { root: usize },
    /// Every rank gets all ranks' arrays one after another (rank order).
    AllGather,
    /// Rank r gets the r-th of n equal parts of the reduction.
    ReduceScatter(RedKind),
}

impl CollectiveOp {
    pub fn name(self) -> &'static str {
        match self {
            CollectiveOp::AllReduce(_) => "all_reduce",
            CollectiveOp::Broadcast { .. } => "broadcast",
            CollectiveOp::AllGather => "all_gather",
            CollectiveOp::ReduceScatter(_) => "reduce_scatter",
        }
    }
}
