//! Fused elementwise evaluation: a statement's whole elementwise expression
//! tree runs as one pass, one blocked loop on the CPU or one generated kernel
//! on a GPU. Here are the trees (`EwNode`: ops of the table over arrays and
//! weak scalars), the builtin entry points, and the check that a tree's
//! arrays share a device; `lower.rs` types a tree into the program the
//! backends run (`fused::Program`), handed to `backend::elementwise`.

mod lower;

use super::OpDef;
use super::elementwise::ew_def;
use crate::array::{Array, layout};
use crate::backend;
use crate::device::Device;
use crate::dtype::{DType, Kind};
use crate::error::{Error, Result};
use crate::fused::Program;
use crate::interp::{Args, Interp};
use crate::opid::ReduceOp;
use crate::value::Value;

/// An operand of an elementwise expression: an array, or a weak Python-style scalar.
#[derive(Clone, Debug)]
pub enum Operand {
    Array(Array),
    Int(i64),
    Float(f64),
    Bool(bool),
    /// A weak Python complex (real, imaginary).
    Complex(f64, f64),
}

/// An elementwise expression tree.
#[derive(Clone)]
pub enum EwNode {
    Leaf(Operand),
    Op {
        op: &'static OpDef,
        args: Vec<EwNode>,
    },
}

impl Operand {
    pub fn kind(&self) -> Kind {
        match self {
            Operand::Array(a) => Kind::Strong(a.dtype()),
            Operand::Int(_) => Kind::WeakInt,
            Operand::Float(_) => Kind::WeakFloat,
            Operand::Bool(_) => Kind::WeakBool,
            Operand::Complex(..) => Kind::WeakComplex,
        }
    }
    pub fn into_value(self) -> Value {
        match self {
            Operand::Array(a) => Value::Array(a),
            Operand::Int(i) => Value::Int(i),
            Operand::Float(f) => Value::Float(f),
            Operand::Bool(b) => Value::Bool(b),
            Operand::Complex(re, im) => Value::Complex(re, im),
        }
    }
}

/// A value as an elementwise operand (arrays and numbers; lists are not converted here).
pub fn operand(v: &Value) -> Result<Operand> {
    match v {
        Value::Array(a) => Ok(Operand::Array(a.clone())),
        Value::Int(i) => Ok(Operand::Int(*i)),
        Value::Float(f) => Ok(Operand::Float(*f)),
        Value::Bool(b) => Ok(Operand::Bool(*b)),
        Value::Complex(re, im) => Ok(Operand::Complex(*re, *im)),
        other => Err(Error::type_(format!(
            "expected an array or a number, got {}",
            other.a_type_name()
        ))
        .with_help("make an array with array([...])")),
    }
}

/// Apply one elementwise op by name.
pub fn apply(op_name: &str, args: Vec<Operand>, float_x: DType) -> Result<Operand> {
    let op = super::lookup(op_name)
        .filter(|d| ew_def(d).is_some())
        .ok_or_else(|| Error::name(format!("`{op_name}` is not an elementwise operation")))?;
    eval(
        EwNode::Op {
            op,
            args: args.into_iter().map(EwNode::Leaf).collect(),
        },
        float_x,
    )
}

/// A builtin call of an elementwise op (`exp(x)`, `clip(x, lo=0, hi=1)`).
pub fn call(op: &'static OpDef, interp: &mut Interp, mut args: Args) -> Result<Value> {
    lists_to_arrays(interp, &mut args)?;
    Ok(eval(call_tree(op, args)?, interp.float_x())?.into_value())
}

/// NumPy's array-likes as operands (`exp([1.0, 2.0])`, `maximum([1, 5], 3)`):
/// a list, tuple or range argument is made an array where new arrays go.
pub fn lists_to_arrays(interp: &Interp, args: &mut Args) -> Result<()> {
    let vals = args
        .pos
        .iter_mut()
        .chain(args.kw.iter_mut().map(|(_, v)| v));
    for v in vals {
        if let Some(a) = list_operand(interp, v)? {
            *v = a;
        }
    }
    Ok(())
}

/// `v` as an array when it is a list, tuple or range (else None).
pub fn list_operand(interp: &Interp, v: &Value) -> Result<Option<Value>> {
    if !matches!(v, Value::List(_) | Value::Tuple(_) | Value::Range(..)) {
        return Ok(None);
    }
    let a = crate::array::create::value_to_array(v, None, interp.float_x())?;
    Ok(Some(Value::Array(crate::backend::to_device(
        &a,
        interp.default_device(),
    )?)))
}

/// The one-op tree of a builtin call of an elementwise op.
pub fn call_tree(op: &'static OpDef, mut args: Args) -> Result<EwNode> {
    let def =
        ew_def(op).ok_or_else(|| Error::internal(format!("{} is not elementwise", op.name)))?;
    let mut ops = Vec::with_capacity(def.arity);
    for p in def.params {
        ops.push(EwNode::Leaf(operand(&args.req(p)?)?));
    }
    args.finish_with(def.params)?;
    Ok(EwNode::Op { op, args: ops })
}

