//! Calls (user functions, builtins, methods, objects), name lookup,
//! attributes, and iteration for `for` loops.

use super::{Args, Flow, Interp};
use crate::error::{Error, Result, did_you_mean};
use crate::fxhash::FxHashMap;
use crate::opid::ReduceOp;
use crate::ops::{self, OpDef, OpKind};
use crate::value::{Function, Value};
use gcalc_lang::Span;
use gcalc_lang::ast::*;
use std::sync::Arc;

/// Deepest call nesting before a clear error (instead of a stack overflow).
const MAX_CALL_DEPTH: usize = 200;

/// Names that are values without being variables: dtypes, `floatX` and
/// the constants (`pi e inf nan newaxis`).
pub(crate) fn special_name(interp: &Interp, n: &str) -> Option<Value> {
    if n == "floatX" {
        return Some(Value::DType(interp.float_x()));
    }
    if n == "linalg" {
        return Some(crate::ops::linalg_ns::value());
    }
    if let Some(c) = crate::builtins::constants::lookup(n) {
        return Some((c.value)());
    }
    crate::dtype::DType::from_name(n)
        .map(Value::DType)
        .or_else(|| crate::builtins::np_types::lookup(n))
}

impl Interp {
    /// Whether `n` is a name the session can read now: a variable, a
    /// builtin, a constant, a dtype or `floatX` (what `resolve` asks before a run).
    /// IPython's `_`, `__`, `_3` count as known: when one holds no value
    /// yet, reading it says so at run time.
    pub(crate) fn knows(&self, n: &str) -> bool {
        self.lookup_var(n).is_some()
            || special_name(self, n).is_some()
            || ops::lookup(n).is_some()
            || super::results::Results::is_result_name(n)
            || crate::builtins::np_types::missing_dtype(n).is_some()
    }
}

impl Interp {
    pub(crate) fn lookup_var(&self, n: &str) -> Option<&Value> {
        if let Some(w) = &self.watch {
            w.read(n);
        }
        if let Some(f) = self.frames.last()
            && let Some(v) = f.get(n)
        {
            return Some(v);
        }
        self.globals.get(n)
    }

    pub fn lookup(&self, n: &str, span: Span) -> Result<Value> {
        if let Some(v) = self.lookup_var(n) {
            return Ok(v.clone());
        }
        if let Some(v) = special_name(self, n) {
            return Ok(v);
        }
        if let Some(d) = ops::lookup(n) {
            return Ok(Value::Builtin(d));
        }
        if let Some(v) = self.results.get(n) {
            return Ok(v);
        }
        if super::results::Results::is_result_name(n) {
            return Err(Error::name(format!("`{n}` holds no value yet")).at(span).with_help(
                "`_` is the last value the prompt showed, `__` and `___` the ones before, `_3` the value of input 3",
            ));
        }
        if let Some(e) = crate::builtins::np_types::missing_dtype(n) {
            return Err(e.at(span));
        }
        let mut e = Error::name(format!("unknown name `{n}`")).at(span);
        e.help = self.unknown_name_help(n, None, &[]);
        Err(e)
    }

    /// The hint for an unknown name (NumPy's names, missing functions,
    /// module prefixes, then spelling among the names in scope).
    /// `more`: names the program binds that are not bound yet.
    pub(crate) fn unknown_name_help(
        &self,
        n: &str,
        dotted: Option<&str>,
        more: &[String],
    ) -> Option<String> {
        let mut names: Vec<&str> = self.globals.keys().map(|s| s.as_str()).collect();
        names.extend(more.iter().map(|s| s.as_str()));
        if let Some(f) = self.frames.last() {
            names.extend(f.keys().map(|s| s.as_str()));
        }
        let builtins = ops::all();
        names.extend(builtins.iter().map(|d| d.name));
        names.extend(crate::builtins::constants::CONSTANTS.iter().map(|c| c.name));
        crate::hints::unknown_name(n, dotted, &names)
    }

    pub(crate) fn eval_call(&mut self, func: &Expr, args: &[Arg], span: Span) -> Result<Value> {
        // Method calls: `x.sum(axis=0)`.
        let callee = match &func.kind {
            ExprKind::Attr { base, attr } => {
                let recv = self.eval(base)?;
                let is_array = matches!(recv, Value::Array(_));
                let v = self.get_attr(recv, attr)?;
                // `x.size(1)`, `x.shape()`, `x.dtype()`: PyTorch's methods
                // are NumPy's attributes (a dtype would be called as its
                // scalar constructor and give 0).
                let callable = matches!(
                    v,
                    Value::Builtin(_) | Value::Method(..) | Value::Func(_) | Value::Object(_)
                );
                if is_array && (!callable || matches!(v, Value::DType(_))) {
                    return Err(attr_called(attr.name.as_str()).at(span));
                }
                v
            }
            _ => self.eval(func)?,
        };
        self.call_with_args(callee, args, span)
    }

