//! CPU tests of the runtime, one binary (arrays, ops, gradients, plots, the session API): one link instead of seventeen.

mod array_builtins;
mod array_index_shape;
mod array_npy;
mod array_print;
mod array_random;
mod copy_layouts;
mod files_load;
mod files_save;
mod frontend;
mod fuse_leaves;
mod grad_api;
mod grad_ops;
mod grad_shared_adjoint;
mod grad_util;
mod linalg_gemv;
mod numpy_diff;
mod numpy_side;
mod ops_elementwise;
mod ops_math;
mod ops_power;
mod plot_files;
mod plot_render;
mod plot_session;
mod reduce_layouts;
mod session_api;
mod tidy;
