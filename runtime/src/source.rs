//! Source texts and the names they are shown under (`file.gcalc`, `<stdin>`,
//! `In[3]`): the interpreter runs them, the CUDA backend names the statement
//! that queued failing work, the profiler names sites. A data-layer type, so
//! the backends can hold one without knowing the interpreter.

/// A source text and the name it is shown under in errors.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}