    /// Call `callee` with the arguments of a call expression, evaluated in order.
    pub(crate) fn call_with_args(
        &mut self,
        callee: Value,
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        // `sum(<elementwise expr>)` / `mean(...)`: one fused reduction.
        if let (Value::Builtin(def), [a]) = (&callee, args)
            && a.name.is_none()
            && !matches!(a.value.kind, ExprKind::Starred { .. })
            && matches!(def.reduce_op(), Some(ReduceOp::Sum | ReduceOp::Mean))
        {
            return self.eval_whole_reduction(def, &a.value, span);
        }
        let mut pos = Vec::with_capacity(args.len());
        let mut pos_spans = super::args::Spans::new();
        let mut kw: Vec<(String, Value)> = Vec::new();
        for a in args {
            if let ExprKind::Starred { expr, double } = &a.value.kind {
                let v = self.eval(expr)?;
                if *double {
                    self.unpack_keywords(v, &mut kw).map_err(|e| e.at(a.span))?;
                } else {
                    for item in self.collect_items(v).map_err(|e| e.at(a.span))? {
                        pos.push(item);
                        pos_spans.push(a.span);
                    }
                }
                continue;
            }
            let v = self.eval(&a.value)?;
            match &a.name {
                Some(n) => {
                    if kw.iter().any(|(k, _)| k == &n.name) {
                        return Err(Error::value(format!(
                            "keyword argument `{}` given twice",
                            n.name
                        ))
                        .at(a.span));
                    }
                    kw.push((n.name.clone(), v));
                }
                None => {
                    pos.push(v);
                    pos_spans.push(a.span);
                }
            }
        }
        self.call_value_spanned(callee, pos, pos_spans, kw, span)
    }

    /// The value given for each parameter of `f` (`None`: use its default):
    /// positional arguments fill the parameters before `*args` in order, the
    /// rest go to `*args` (a tuple); keywords fill parameters by name, unknown
    /// ones go to `**kwargs` (a dict), as Python binds them.
    fn bind_arguments(
        f: &Function,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
    ) -> Result<Vec<Option<Value>>> {
        let params = &f.def.params;
        let star = params.iter().position(|p| p.kind == ParamKind::Star);
        let kwstar = params.iter().position(|p| p.kind == ParamKind::DoubleStar);
        let slots = star.unwrap_or(kwstar.unwrap_or(params.len()));
        let mut given: Vec<Option<Value>> = vec![None; params.len()];
        let mut pos = pos.into_iter();
        for (k, v) in pos.by_ref().take(slots).enumerate() {
            given[k] = Some(v);
        }
        let extra: Vec<Value> = pos.collect();
        match star {
            Some(s) => given[s] = Some(Value::tuple(extra)),
            None if !extra.is_empty() => {
                return Err(Error::value(format!(
                    "{}() takes {} argument{} but {} were given",
                    f.name,
                    slots,
                    if slots == 1 { "" } else { "s" },
                    slots + extra.len()
                )));
            }
            None => {}
        }
        let extra_kw = kwstar.map(|_| crate::containers::Dict::new());
        for (k, v) in kw {
            let plain = params
                .iter()
                .position(|p| p.name.name == k && p.kind == ParamKind::Plain);
            match plain {
                Some(i) if given[i].is_some() => {
                    return Err(Error::value(format!(
                        "{}() got `{k}` both by position and by keyword",
                        f.name
                    )));
                }
                Some(i) => given[i] = Some(v),
                None if extra_kw.is_some() => {
                    if let Some(d) = &extra_kw {
                        d.insert(Value::str(k), v)?;
                    }
                }
                None => {
                    let mut e = Error::value(format!(
                        "{}() got an unexpected keyword argument `{k}`",
                        f.name
                    ));
                    e.help = did_you_mean(&k, params.iter().map(|p| p.name.name.as_str()));
                    return Err(e);
                }
            }
        }
        if let (Some(s), Some(d)) = (kwstar, extra_kw) {
            given[s] = Some(Value::Dict(d));
        }
        Ok(given)
    }

