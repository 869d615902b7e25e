//! `grad(f, argnums=0)` and `value_and_grad(f, argnums=0)`: gradient functions
//! as callable objects. A call runs `f` with a fresh tape, the differentiated
//! arguments tagged as leaves (every array of a dict, list or tuple argument:
//! `pytree`), then the backward pass.

use super::Tape;
use super::arrays::{cast, fill_like};
use crate::array::Array;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::ops::{OpDef, OpKind};
use crate::value::{Object, Value};
use std::sync::Arc;

pub static OPS: &[OpDef] = &[
    OpDef {
        name: "grad",
        sig: "grad(f, argnums=0)",
        doc: "The gradient of f, a function returning a scalar: grad(f)(x) is df/dx, of x's shape. argnums=(0, 1) gives a tuple of gradients. A dict, list or tuple of arrays (params = {\"w\": w, \"b\": b}) gives its gradients in the same structure, as JAX does.",
        method: false,
        kind: OpKind::Func(|i: &mut Interp, a: Args| make(i, a, false)),
        grad: None,
    },
    OpDef {
        name: "value_and_grad",
        sig: "value_and_grad(f, argnums=0)",
        doc: "Like grad, but the function returns (f(...), gradient).",
        method: false,
        kind: OpKind::Func(|i: &mut Interp, a: Args| make(i, a, true)),
        grad: None,
    },
];

struct GradFunc {
    f: Value,
    argnums: Vec<i64>,
    /// argnums was a tuple: the gradients come back as a tuple.
    tuple: bool,
    with_value: bool,
}

fn make(_: &mut Interp, mut a: Args, with_value: bool) -> Result<Value> {
    let f = a.req("f")?;
    if !matches!(
        f,
        Value::Func(_) | Value::Builtin(_) | Value::Object(_) | Value::Method(..)
    ) {
        return Err(Error::type_(format!(
            "{}() needs a function, got {}",
            a.name,
            f.a_type_name()
        )));
    }
    let (argnums, tuple) = match a.opt("argnums")? {
        None => (vec![0], false),
        Some(Value::Int(i)) => (vec![i], false),
        Some(v @ (Value::Tuple(_) | Value::List(_))) => (
            v.seq_items()
                .unwrap_or_default()
                .iter()
                .map(|v| match v {
                    Value::Int(i) => Ok(*i),
                    v => Err(Error::type_(format!(
                        "argnums must hold ints, got {}",
                        v.a_type_name()
                    ))),
                })
                .collect::<Result<_>>()?,
            true,
        ),
        Some(v) => {
            return Err(Error::type_(format!(
                "argnums must be an int or a tuple of ints, got {}",
                v.a_type_name()
            )));
        }
    };
    a.finish()?;
    Ok(Value::Object(Arc::new(GradFunc {
        f,
        argnums,
        tuple,
        with_value,
    })))
}

impl GradFunc {
    fn fname(&self) -> String {
        match &self.f {
            Value::Func(f) => f.name.clone(),
            Value::Builtin(d) | Value::Method(_, d) => d.name.to_string(),
            _ => "f".into(),
        }
    }

    fn param_name(&self, i: usize) -> String {
        match &self.f {
            Value::Func(f) => f
                .def
                .params
                .get(i)
                .map(|p| format!(" (`{}`)", p.name.name))
                .unwrap_or_default(),
            _ => String::new(),
        }
    }

    /// Argument `i` (its part at `path`, in a dict or list) as a tracked
    /// leaf (weak floats become 0-d floatX arrays).
    fn leaf(
        &self,
        interp: &Interp,
        tape: &mut Tape,
        (i, path): (usize, &str),
        v: &Value,
        device: crate::Device,
    ) -> Result<Array> {
        let bad = |what: String, help: String| {
            Error::dtype(
                "grad",
                format!(
                    "cannot differentiate {}() with respect to argument {i}{}{}: it is {what}",
                    self.fname(),
                    self.param_name(i),
                    if path.is_empty() {
                        String::new()
                    } else {
                        format!(" at {path}")
                    }
                ),
            )
            .with_help(help)
        };
        let a = match v {
            Value::Float(f) => crate::backend::to_device(
                &Array::from_host(
                    crate::HostData::from_f64s(interp.float_x(), [*f].into_iter()),
                    vec![],
                ),
                device,
            )?,
            Value::Array(a) if a.dtype().is_float() => a.clone(),
            Value::Array(a) => {
                return Err(bad(
                    format!("{} array", crate::error::with_article(a.dtype().name())),
                    "make it a float array first: x.astype(floatX)".into(),
                ));
            }
            Value::Int(_) => {
                return Err(bad(
                    "an int".into(),
                    "pass a float (1.0 rather than 1) or an array of floats".into(),
                ));
            }
            v => {
                return Err(bad(
                    v.a_type_name(),
                    "gradients are taken with respect to float arrays and numbers".into(),
                ));
            }
        };
        Ok(tape.leaf(a))
    }

