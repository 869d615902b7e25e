//! The reductions: `sum mean prod max min argmax argmin std var any all`,
//! the NaN-skipping ones (`nansum nanmean nanmax nanmin nanstd nanvar
//! nanargmax nanargmin`), `ptp` and `count_nonzero`.

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
    Nansum "nansum",
    Nanmean "nanmean",
    Nanmax "nanmax",
    Nanmin "nanmin",
    Nanstd "nanstd",
    Nanvar "nanvar",
    Nanargmax "nanargmax",
    Nanargmin "nanargmin",
    Ptp "ptp",
    CountNonzero "count_nonzero",
}

impl ReduceOp {
    /// argmax/argmin: an index (int64), over one axis or the flat array.
    pub fn is_arg(self) -> bool {
        matches!(
            self,
            ReduceOp::Argmax | ReduceOp::Argmin | ReduceOp::Nanargmax | ReduceOp::Nanargmin
        )
    }
    /// std/var: take `ddof`.
    pub fn takes_ddof(self) -> bool {
        matches!(
            self,
            ReduceOp::Std | ReduceOp::Var | ReduceOp::Nanstd | ReduceOp::Nanvar
        )
    }
    /// NumPy's `dtype=` (the type the reduction computes in and gives).
    pub fn takes_dtype(self) -> bool {
        matches!(
            self,
            ReduceOp::Sum
                | ReduceOp::Mean
                | ReduceOp::Prod
                | ReduceOp::Std
                | ReduceOp::Var
                | ReduceOp::Nansum
                | ReduceOp::Nanmean
                | ReduceOp::Nanstd
                | ReduceOp::Nanvar
        )
    }
    /// max/min/argmax/argmin: an empty lane has no value to give.
    pub fn needs_elements(self) -> bool {
        matches!(
            self,
            ReduceOp::Max
                | ReduceOp::Min
                | ReduceOp::Argmax
                | ReduceOp::Argmin
                | ReduceOp::Nanmax
                | ReduceOp::Nanmin
                | ReduceOp::Nanargmax
                | ReduceOp::Nanargmin
                | ReduceOp::Ptp
        )
    }
    /// The NaN-skipping reductions of ints and bools are the plain ones
    /// (nothing to skip); every other op is itself.
    pub fn without_nan(self) -> ReduceOp {
        match self {
            ReduceOp::Nansum => ReduceOp::Sum,
            ReduceOp::Nanmean => ReduceOp::Mean,
            ReduceOp::Nanmax => ReduceOp::Max,
            ReduceOp::Nanmin => ReduceOp::Min,
            ReduceOp::Nanstd => ReduceOp::Std,
            ReduceOp::Nanvar => ReduceOp::Var,
            ReduceOp::Nanargmax => ReduceOp::Argmax,
            ReduceOp::Nanargmin => ReduceOp::Argmin,
            op => op,
        }
    }
    /// `without_nan()` when `cond` (the elements are not floats).
    pub fn without_nan_if(self, cond: bool) -> ReduceOp {
        if cond { self.without_nan() } else { self }
    }
}