    /// `f(**d)`: the entries of a dict with string keys as keyword arguments.
    fn unpack_keywords(&self, v: Value, kw: &mut Vec<(String, Value)>) -> Result<()> {
        let Value::Dict(d) = v else {
            return Err(Error::type_(format!(
                "`**` needs a dict of keyword arguments, not {}",
                v.a_type_name()
            )));
        };
        for (k, v) in d.snapshot().values() {
            let Value::Str(name) = k else {
                return Err(Error::type_(format!(
                    "keywords must be strings, not {}",
                    k.a_type_name()
                ))
                .with_help(
                    "`f(**d)` passes d's entries as `key=value`: d's keys name the parameters",
                ));
            };
            if kw.iter().any(|(n, _)| n.as_str() == &**name) {
                return Err(Error::value(format!(
                    "keyword argument `{name}` given twice"
                )));
            }
            kw.push((name.to_string(), v.clone()));
        }
        Ok(())
    }

    /// `sum(e)` / `mean(e)` of one positional argument: an elementwise `e` is
    /// reduced without materializing it (`Interp::reduce_tree`: one launch on
    /// a GPU); anything else is an ordinary call with `e`'s value.
    fn eval_whole_reduction(
        &mut self,
        def: &'static crate::ops::OpDef,
        arg: &Expr,
        span: Span,
    ) -> Result<Value> {
        match self.ew_node(arg)? {
            Ok(node @ crate::ops::fuse::EwNode::Op { .. }) => {
                let mean = def.reduce_op() == Some(ReduceOp::Mean);
                self.reduce_tree(node, mean).map(Value::Array)
            }
            other => {
                let v = self.node_value(other)?;
                let spans: super::args::Spans = std::iter::once(arg.span).collect();
                self.call_value_spanned(Value::Builtin(def), vec![v], spans, vec![], span)
            }
        }
    }

    /// Call any callable value.
    pub fn call_value(
        &mut self,
        callee: Value,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        span: Span,
    ) -> Result<Value> {
        let spans = smallvec::smallvec![span; pos.len()];
        self.call_value_spanned(callee, pos, spans, kw, span)
    }

    fn call_value_spanned(
        &mut self,
        callee: Value,
        mut pos: Vec<Value>,
        mut pos_spans: super::args::Spans,
        kw: Vec<(String, Value)>,
        span: Span,
    ) -> Result<Value> {
        match callee {
            Value::Builtin(def) => {
                self.call_def(def, Args::with_spans(def.name, pos, kw, span, pos_spans))
            }
            Value::Method(recv, def) => {
                pos.insert(0, *recv);
                pos_spans.insert(0, span);
                self.call_def(def, Args::with_spans(def.name, pos, kw, span, pos_spans))
            }
            Value::Func(f) => self.call_function(&f, pos, kw, span),
            Value::DType(d) => crate::builtins::python::call_dtype(
                self,
                d,
                Args::with_spans(d.name(), pos, kw, span, pos_spans),
            )
            .map_err(|e| e.at(span)),
            Value::Object(o) => {
                if let Some(w) = &self.watch
                    && !o.replayable_call()
                {
                    w.taint("the body calls an object that keeps state (a set, a generator, a figure...)");
                }
                o.call(self, Args::with_spans("object", pos, kw, span, pos_spans))
            }
            other => Err(Error::type_(format!("{} is not callable", other.a_type_name())).at(span)),
        }
    }

    pub(crate) fn call_builtin(
        &mut self,
        def: &'static OpDef,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        span: Span,
    ) -> Result<Value> {
        self.call_def(def, Args::new(def.name, pos, kw, span))
    }

    fn call_def(&mut self, def: &'static OpDef, args: Args) -> Result<Value> {
        if let Some(w) = &self.watch
            && ops::has_effects(def)
        {
            w.taint("the body calls a builtin with effects (output, files, devices, random draws)");
        }
        if let Some(k) = args.kw.iter().position(|(k, _)| k == "out")
            && !def.sig.contains("out=")
        {
            return self.call_with_out(def, args, k);
        }
        if crate::profile::HOOKS && self.flags.profile {
            return self.profiled_call(def, args);
        }
        self.call_def_inner(def, args)
    }