    fn run(&self, interp: &mut Interp, args: Args) -> Result<Value> {
        let span = args.span;
        let (mut pos, kw) = (args.pos, args.kw);
        let n = pos.len() as i64;
        let mut which = Vec::with_capacity(self.argnums.len());
        for &k in &self.argnums {
            let j = if k < 0 { k + n } else { k };
            if j < 0 || j >= n {
                return Err(Error::index(format!(
                    "argnums {k} is out of range: {}() was called with {n} positional argument{}",
                    self.fname(),
                    if n == 1 { "" } else { "s" }
                ))
                .with_help("argnums count the positional arguments from 0"));
            }
            which.push(j as usize);
        }
        if let Some(outer) = &interp.tape
            && which
                .iter()
                .any(|&j| matches!(&pos[j], Value::Array(a) if outer.tracks(a)))
        {
            return Err(Error::value(
                "grad of a gradient (nested grad) is not supported yet",
            ));
        }
        let mut tape = Tape::new();
        let mut leaves: Vec<Array> = Vec::with_capacity(which.len());
        let mut trees = Vec::with_capacity(which.len());
        // A weak float argument becomes a 0-d array on the device of the array
        // arguments (so `b = 0.0` works beside GPU arrays), else the default one.
        let device = pos
            .iter()
            .find_map(|v| v.as_array().map(|a| a.device()))
            .unwrap_or_else(|| interp.default_device());
        for &j in &which {
            let mut make =
                |path: &str, x: &Value| self.leaf(interp, &mut tape, (j, path), x, device);
            let (v, tree) = super::pytree::track(&pos[j], &mut make, &mut leaves)?;
            pos[j] = v;
            trees.push(tree);
        }
        let saved = interp.tape.replace(Box::new(tape));
        let r = interp.call_value(self.f.clone(), pos, kw, span);
        let tape = std::mem::replace(&mut interp.tape, saved);
        let out = r?;
        let root = match &out {
            Value::Array(a) if a.size() == 1 => a.clone(),
            Value::Array(a) => {
                return Err(Error::value(format!(
                    "{}() must return a scalar to be differentiated, got an array of shape {}",
                    self.fname(),
                    crate::array::layout::fmt_shape(a.shape())
                ))
                .with_help("reduce it first, e.g. sum(...) or mean(...)"));
            }
            // A plain number after work on the tracked arguments came off the
            // tape (`float(loss)`, `loss.item()`): its gradient would read as
            // zero, silently. PyTorch and JAX refuse this too.
            Value::Float(_) | Value::Int(_) | Value::Bool(_)
                if tape.as_ref().is_some_and(|t| t.nodes.len() > leaves.len()) =>
            {
                return Err(Error::value(format!(
                    "{}() returned a plain number, not an array: float(), int() or .item() of a tracked array leave the gradient tape, so the gradient would be zero",
                    self.fname()
                ))
                .with_help("return the array itself, e.g. sum(x ** 2) rather than float(sum(x ** 2))"));
            }
            Value::Float(_) | Value::Int(_) | Value::Bool(_) => Array::scalar(0.0f64),
            v => {
                return Err(Error::value(format!(
                    "{}() must return a scalar to be differentiated, got {}",
                    self.fname(),
                    v.a_type_name()
                )));
            }
        };
        let mut tape = tape.ok_or_else(|| Error::internal("grad: the tape went missing"))?;
        // A result read from a buffer written after it was made.
        let root = tape.refresh(&root);
        let adj = tape.backward(interp, &root)?;
        let mut grads = Vec::with_capacity(leaves.len());
        for leaf in &leaves {
            let k = (leaf.node() & 0xffff_ffff) as usize;
            let g = match adj.get(k.wrapping_sub(1)).cloned().flatten() {
                Some(g) => cast(g, leaf.dtype())?.contiguous()?,
                None => fill_like(leaf, 0.0, interp.float_x())?,
            };
            grads.push(Value::Array(g));
        }
        let mut grads = trees
            .iter()
            .map(|t| super::pytree::rebuild(t, &grads))
            .collect::<Result<Vec<_>>>()?;
        let grads = if self.tuple {
            Value::tuple(grads)
        } else {
            grads.pop().unwrap_or(Value::None)
        };
        if !self.with_value {
            return Ok(grads);
        }
        let value = match out {
            Value::Array(a) => Value::Array(a.with_node(0)),
            v => v,
        };
        Ok(Value::tuple(vec![value, grads]))
    }
}

impl Object for GradFunc {
    fn replayable_call(&self) -> bool {
        true
    }
    fn type_name(&self) -> &'static str {
        "gradient function"
    }
    fn repr(&self) -> String {
        let what = if self.with_value {
            "value_and_grad"
        } else {
            "grad"
        };
        let nums: Vec<String> = self.argnums.iter().map(|k| k.to_string()).collect();
        format!("<{what} of {}, argnums {}>", self.fname(), nums.join(", "))
    }
    fn is_callable(&self) -> bool {
        true
    }
    fn call(&self, interp: &mut Interp, args: Args) -> Result<Value> {
        self.run(interp, args)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