/// Evaluate a whole elementwise tree. Scalar-only trees give Python-style scalars.
pub fn eval(node: EwNode, float_x: DType) -> Result<Operand> {
    if let EwNode::Leaf(o) = node {
        return Ok(o);
    }
    if super::complex_ew::has_complex(&node) {
        return super::complex_ew::eval(node, float_x);
    }
    if !has_array(&node) {
        return super::py_scalar::eval(node, float_x);
    }
    let root_name = match &node {
        EwNode::Op { op, .. } => op.name,
        EwNode::Leaf(_) => "",
    };
    let mut device: Option<Device> = None;
    check_devices(&node, &mut device, root_name)?;
    let mut p = Program::new();
    lower::lower(&node, float_x, &mut p)?;
    let weak_int = !p.any_array && p.kind == Kind::WeakInt;
    let out = run(&mut p)?;
    let got = match (weak_int, &out) {
        (true, Operand::Int(i)) => Some(*i),
        _ => None,
    };
    check_weak_ints(&node, got)?;
    Ok(out)
}

/// Python integers (`2**64`, `10**100`) compute in int64, wrapping: a
/// result stands when no integer step of the tree's scalar parts went past
/// int64, or when the whole tree is a Python integer whose wrapped result
/// `got` still equals the float64 truth (`2**63 - 1`); otherwise it is an
/// overflow error, never a silently wrong number.
fn check_weak_ints(node: &EwNode, got: Option<i64>) -> Result<()> {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2**63
    let mut largest = 0.0f64;
    let truth = scalar_truth(node, &mut largest);
    if largest < LIMIT {
        return Ok(());
    }
    if let (Some(g), Some((t, true))) = (got, truth)
        && (g as f64 - t).abs() <= 1e-9 * t.abs()
    {
        return Ok(());
    }
    Err(Error::new(
        crate::error::ErrorKind::Overflow,
        format!("an integer in this expression reaches {largest:e}, which does not fit in int64 (gcalc's integers are 64-bit: at most 9223372036854775807)"),
    )
    .with_help("write a float for a large value (2.0**64, 1e100), or keep integer results within ±9.2e18"))
}

/// The float64 value of a tree's scalar part by each op's reference
/// function, and whether it is an integer; `None` when it holds an array.
/// `largest` is the largest magnitude any integer step reaches.
fn scalar_truth(node: &EwNode, largest: &mut f64) -> Option<(f64, bool)> {
    let (v, int) = match node {
        EwNode::Leaf(Operand::Int(i)) => (*i as f64, true),
        EwNode::Leaf(Operand::Bool(b)) => (f64::from(u8::from(*b)), true),
        EwNode::Leaf(Operand::Float(f)) => (*f, false),
        EwNode::Leaf(Operand::Array(_) | Operand::Complex(..)) => return None,
        EwNode::Op { op, args } => {
            let mut vals = [0.0f64; 3];
            let mut all = true;
            let mut ints = true;
            for (slot, a) in vals.iter_mut().zip(args) {
                match scalar_truth(a, largest) {
                    Some((v, int)) => {
                        *slot = v;
                        ints &= int;
                    }
                    None => all = false,
                }
            }
            let super::OpKind::Elementwise(ew) = &op.kind else {
                return None;
            };
            if !all || args.len() > vals.len() {
                return None;
            }
            let v = (ew.reference)(&vals[..args.len()]);
            // An op of integers whose result is not whole (true division)
            // is a float: it no longer wraps.
            (v, ints && v.fract() == 0.0)
        }
    };
    if int && v.is_finite() {
        *largest = largest.max(v.abs());
    } else if int {
        *largest = f64::INFINITY;
    }
    Some((v, int))
}

/// The typed program of an op tree (what the backends run; tools and tests,
/// such as the NVRTC test that compiles every kernel the CUDA backend makes).
pub fn program(node: &EwNode, float_x: DType) -> Result<Program<'_>> {
    let mut p = Program::new();
    lower::lower(node, float_x, &mut p)?;
    Ok(p)
}