    /// NumPy's `out=` on any builtin (`add(a, b, out=c)`, `exp(x, out=x)`,
    /// `sum(m, axis=0, out=r)`): the call without it, then its result
    /// written into `out` in place (the same shape; a dtype out holds by a
    /// same-kind cast, NumPy's default casting), and `out` itself returned.
    fn call_with_out(&mut self, def: &'static OpDef, mut args: Args, k: usize) -> Result<Value> {
        let name = def.name;
        let span = args.span;
        let (_, out) = args.kw.remove(k);
        let out = match out {
            Value::Tuple(t) if t.len() == 1 => t[0].clone(),
            v => v,
        };
        let Value::Array(dst) = out else {
            return Err(Error::type_(format!(
                "{name}: out must be an array, not {}",
                out.a_type_name()
            ))
            .at(span)
            .with_help("pass an existing array of the result's shape: out=y"));
        };
        let r = self.call_def(def, args)?;
        let r = match r {
            Value::Array(a) => a,
            v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
                crate::array::create::value_to_array(&v, Some(dst.dtype()), self.float_x())?
            }
            v => {
                return Err(Error::type_(format!(
                    "{name}: out= needs an array result, got {}",
                    v.a_type_name()
                ))
                .at(span));
            }
        };
        if r.shape() != dst.shape() {
            return Err(Error::shape(
                name,
                format!(
                    "{name}: the result has shape {}, out has shape {}",
                    crate::array::layout::fmt_shape(r.shape()),
                    crate::array::layout::fmt_shape(dst.shape())
                ),
            )
            .at(span)
            .with_help("out must have the result's shape exactly"));
        }
        if r.dtype() != dst.dtype() && !crate::array::can_cast_same_kind(r.dtype(), dst.dtype()) {
            return Err(Error::dtype(
                name,
                format!(
                    "{name}: cannot cast the {} result into the {} out array under casting 'same_kind'",
                    r.dtype(),
                    dst.dtype()
                ),
            )
            .at(span)
            .with_help("give out a dtype that holds the result, or assign: y[...] = f(...).astype(...)"));
        }
        if r.device() != dst.device() {
            return Err(Error::device_mismatch(name, r.device(), dst.device()).at(span));
        }
        self.aug_in_place(&dst, &r).map_err(|e| e.at(span))?;
        Ok(Value::Array(self.refresh(&dst)?))
    }

    /// A builtin call, recorded on the autodiff tape when one is active.
    #[inline(always)]
    pub(crate) fn call_def_inner(&mut self, def: &'static OpDef, args: Args) -> Result<Value> {
        if self.tape.is_some() {
            let span = args.span;
            return self.call_def_taped(def, args).map_err(|e| e.at(span));
        }
        self.call_def_raw(def, args)
    }

    /// A builtin call as it is, without recording for autodiff.
    pub(crate) fn call_def_raw(&mut self, def: &'static OpDef, args: Args) -> Result<Value> {
        let span = args.span;
        crate::ops::complex::check_call(def, &args).map_err(|e| e.at(span))?;
        match &def.kind {
            OpKind::Func(f) => {
                let mut args = args;
                // NumPy's scalar draws (`binomial(10, 0.5)`): one Python number.
                if crate::ops::random_scalar::scalar_form(def, &mut args) {
                    return f(self, args)
                        .and_then(crate::ops::random_scalar::to_number)
                        .map_err(|e| e.at(span));
                }
                f(self, args).map_err(|e| e.at(span))
            }
            OpKind::Elementwise(_) => {
                let n = args.pos.len() + args.kw.len();
                match crate::ops::elementwise::alternate(def, n) {
                    Some(f) => f(self, args),
                    None => crate::ops::fuse::call(def, self, args),
                }
                .map_err(|e| e.at(span))
            }
            OpKind::Reduce(r) => crate::ops::reduce::call(*r, self, args).map_err(|e| e.at(span)),
        }
    }

    /// Call a user function: a new scope with its parameters and captured variables.
    pub fn call_function(
        &mut self,
        f: &Arc<Function>,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        span: Span,
    ) -> Result<Value> {
        if self.frames.len() >= MAX_CALL_DEPTH {
            return Err(Error::value(format!(
                "calls nested more than {MAX_CALL_DEPTH} deep (runaway recursion?)"
            ))
            .at(span));
        }
        let params = &f.def.params;
        let given = Self::bind_arguments(f, pos, kw).map_err(|e| e.at(span))?;
        // Room for the parameters and a few locals: one allocation.
        let room = f.captured.len() + params.len() + 4;
        let mut frame = FxHashMap::with_capacity_and_hasher(room, Default::default());
        frame.extend(f.captured.iter().cloned());
        if given.iter().all(Option::is_some) {
            // Every parameter given: no default to evaluate, bind them directly.
            for (p, v) in params.iter().zip(given.into_iter().flatten()) {
                frame.insert(p.name.name.clone(), v);
            }
            return self.run_function(f, frame, span);
        }
        // Defaults are evaluated at call time, in the function's scope so far.
        self.frames.push(frame.clone());
        let mut bound = Ok(());
        for (p, g) in params.iter().zip(given) {
            let v = match g {
                Some(v) => v,
                None => match &p.default {
                    Some(d) => match self.eval(d) {
                        Ok(v) => v,
                        Err(e) => {
                            bound = Err(e);
                            break;
                        }
                    },
                    None => {
                        bound = Err(Error::value(format!(
                            "{}() missing required argument `{}`",
                            f.name, p.name.name
                        ))
                        .at(span));
                        break;
                    }
                },
            };
            frame.insert(p.name.name.clone(), v.clone());
            if let Some(top) = self.frames.last_mut() {
                top.insert(p.name.name.clone(), v);
            }
        }
        self.frames.pop();
        bound?;
        self.run_function(f, frame, span)
    }

    /// Run a user function's body in its new scope `frame`.
    fn run_function(
        &mut self,
        f: &Arc<Function>,
        frame: FxHashMap<String, Value>,
        span: Span,
    ) -> Result<Value> {
        self.frames.push(frame);
        let prof = crate::profile::HOOKS && self.flags.profile && self.profile_enter_fn(&f.source);
        let saved_loop = std::mem::replace(&mut self.loop_depth, 0);
        // The caller's statement again after the call (the profiler's site of what follows).
        let saved_stmt = self.current_stmt;
        let result = match &f.def.body {
            FnBodyKind::Expr(e) => self.eval(e),
            FnBodyKind::Block(b) => match self.exec_block(&b.stmts) {
                Ok(Flow::Normal(v)) => Ok(v.unwrap_or(Value::None)),
                Ok(Flow::Return(v)) => Ok(v),
                Ok(_) => Ok(Value::None),
                Err(e) => Err(e),
            },
        };
        self.loop_depth = saved_loop;
        self.current_stmt = saved_stmt;
        if prof {
            self.profile_leave_fn();
        }
        self.frames.pop();
        self.pending_return = None;
        result.map_err(|mut e| {
            // A traceback line for each call the error passed through.
            if e.kind != crate::ErrorKind::Interrupted {
                let (line, _) = gcalc_lang::span::line_col(&self.source.text, span.start as usize);
                e.notes.push(format!(
                    "in {}(), called at {}:{line}",
                    f.name, self.source.name
                ));
                if !Arc::ptr_eq(&f.source, &self.source) {
                    // The span belongs to another source: point at the call instead.
                    let (fl, _) = gcalc_lang::span::line_col(
                        &f.source.text,
                        e.span.map_or(0, |s| s.start as usize),
                    );
                    let text = gcalc_lang::span::line_text(&f.source.text, fl)
                        .trim()
                        .to_string();
                    e.notes
                        .push(format!("the error is at {}:{fl}: {text}", f.source.name));
                    e.span = Some(span);
                }
            }
            e
        })
    }

    /// `x.attr`: array attributes, methods from the op table, object attributes.
    pub(crate) fn get_attr(&mut self, recv: Value, attr: &Ident) -> Result<Value> {
        let name = attr.name.as_str();
        if let Value::Array(a) = &recv {
            match name {
                "shape" => {
                    return Ok(Value::tuple(
                        a.shape().iter().map(|&d| Value::Int(d as i64)).collect(),
                    ));
                }
                "size" => return Ok(Value::Int(a.size() as i64)),
                "ndim" => return Ok(Value::Int(a.ndim() as i64)),
                "dtype" => return Ok(Value::DType(a.dtype())),
                "device" => return Ok(Value::Device(a.device())),
                "nbytes" => return Ok(Value::Int(a.nbytes() as i64)),
                "itemsize" => return Ok(Value::Int(a.dtype().size() as i64)),
                // NumPy's byte steps per axis (of this view's layout).
                "strides" => {
                    let k = a.dtype().size() as i64;
                    return Ok(Value::tuple(
                        a.strides()
                            .iter()
                            .map(|&s| Value::Int(s as i64 * k))
                            .collect(),
                    ));
                }
                "T" => {
                    let def = super::eval::op_named("transpose")?;
                    return self.call_builtin(def, vec![recv.clone()], vec![], attr.span);
                }
                // NumPy's `x.flat`: the elements in C order as a 1-d view, so
                // `x.flat[k]` reads and `x.flat[k] = v` writes x. A view needs
                // a contiguous x: otherwise an error, never a silent copy.
                "flat" => {
                    if !a.is_contiguous() {
                        return Err(Error::value(
                            "x.flat of an array that is not contiguous (a transposed or strided view)",
                        )
                        .at(attr.span)
                        .with_help("read with x.ravel() (a copy), or work on x.copy().flat"));
                    }
                    // Through the table's reshape, so `grad` follows it.
                    let def = super::eval::op_named("reshape")?;
                    return self.call_builtin(
                        def,
                        vec![recv.clone(), Value::Int(-1)],
                        vec![],
                        attr.span,
                    );
                }
                _ => {}
            }
            let a = a.clone();
            if let Some(r) = crate::builtins::torch_methods::attr(self, &a, name, attr.span) {
                return r;
            }
        }
        // NumPy 2's result tuples: `eigh(a).eigenvalues`, `svd(a).S`.
        if let Value::Tuple(t) = &recv
            && let Some(v) = t.by_name(name)
        {
            return Ok(v.clone());
        }
        if let Value::Object(o) = &recv
            && let Some(v) = o.attr(name)
        {
            return Ok(v);
        }
        // NumPy's `x.dtype.name`, `.itemsize`, `.kind`.
        if let Value::DType(d) = &recv {
            match name {
                "name" => return Ok(Value::str(d.name())),
                "itemsize" => return Ok(Value::Int(d.size() as i64)),
                "kind" => {
                    let kind = if d.is_float() {
                        "f"
                    } else if d.is_int() {
                        "i"
                    } else if d.is_bool() {
                        "b"
                    } else {
                        "c"
                    };
                    return Ok(Value::str(kind));
                }
                _ => {}
            }
        }
        // `fft.rfft(x)`: NumPy's np.fft module spelled through the builtin.
        if let Value::Builtin(d) = &recv
            && let Some(v) = crate::ops::fft::namespace_attr(d, name)
        {
            return Ok(v);
        }
        // `random.normal(...)`, `random.default_rng(1)`: NumPy's np.random after `from numpy import random`.
        if let Value::Builtin(d) = &recv
            && let Some(v) = crate::ops::generator::namespace_attr(d, name)
        {
            return Ok(v);
        }
        // `add.reduce(x)`, `maximum.accumulate(x)`: NumPy's ufunc methods.
        if let Value::Builtin(d) = &recv
            && let Some(v) = crate::ops::ufunc_methods::namespace_attr(d, name)
        {
            return Ok(v);
        }
        // `z.real`, `z.imag`: NumPy's attributes (arrays and Python complex numbers).
        if matches!(
            recv,
            Value::Array(_) | Value::Complex(..) | Value::Float(_) | Value::Int(_)
        ) && let Some(c) = crate::ops::complex::attribute(name)
        {
            return self.call_builtin(c, vec![recv.clone()], vec![], attr.span);
        }
        if let Some(def) = crate::containers::methods::method(&recv, name) {
            return Ok(Value::Method(Box::new(recv), def));
        }
        if matches!(recv, Value::List(_) | Value::Dict(_) | Value::Str(_)) {
            return Err(self.no_attr(&recv, attr));
        }
        if let Some(def) = ops::lookup(name).filter(|d| d.method) {
            return Ok(Value::Method(Box::new(recv), def));
        }
        if let Value::Array(_) = &recv
            && let Some((_, help)) = NOT_ARRAY_METHODS.iter().find(|(n, _)| *n == name)
        {
            return Err(Error::type_(format!("an array has no method `{name}`"))
                .at(attr.span)
                .with_help(*help));
        }
        // Elementwise functions are methods of arrays: NumPy's `x.clip(0, 1)`,
        // `x.round()`, PyTorch's `x.exp()`, `x.abs()`.
        if let Value::Array(_) = &recv
            && let Some(def) =
                ops::lookup(name).filter(|d| matches!(d.kind, OpKind::Elementwise(_)))
        {
            return Ok(Value::Method(Box::new(recv), def));
        }
        Err(self.no_attr(&recv, attr))
    }

    fn no_attr(&self, recv: &Value, attr: &Ident) -> Error {
        let name = attr.name.as_str();
        let mut e =
            Error::type_(format!("{} has no attribute `{name}`", recv.a_type_name())).at(attr.span);
        let names = self.attr_names(recv);
        let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        e.help = crate::hints::unknown_attr(name, &names);
        if let Value::Builtin(def) = recv
            && let Some(h) = crate::hints::module_attr(def.name, name)
        {
            e.help = Some(h);
        }
        if let Value::Tuple(t) = recv
            && let Some(n) = t.names()
            && e.help.is_none()
        {
            e.help = Some(format!("this result's items are named {}", n.join(", ")));
        }
        e
    }

    /// Attribute and method names of a value (errors and completion).
    pub fn attr_names(&self, v: &Value) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if let Value::Array(_) = v {
            out.extend(
                crate::complete::ARRAY_PROPERTIES
                    .iter()
                    .map(|s| s.to_string()),
            );
        }
        if let Value::Object(o) = v {
            out.extend(o.attr_names());
        }
        if let Value::DType(_) = v {
            out.extend(["name", "itemsize", "kind"].map(String::from));
        }
        if let Value::Tuple(t) = v {
            out.extend(t.names().unwrap_or(&[]).iter().map(|s| s.to_string()));
        }
        if let Value::Builtin(d) = v {
            if crate::ops::fft::namespace_attr(d, "fft").is_some() {
                out.extend(crate::ops::fft::namespace_names());
            }
            if crate::ops::generator::namespace_attr(d, "default_rng").is_some() {
                out.extend(crate::ops::generator::namespace_names());
            }
            out.extend(crate::ops::ufunc_methods::names(d));
        }
        out.extend(
            crate::containers::methods::method_names(v)
                .into_iter()
                .map(String::from),
        );
        if matches!(
            v,
            Value::Array(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_)
        ) {
            out.extend(
                ops::all()
                    .into_iter()
                    .filter(|d| d.method)
                    .map(|d| d.name.to_string()),
            );
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every item a `for` loop over `v` would see, collected.
    pub(crate) fn collect_items(&mut self, v: Value) -> Result<Vec<Value>> {
        if let Value::List(l) = &v {
            return Ok(l.snapshot().to_vec());
        }
        let mut it = self.iterate(v)?;
        let mut out = Vec::with_capacity(it.len().unwrap_or(0).min(1 << 20) as usize);
        while let Some(x) = it.next(self)? {
            self.check_interrupt()?;
            out.push(x);
        }
        Ok(out)
    }

    /// Turn a value into something a `for` loop can walk.
    pub(crate) fn iterate(&mut self, v: Value) -> Result<Iter> {
        Ok(match v {
            Value::Range(a, b, s) => Iter::Range {
                cur: a,
                stop: b,
                step: s,
            },
            Value::Tuple(t) => Iter::Items { items: t, i: 0 },
            // A list is walked live, as Python does: items appended in the loop are visited.
            Value::List(list) => Iter::List { list, i: 0 },
            // A dict gives its keys, as they are when the loop starts.
            Value::Dict(d) => Iter::Items {
                items: Arc::new(d.keys().into()),
                i: 0,
            },
            Value::Array(a) => {
                if a.ndim() == 0 {
                    return Err(Error::type_("a 0-d array cannot be iterated")
                        .with_help("use item() to get the scalar"));
                }
                Iter::Rows { a, i: 0 }
            }
            Value::Str(s) => Iter::Items {
                items: Arc::new(s.chars().map(|c| Value::str(c.to_string())).collect()),
                i: 0,
            },
            Value::Object(o) if o.as_any().is::<crate::builtins::pyobjects::PyIter>() => {
                Iter::Shared(o)
            }
            // A set is walked as it is when the loop starts.
            Value::Object(o) if o.as_any().is::<crate::containers::set::PySet>() => Iter::Items {
                items: Arc::new(
                    o.as_any()
                        .downcast_ref::<crate::containers::set::PySet>()
                        .map(|s| s.ordered())
                        .unwrap_or_default()
                        .into(),
                ),
                i: 0,
            },
            Value::Object(o) => match o
                .as_any()
                .downcast_ref::<crate::builtins::lang::ProgressIter>()
            {
                Some(p) => {
                    let inner = self.iterate(p.inner.clone())?;
                    // The total is counted before the first item is taken.
                    let state = p.start(inner.len());
                    Iter::Progress {
                        inner: Box::new(inner),
                        state,
                    }
                }
                None => {
                    return Err(Error::type_(format!(
                        "{} cannot be iterated",
                        crate::error::with_article(o.type_name())
                    )));
                }
            },
            other => {
                return Err(
                    Error::type_(format!("{} cannot be iterated", other.a_type_name()))
                        .with_help("loop over range(n), a list, a tuple or an array"),
                );
            }
        })
    }
}

