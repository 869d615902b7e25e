//! `linalg`: a namespace value whose attributes are the builtins of the
//! linear-algebra family, so code written as NumPy's `linalg.norm(x)` (after
//! `from numpy import linalg`) runs as `norm(x)`. The flat names stay the
//! primary ones; the namespace adds nothing but the spelling (a superset of
//! `np.linalg`: `linalg.einsum` works too).

use super::family::{Family, family};
use crate::value::{Object, Value};

pub struct Linalg;

/// The `linalg` value (a name looked up like `floatX`).
pub fn value() -> Value {
    static NS: std::sync::OnceLock<std::sync::Arc<Linalg>> = std::sync::OnceLock::new();
    Value::Object(NS.get_or_init(|| std::sync::Arc::new(Linalg)).clone())
}

impl Object for Linalg {
    fn type_name(&self) -> &'static str {
        "namespace"
    }
    fn repr(&self) -> String {
        "<namespace linalg: the linear-algebra builtins, as NumPy's np.linalg (linalg.norm is norm)>".into()
    }
    fn attr(&self, name: &str) -> Option<Value> {
        super::lookup(name)
            .filter(|d| family(d) == Some(Family::LinearAlgebra))
            .map(Value::Builtin)
    }
    fn attr_names(&self) -> Vec<String> {
        super::all()
            .into_iter()
            .filter(|d| family(d) == Some(Family::LinearAlgebra))
            .map(|d| d.name.to_string())
            .collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
