//! Which table an op comes from, as its family: what help says about its
//! dtypes, devices and NumPy equivalent, and whether a call of it gives an
//! array (completion after `zeros((2,2)).`). Read from table membership,
//! never from op names.

use super::OpDef;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Elementwise,
    Reduction,
    LinearAlgebra,
    Shape,
    Sorting,
    /// Complex numbers and the FFT family (CPU and GPU).
    Fourier,
    Indexing,
    Creation,
    Random,
    Files,
    Plots,
    Devices,
    Gradients,
    Language,
    Profiling,
    Help,
}

impl Family {
    /// Families whose ops take and give arrays and run on every device.
    pub fn is_array_math(self) -> bool {
        matches!(
            self,
            Family::Elementwise
                | Family::Reduction
                | Family::LinearAlgebra
                | Family::Shape
                | Family::Sorting
                | Family::Fourier
                | Family::Indexing
                | Family::Creation
                | Family::Random
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Elementwise => "elementwise",
            Family::Reduction => "reduction",
            Family::LinearAlgebra => "linear algebra",
            Family::Shape => "shape",
            Family::Sorting => "sorting and searching",
            Family::Fourier => "complex numbers and FFT",
            Family::Indexing => "indexing",
            Family::Creation => "creation",
            Family::Random => "random",
            Family::Files => "files",
            Family::Plots => "plots",
            Family::Devices => "devices",
            Family::Gradients => "gradients",
            Family::Language => "language",
            Family::Profiling => "profiling",
            Family::Help => "help",
        }
    }
}

fn tables() -> [(&'static [OpDef], Family); 66] {
    [
        (super::elementwise::OPS, Family::Elementwise),
        (super::elementwise_math::OPS, Family::Elementwise),
        (super::complex::OPS, Family::Fourier),
        (super::reduce::OPS, Family::Reduction),
        (super::scan::OPS, Family::Reduction),
        (super::softmax::OPS, Family::Reduction),
        (super::quantile::OPS, Family::Reduction),
        (super::stats::OPS, Family::Reduction),
        (super::histogram::OPS, Family::Reduction),
        (super::linalg::OPS, Family::LinearAlgebra),
        (super::decomp::OPS, Family::LinearAlgebra),
        (super::norms::OPS, Family::LinearAlgebra),
        (super::lstsq::OPS, Family::LinearAlgebra),
        (super::tensor::OPS, Family::LinearAlgebra),
        (super::einsum::OPS, Family::LinearAlgebra),
        (super::fft::OPS, Family::Fourier),
        (super::shape::OPS, Family::Shape),
        (super::sort::OPS, Family::Sorting),
        (super::assemble::OPS, Family::Shape),
        (super::index::OPS, Family::Indexing),
        (super::creation::OPS, Family::Creation),
        (super::random_ops::OPS, Family::Random),
        (super::random_draws::OPS, Family::Random),
        (super::io::OPS, Family::Files),
        (crate::plot::OPS, Family::Plots),
        (crate::builtins::device::OPS, Family::Devices),
        (super::collective::OPS, Family::Devices),
        (crate::autodiff::builtins::OPS, Family::Gradients),
        (crate::builtins::lang::OPS, Family::Language),
        (crate::builtins::python::OPS, Family::Language),
        (crate::builtins::pyobjects::OPS, Family::Language),
        (crate::containers::set::OPS, Family::Language),
        (crate::builtins::printing::OPS, Family::Language),
        (crate::profile::OPS, Family::Profiling),
        (crate::builtins::help::OPS, Family::Help),
        (crate::containers::methods::OPS, Family::Language),
        (super::nparr::CONSTRUCT_OPS, Family::Creation),
        (super::nparr::MANIP_OPS, Family::Shape),
        (super::nparr::PICK_OPS, Family::Indexing),
        (super::nparr::SET_OPS, Family::Sorting),
        (super::nparr::HIST2D_OPS, Family::Reduction),
        (super::nparr::DRAW_OPS, Family::Random),
        (super::npmath_ew::OPS, Family::Elementwise),
        (super::npmath_alias::OPS, Family::Elementwise),
        (super::npmath_alias::REDUCE_OPS, Family::Reduction),
        (super::npmath::OPS, Family::Elementwise),
        (super::npmath_calc::OPS, Family::Reduction),
        (super::npmath_linalg::OPS, Family::LinearAlgebra),
        (super::np_alias::OPS, Family::Elementwise),
        (super::np_alias::SHAPE_OPS, Family::Shape),
        (super::np_dtype::OPS, Family::Language),
        (super::np_complex::OPS, Family::Fourier),
        (super::np_misc::OPS, Family::Creation),
        (super::np_misc::EW_OPS, Family::Elementwise),
        (super::signal::CONV_OPS, Family::LinearAlgebra),
        (super::signal::WINDOW_OPS, Family::Creation),
        (super::signal::SHAPE_OPS, Family::Shape),
        (super::signal::HIST_OPS, Family::Reduction),
        (super::eig::OPS, Family::LinearAlgebra),
        (super::arrutil::CALLABLE_OPS, Family::Language),
        (super::arrutil::INPLACE_OPS, Family::Indexing),
        (super::arrutil::SELECT_OPS, Family::Shape),
        (super::arrutil::ITERATE_OPS, Family::Indexing),
        (super::arrutil::TEXT_OPS, Family::Files),
        (super::generator::OPS, Family::Random),
        (super::generator::more_draws::OPS, Family::Random),
    ]
}

/// The family of an op of the table (`None` only for an entry outside every
/// table, which a test rules out).
pub fn family(def: &OpDef) -> Option<Family> {
    tables()
        .into_iter()
        .find(|(t, _)| t.iter().any(|d| std::ptr::eq(d, def)))
        .map(|(_, f)| f)
}
