//! Fused elementwise evaluation: a statement's whole elementwise expression
//! tree runs as one blocked pass (CPU) or, later, one generated kernel (GPU).
//!
//! CPU: the tree is typed and flattened into a small program of steps (load a
//! leaf, cast, run an op kernel) over slots; the output is cut into blocks that
//! stay in cache, and every step runs as a tight loop over a block. Contiguous
//! leaves of the compute type are read in place, scalars are broadcast
//! constants, other leaves are gathered. Large outputs run blocks on rayon.

use super::OpDef;
use super::elementwise::{EwDef, Rule, ew_checked, ew_def, result_kinds};
use super::fuse_exec::{Exec, KernAny, LeafPlan, Scalar, Slot, SlotSrc, Step};
use crate::array::{Array, layout};
use crate::device::Device;
use crate::dtype::{DType, Kind};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

/// An operand of an elementwise expression: an array, or a weak Python-style scalar.
#[derive(Clone, Debug)]
pub enum Operand {
    Array(Array),
    Int(i64),
    Float(f64),
    Bool(bool),
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
        }
    }
    pub fn into_value(self) -> Value {
        match self {
            Operand::Array(a) => Value::Array(a),
            Operand::Int(i) => Value::Int(i),
            Operand::Float(f) => Value::Float(f),
            Operand::Bool(b) => Value::Bool(b),
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
        other => Err(Error::type_(format!(
            "expected an array or a number, got a {}",
            other.type_name()
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
pub fn call(op: &'static OpDef, interp: &mut Interp, args: Args) -> Result<Value> {
    Ok(eval(call_tree(op, args)?, interp.float_x())?.into_value())
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
    if !has_array(&node) {
        return super::py_scalar::eval(node, float_x);
    }
    let root_name = match &node {
        EwNode::Op { op, .. } => op.name,
        EwNode::Leaf(_) => "",
    };
    let mut device: Option<Device> = None;
    check_devices(&node, &mut device, root_name)?;
    match device {
        None | Some(Device::Cpu) => eval_cpu(node, float_x),
        // One generated kernel on the GPU, typed as `Builder` types the CPU pass.
        Some(Device::Gpu(_)) => crate::cuda::fuse::eval(node, float_x).map(Operand::Array),
    }
}

/// Whether any leaf of the tree is an array (else it is weak scalars only).
fn has_array(n: &EwNode) -> bool {
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
    let args = args.into_iter().map(EwNode::Leaf).collect();
    eval_cpu(EwNode::Op { op, args }, float_x)
}

/// `sum(tree)` (`mean` when `mean`) over every element of an elementwise
/// tree. On a GPU a float tree is one fused launch (no temporary); otherwise
/// the tree is evaluated and reduced, exactly as `sum(x)` of its value.
pub fn reduce_tree(node: EwNode, mean: bool, float_x: DType) -> Result<Array> {
    let name = if mean { "mean" } else { "sum" };
    let mut device: Option<Device> = None;
    check_devices(&node, &mut device, name)?;
    if let Some(Device::Gpu(_)) = device {
        let mut shape = None;
        tree_shape(&node, &mut shape)?;
        let n: usize = shape.unwrap_or_default().iter().product();
        let div = if mean { n as f64 } else { 1.0 };
        if let Some(a) = crate::cuda::fuse::eval_sum(node.clone(), float_x, div)? {
            return Ok(a);
        }
    }
    let x = match eval(node, float_x)? {
        Operand::Array(a) => a,
        Operand::Int(i) => Array::scalar(i),
        Operand::Float(f) => Array::scalar(f),
        Operand::Bool(b) => Array::scalar(b),
    };
    super::reduce::reduce(name, &x, None, false, float_x)
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
                Some(e) if e != d => Err(super::device_mismatch(op, e, d)),
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

/// The dtype a value of this kind is held in (weak scalars compute in f64/i64/bool).
pub(super) fn held(k: Kind) -> DType {
    match k {
        Kind::Strong(d) => d,
        Kind::WeakFloat => DType::Float64,
        Kind::WeakInt => DType::Int64,
        Kind::WeakBool => DType::Bool,
    }
}

/// What a built node gives its parent.
struct Built {
    kind: Kind,
    shape: Vec<usize>,
    val: Val,
}

/// An unused operand position (an op's operands sit in a `[Built; 3]`).
impl Default for Built {
    fn default() -> Built {
        Built {
            kind: Kind::WeakBool,
            shape: Vec::new(),
            val: Val::Leaf(usize::MAX),
        }
    }
}

enum Val {
    Leaf(usize),
    /// A slot holding the node's value in `otype`.
    Slot(usize, DType),
}

struct Builder {
    leaves: Vec<LeafPlan>,
    leaf_ops: Vec<Operand>,
    slots: Vec<Slot>,
    steps: Vec<Step>,
    float_x: DType,
    /// Whether any leaf is an array (else the result is a scalar).
    any_array: bool,
}

impl Builder {
    fn temp(&mut self, ctype: DType) -> usize {
        self.slots.push(Slot {
            ctype,
            src: SlotSrc::Temp,
        });
        self.slots.len() - 1
    }

    fn build(&mut self, n: EwNode) -> Result<Built> {
        match n {
            EwNode::Leaf(o) => {
                let kind = o.kind();
                let shape = match &o {
                    Operand::Array(a) => {
                        self.any_array = true;
                        a.shape().to_vec()
                    }
                    _ => Vec::new(),
                };
                self.leaf_ops.push(o);
                Ok(Built {
                    kind,
                    shape,
                    val: Val::Leaf(self.leaf_ops.len() - 1),
                })
            }
            EwNode::Op { op, args } => {
                let def = ew_checked(op, args.len())?;
                if args.len() > 3 {
                    return Err(Error::internal(format!(
                        "{}: more than 3 operands",
                        op.name
                    )));
                }
                let mut kids3: [Built; 3] = Default::default();
                let nk = args.len();
                for (k, a) in kids3.iter_mut().zip(args) {
                    *k = self.build(a)?;
                }
                let kids = &mut kids3[..nk];
                let mut kinds = [Kind::WeakBool; 3];
                for (k, kid) in kinds.iter_mut().zip(kids.iter()) {
                    *k = kid.kind;
                }
                let (ckind, okind) =
                    result_kinds(op.name, def, &kinds[..kids.len()], self.float_x)?;
                let (ctype, kern) = pick_kernel(def, held(ckind).compute()).ok_or_else(|| {
                    Error::internal(format!("{}: no CPU kernel for {}", op.name, held(ckind)))
                })?;
                let shape = self.out_shape(op.name, kids)?;
                let mut arg_slots = [0usize; 3];
                for (i, kid) in kids.iter().enumerate() {
                    let via = if def.rule == Rule::Where && i == 0 {
                        DType::Bool
                    } else {
                        held(kid.kind)
                    };
                    arg_slots[i] = self.arg_slot(kid, ctype, via)?;
                }
                let otype = match kern.is_pred() {
                    true => DType::Bool,
                    false => ctype,
                };
                let out = self.temp(otype);
                self.steps.push(Step::Kern {
                    op: op.name,
                    kern,
                    args: arg_slots,
                    nargs: kids.len(),
                    out,
                });
                Ok(Built {
                    kind: okind,
                    shape,
                    val: Val::Slot(out, otype),
                })
            }
        }
    }

    /// The broadcast shape of an op's operands. When every operand is a scalar
    /// or of one same shape (the common case), that shape is moved out of the
    /// operand (no allocation); otherwise it is broadcast step by step.
    fn out_shape(&self, op: &str, kids: &mut [Built]) -> Result<Vec<usize>> {
        let mut big: Option<usize> = None;
        let mut same = true;
        for (i, k) in kids.iter().enumerate() {
            if k.shape.is_empty() {
                continue;
            }
            match big {
                None => big = Some(i),
                Some(b) => same &= kids[b].shape == k.shape,
            }
        }
        match big {
            None => return Ok(Vec::new()),
            Some(b) if same => return Ok(std::mem::take(&mut kids[b].shape)),
            Some(_) => {}
        }
        let mut shape: Vec<usize> = Vec::new();
        for (i, kid) in kids.iter().enumerate() {
            shape = layout::broadcast_shapes(&shape, &kid.shape, op).map_err(|e| {
                if i == 1 || kids.len() == 1 {
                    e
                } else {
                    relabel_shape_error(e, op, kids, i)
                }
            })?;
        }
        Ok(shape)
    }

    /// The slot holding `kid` in `ctype`, rounded through `via` where needed.
    fn arg_slot(&mut self, kid: &Built, ctype: DType, via: DType) -> Result<usize> {
        match kid.val {
            Val::Leaf(l) => {
                let o = &self.leaf_ops[l];
                let scalar = match o {
                    Operand::Int(i) => Some(Scalar::I(*i)),
                    Operand::Float(f) => Some(Scalar::F(*f)),
                    Operand::Bool(b) => Some(Scalar::B(*b)),
                    // One element, or one element broadcast (all strides 0: a
                    // gradient's `g.broadcast_to(x.shape)`): a constant.
                    Operand::Array(a)
                        if a.size() == 1
                            || (a.size() > 0 && a.strides().iter().all(|&s| s == 0)) =>
                    {
                        Some(Scalar::read(a)?)
                    }
                    Operand::Array(_) => None,
                };
                if let Some(s) = scalar {
                    self.slots.push(Slot {
                        ctype,
                        src: SlotSrc::Const(s.round(via)),
                    });
                    return Ok(self.slots.len() - 1);
                }
                // Each leaf is read by one operand: move its array into the plan.
                let Operand::Array(a) =
                    std::mem::replace(&mut self.leaf_ops[l], Operand::Bool(false))
                else {
                    return Err(Error::internal("leaf is not an array"));
                };
                let (dtype, lp) = (a.dtype(), self.leaves.len());
                self.leaves.push(LeafPlan::new(a));
                if dtype == ctype && via == ctype {
                    self.slots.push(Slot {
                        ctype,
                        src: SlotSrc::Direct(lp),
                    });
                    return Ok(self.slots.len() - 1);
                }
                let via = if via == dtype { None } else { Some(via) };
                let out = self.temp(ctype);
                self.steps.push(Step::Load { leaf: lp, via, out });
                Ok(out)
            }
            Val::Slot(s, otype) => {
                if otype == ctype && via == otype {
                    return Ok(s);
                }
                let out = self.temp(ctype);
                self.steps.push(Step::Cast { from: s, via, out });
                Ok(out)
            }
        }
    }
}

/// A broadcast error between the accumulated shape and a third operand names the op's shapes.
fn relabel_shape_error(e: Error, op: &str, kids: &[Built], _i: usize) -> Error {
    let shapes: Vec<String> = kids.iter().map(|k| layout::fmt_shape(&k.shape)).collect();
    Error::shape(
        op,
        format!(
            "operands could not be broadcast together with shapes {}",
            shapes.join(", ")
        ),
    )
    .with_help(e.help.unwrap_or_default())
}

pub(super) fn pick_kernel(def: &EwDef, c: DType) -> Option<(DType, KernAny)> {
    let get = |c: DType| match c {
        DType::Float32 => def.f32.map(KernAny::F32),
        DType::Float64 => def.f64.map(KernAny::F64),
        DType::Int64 => def.i64.map(KernAny::I64),
        DType::Bool => def.bool.map(KernAny::B),
        _ => None,
    };
    get(c).map(|k| (c, k)).or_else(|| {
        if c == DType::Bool {
            get(DType::Int64).map(|k| (DType::Int64, k))
        } else {
            None
        }
    })
}

/// The number of op nodes and of leaves of a tree.
fn count_nodes(n: &EwNode) -> (usize, usize) {
    match n {
        EwNode::Leaf(_) => (0, 1),
        EwNode::Op { args, .. } => args.iter().fold((1, 0), |(o, l), a| {
            let (ao, al) = count_nodes(a);
            (o + ao, l + al)
        }),
    }
}

fn eval_cpu(node: EwNode, float_x: DType) -> Result<Operand> {
    if let EwNode::Op { op, args } = &node
        && let Some(o) = super::fuse_exec::simple::run(op, args, float_x)?
    {
        return Ok(o);
    }
    // Sized up front: one allocation per program vector instead of regrowth.
    let (ops, leaves) = count_nodes(&node);
    let mut b = Builder {
        leaves: Vec::with_capacity(leaves),
        leaf_ops: Vec::with_capacity(leaves),
        slots: Vec::with_capacity(2 * (ops + leaves)),
        steps: Vec::with_capacity(2 * ops + leaves),
        float_x,
        any_array: false,
    };
    let root = b.build(node)?;
    let out_dtype = held(root.kind);
    let Val::Slot(rslot, otype) = root.val else {
        return Err(Error::internal("fused root is a leaf"));
    };
    let root_slot = if otype == out_dtype {
        b.slots[rslot].src = SlotSrc::Out;
        None
    } else {
        Some(rslot)
    };
    let any_array = b.any_array;
    let shape = if any_array { root.shape } else { Vec::new() };
    let exec = Exec::new(b.leaves, b.slots, b.steps, root_slot, shape, out_dtype)?;
    let arr = exec.run()?;
    if any_array {
        return Ok(Operand::Array(arr));
    }
    let v = arr.get_f64(0)?;
    Ok(match root.kind {
        Kind::WeakInt | Kind::Strong(DType::Int64) | Kind::Strong(DType::Int32) => {
            Operand::Int(arr.host_read()?.get_i64(0))
        }
        Kind::WeakBool | Kind::Strong(DType::Bool) => Operand::Bool(v != 0.0),
        _ => Operand::Float(v),
    })
}
