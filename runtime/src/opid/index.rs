//! The unbuffered in-place updates `add_at subtract_at multiply_at
//! maximum_at minimum_at` (NumPy's `ufunc.at`). Each combines as its
//! op-table twin (`add`, ... `maximum`: nan wins) does on one element;
//! `runtime/tests/core/index_at.rs` checks them against the table on both
//! devices.

/// One list gives the enum, `ALL`, each name and each elementwise twin.
macro_rules! at_ops {
    ($($v:ident $n:literal $twin:literal),* $(,)?) => {
        /// `x[p] = x[p] op v` at every selected position, repeats included.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AtOp {
            $($v),*
        }

        impl AtOp {
            /// Every update, in table order.
            pub const ALL: &'static [AtOp] = &[$(AtOp::$v),*];

            /// The op-table name (`add_at`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(AtOp::$v => $n),*
                }
            }

            /// The elementwise op it applies (`add`).
            pub const fn twin(self) -> &'static str {
                match self {
                    $(AtOp::$v => $twin),*
                }
            }
        }
    };
}

at_ops! {
    Add "add_at" "add",
    Subtract "subtract_at" "subtract",
    Multiply "multiply_at" "multiply",
    Maximum "maximum_at" "maximum",
    Minimum "minimum_at" "minimum",
}