/// A `for` loop's source of values.
pub(crate) enum Iter {
    Range {
        cur: i64,
        stop: i64,
        step: i64,
    },
    Items {
        items: Arc<crate::nested::Items>,
        i: usize,
    },
    List {
        list: crate::containers::List,
        i: usize,
    },
    Rows {
        a: crate::array::Array,
        i: usize,
    },
    Progress {
        inner: Box<Iter>,
        state: crate::builtins::lang::ProgressState,
    },
    /// An iterator object (`iter(xs)`): items taken from it are gone for `next`.
    Shared(Arc<dyn crate::value::Object>),
}

impl Iter {
    /// How many items are left (all of them before the first `next`).
    pub(crate) fn len(&self) -> Option<u64> {
        match self {
            Iter::Range { cur, stop, step } => {
                let n = if *step > 0 {
                    (stop - cur + step - 1) / step
                } else {
                    (cur - stop - step - 1) / -step
                };
                Some(n.max(0) as u64)
            }
            Iter::Items { items, i } => Some(items.len().saturating_sub(*i) as u64),
            Iter::List { list, i } => Some(list.len().saturating_sub(*i) as u64),
            Iter::Rows { a, i } => Some(a.shape()[0].saturating_sub(*i) as u64),
            Iter::Progress { inner, .. } => inner.len(),
            Iter::Shared(_) => None,
        }
    }