/// The GPU kernel sources of every elementwise op of the table on float32
/// and float64 arrays (binary ops also with a weak float second operand:
/// `x * 2.0`), in the variant contiguous arrays use: what a GPU's first opening compiles into the
/// kernel cache so first uses in a timed loop find them (`cuda::warm`).
pub fn warm_sources() -> Vec<String> {
    let mut out = Vec::new();
    for op in super::all() {
        let Some(def) = ew_def(op) else { continue };
        for d in [DType::Float32, DType::Float64] {
            let leaf = || {
                let a = crate::with_dtype!(d, T => Array::from_vec(vec![<T as crate::array::Element>::from_i64(1); 4], vec![4]));
                EwNode::Leaf(Operand::Array(a))
            };
            for weak in [false, true] {
                if weak && def.arity < 2 {
                    continue;
                }
                let args = (0..def.arity)
                    .map(|i| {
                        if weak && i + 1 == def.arity {
                            EwNode::Leaf(Operand::Float(2.0))
                        } else {
                            leaf()
                        }
                    })
                    .collect();
                let tree = EwNode::Op { op, args };
                if let Ok(p) = program(&tree, DType::Float32) {
                    out.extend(backend::elementwise::gpu_source(&p));
                }
            }
        }
    }
    out
}

/// Run a lowered program; a program of scalars only gives a scalar of its kind.
#[inline]
fn run(p: &mut Program<'_>) -> Result<Operand> {
    let (any_array, kind) = (p.any_array, p.kind);
    let arr = backend::elementwise::fused(p)?;
    if any_array {
        return Ok(Operand::Array(arr));
    }
    let v = arr.get_f64(0)?;
    Ok(match kind {
        Kind::WeakInt | Kind::Strong(DType::Int64) | Kind::Strong(DType::Int32) => {
            Operand::Int(arr.host_read()?.get_i64(0))
        }
        Kind::WeakBool | Kind::Strong(DType::Bool) => Operand::Bool(v != 0.0),
        _ => Operand::Float(v),
    })
}

/// Whether any leaf of the tree is an array (else it is weak scalars only).
pub(crate) fn has_array(n: &EwNode) -> bool {
    match n {
        EwNode::Leaf(o) => matches!(o, Operand::Array(_)),
        EwNode::Op { args, .. } => args.iter().any(has_array),
    }
}

/// One op on weak scalars, computed as for arrays (`py_scalar` falls back here).
pub(super) fn eval_scalar_op(
    op: &'static OpDef,
    args: Vec<Operand>,
    float_x: DType,
) -> Result<Operand> {
    let node = EwNode::Op {
        op,
        args: args.into_iter().map(EwNode::Leaf).collect(),
    };
    let mut p = Program::new();
    lower::lower(&node, float_x, &mut p)?;
    run(&mut p)
}

/// `sum(tree)` (`mean` when `mean`) over every element of an elementwise
/// tree. On a GPU a float tree is one fused launch (no temporary); otherwise
/// the tree is evaluated and reduced, exactly as `sum(x)` of its value.
pub fn reduce_tree(node: EwNode, mean: bool, float_x: DType) -> Result<Array> {
    let op = if mean { ReduceOp::Mean } else { ReduceOp::Sum };
    let mut device: Option<Device> = None;
    check_devices(&node, &mut device, op.name())?;
    let x = match node {
        EwNode::Leaf(o) => o,
        node if super::complex_ew::has_complex(&node) => super::complex_ew::eval(node, float_x)?,
        node => {
            check_weak_ints(&node, None)?;
            let mut p = Program::new();
            lower::lower(&node, float_x, &mut p)?;
            let n: usize = p.shape.iter().product();
            let div = if mean { n as f64 } else { 1.0 };
            if let Some(a) = backend::elementwise::fused_sum(&p, div)? {
                return Ok(a);
            }
            run(&mut p)?
        }
    };
    let x = match x {
        Operand::Array(a) => a,
        Operand::Int(i) => Array::scalar(i),
        Operand::Float(f) => Array::scalar(f),
        Operand::Bool(b) => Array::scalar(b),
        Operand::Complex(re, im) => Array::scalar(crate::array::Cf64::new(re, im)),
    };
    super::reduce::reduce(op, &x, None, false, float_x)
}

/// The broadcast shape of a tree's arrays (None: it has none).
pub fn tree_shape(n: &EwNode, acc: &mut Option<Vec<usize>>) -> Result<()> {
    match n {
        EwNode::Leaf(Operand::Array(a)) => {
            *acc = Some(match acc.take() {
                None => a.shape().to_vec(),
                Some(s) => layout::broadcast_shapes(&s, a.shape(), "elementwise")?,
            });
            Ok(())
        }
        EwNode::Leaf(_) => Ok(()),
        EwNode::Op { args, .. } => args.iter().try_for_each(|a| tree_shape(a, acc)),
    }
}

fn check_devices(n: &EwNode, dev: &mut Option<Device>, op: &str) -> Result<()> {
    match n {
        EwNode::Leaf(Operand::Array(a)) => {
            let d = a.device();
            match *dev {
                Some(e) if e != d => Err(Error::device_mismatch(op, e, d)),
                _ => {
                    *dev = Some(d);
                    Ok(())
                }
            }
        }
        EwNode::Leaf(_) => Ok(()),
        EwNode::Op { args, .. } => args.iter().try_for_each(|a| check_devices(a, dev, op)),
    }
}
