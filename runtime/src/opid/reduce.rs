//! The reductions: `sum mean prod max min argmax argmin std var any all`.

/// One list gives the enum, `ALL` and each name (the op-table name).
macro_rules! reduce_ops {
    ($($v:ident $n:literal),* $(,)?) => {
        /// A reduction over some axes of an array (`ops/reduce.rs` holds their
        /// table entries, `cpu/reduce.rs` and `cuda/reduce.rs` their arms).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ReduceOp {
            $($v),*
        }

        impl ReduceOp {
            /// Every reduction, in table order.
            pub const ALL: &'static [ReduceOp] = &[$(ReduceOp::$v),*];

            /// The op-table name (`sum`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(ReduceOp::$v => $n),*
                }
            }
        }
    };
}

reduce_ops! {
    Sum "sum",
    Mean "mean",
    Prod "prod",
    Max "max",
    Min "min",
    Argmax "argmax",
    Argmin "argmin",
    Std "std",
    Var "var",
    Any "any",
    All "all",
}

impl ReduceOp {
    /// argmax/argmin: an index (int64), over one axis or the flat array.
    pub fn is_arg(self) -> bool {
        matches!(self, ReduceOp::Argmax | ReduceOp::Argmin)
    }
    /// std/var: take `ddof`.
    pub fn takes_ddof(self) -> bool {
        matches!(self, ReduceOp::Std | ReduceOp::Var)
    }
    /// max/min/argmax/argmin: an empty lane has no value to give.
    pub fn needs_elements(self) -> bool {
        matches!(
            self,
            ReduceOp::Max | ReduceOp::Min | ReduceOp::Argmax | ReduceOp::Argmin
        )
    }
}