    pub(crate) fn next(&mut self, interp: &mut Interp) -> Result<Option<Value>> {
        match self {
            Iter::Range { cur, stop, step } => {
                if (*step > 0 && *cur < *stop) || (*step < 0 && *cur > *stop) {
                    let v = *cur;
                    *cur += *step;
                    Ok(Some(Value::Int(v)))
                } else {
                    Ok(None)
                }
            }
            Iter::Items { items, i } => {
                let v = items.get(*i).cloned();
                *i += 1;
                Ok(v)
            }
            Iter::List { list, i } => {
                let v = list.get(*i);
                *i += 1;
                Ok(v)
            }
            Iter::Rows { a, i } => {
                if *i >= a.shape()[0] {
                    return Ok(None);
                }
                let v = interp.index_array(a, &[crate::array::index::Index::Int(*i as i64)])?;
                *i += 1;
                Ok(Some(Value::Array(v)))
            }
            Iter::Progress { inner, state } => {
                let v = inner.next(interp)?;
                state.step(interp, v.is_none());
                Ok(v)
            }
            Iter::Shared(o) => match o
                .as_any()
                .downcast_ref::<crate::builtins::pyobjects::PyIter>()
            {
                Some(p) => p.next_item(interp),
                None => Ok(None),
            },
        }
    }

