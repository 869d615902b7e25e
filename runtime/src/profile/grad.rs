//! Records of `grad`'s backward pass (which calls rules and fused trees
//! directly, not through `call_def`): one record per tape node, `grad of
//! matmul` or `grad of fused(...)`, sited at the statement that called the
//! gradient function, nested in one `grad backward pass` record that keeps
//! the rest (the seed, the walk). A guard ends each record when dropped, so an
//! error inside a rule leaves no record open.

use super::hooks::{NewEntry, Walk, array_key, array_text, kernel_name, kind_name, walk};
use super::recorder::{Class, Token, mix};
use super::{HOOKS, Profiler};
use crate::array::Array;
use crate::interp::Interp;
use crate::ops::fuse::EwNode;

/// What a backward step differentiates.
pub enum GradOf<'a> {
    /// The whole pass (the seed gradient and the walk itself).
    Pass,
    /// A differentiated argument: nothing to compute, no record.
    Leaf,
    /// A fused elementwise tree.
    Tree(&'a EwNode),
    /// A builtin's gradient rule, by the op's name.
    Op(&'static str),
    /// `x[idx]` (a scatter-add).
    Index,
}

/// Ends its record when dropped (nothing while profiling is off).
pub struct GradRecord(Option<(Profiler, Token)>);

impl Drop for GradRecord {
    fn drop(&mut self) {
        if let Some((p, tok)) = self.0.take() {
            p.lock().end(tok, 0, None);
        }
    }
}

impl Interp {
    /// Begin the record of a backward step whose upstream gradient is `g`.
    #[inline]
    pub(crate) fn grad_record(&mut self, what: GradOf<'_>, g: &Array) -> GradRecord {
        if !(HOOKS && self.flags.profile) || matches!(what, GradOf::Leaf) {
            return GradRecord(None);
        }
        self.grad_record_on(what, g)
    }

    #[cold]
    fn grad_record_on(&mut self, what: GradOf<'_>, g: &Array) -> GradRecord {
        let device = g.device();
        let dev_key = super::device_key(device);
        let (class, kind_key, kernel_key) = match &what {
            GradOf::Tree(t) => {
                let mut w = Walk::default();
                walk(t, &mut w);
                (Class::Fused, w.kind_key, array_key(w.kernel_key, g))
            }
            GradOf::Op(name) => {
                let k = mix(21, name.as_ptr() as u64);
                (Class::Op, k, array_key(k, g))
            }
            GradOf::Index => (Class::Op, 22, array_key(22, g)),
            GradOf::Pass | GradOf::Leaf => (Class::Op, 23, mix(23, dev_key)),
        };
        let (kind_key, kernel_key) = (mix(20, kind_key), mix(mix(20, kernel_key), dev_key));
        let prof = self.profiler.clone();
        let tok = {
            let mut st = prof.lock();
            let entry = self.entry_id(&mut st, kernel_key, || {
                let (kind, kernel) = match &what {
                    GradOf::Tree(t) => (kind_name(t), kernel_name(t)),
                    GradOf::Op(name) => (name.to_string(), format!("{name}(g: {})", array_text(g))),
                    GradOf::Index => ("index".into(), format!("index(g: {})", array_text(g))),
                    GradOf::Pass | GradOf::Leaf => {
                        return NewEntry {
                            class,
                            kind_key,
                            kind: "grad backward pass".into(),
                            kernel: format!("grad backward pass {device}"),
                        };
                    }
                };
                NewEntry {
                    class,
                    kind_key,
                    kind: format!("grad of {kind}"),
                    kernel: format!("grad of {kernel} {device}"),
                }
            });
            st.begin(entry, device, g.nbytes() as u64)
        };
        GradRecord(Some((prof, tok)))
    }
}