    pub(crate) fn finish(&mut self, interp: &mut Interp) {
        if let Iter::Progress { state, .. } = self {
            state.finish(interp);
        }
    }
}

/// Hints for array attributes called as methods (PyTorch's `x.size(1)`).
const ATTR_HINTS: [(&str, &str); 5] = [
    (
        "size",
        "`x.size` is NumPy's element count (an int); for PyTorch's `x.size(d)` write `x.shape[d]`, for `x.size()` write `x.shape`",
    ),
    (
        "shape",
        "`x.shape` is a tuple: write `x.shape` or `x.shape[d]`, without parentheses",
    ),
    (
        "dtype",
        "`x.dtype` is the dtype itself: write `x.dtype` (or `x.astype(t)` to convert)",
    ),
    (
        "T",
        "`x.T` is the transposed view: write `x.T` (or `x.transpose(axes)`)",
    ),
    (
        "ndim",
        "`x.ndim` is an int: write `x.ndim` (PyTorch's `x.dim()`)",
    ),
];

/// Functions that are no array methods in NumPy and whose PyTorch method
/// means something else than the function with the array first: the
/// method would give silently different numbers, so it is an error.
const NOT_ARRAY_METHODS: [(&str, &str); 1] = [(
    "where",
    "NumPy arrays have no `where` method, and PyTorch's `x.where(cond, y)` means where(cond, x, y): write where(cond, x, y)",
)];

/// The error for calling an array attribute as a method (`x.size(1)`).
fn attr_called(attr: &str) -> Error {
    let help = ATTR_HINTS
        .iter()
        .find(|(name, _)| *name == attr)
        .map_or_else(
            || format!("write `x.{attr}` without parentheses"),
            |(_, h)| h.to_string(),
        );
    Error::type_(format!(
        "`.{attr}` of an array is an attribute, not a method"
    ))
    .with_help(help)
}
