//! Shared by the grad_* tests: a float64 session, random arrays, and the check
//! of `grad(f)` against central finite differences.

#![allow(dead_code)]

use gcalc_runtime::output::Output;
use gcalc_runtime::{Array, ExecOutcome, Flags, Session, Value};
use std::sync::{Arc, Mutex};

/// Output collected into a shared string.
pub struct Capture(pub Arc<Mutex<String>>);
impl Output for Capture {
    fn stdout(&mut self, text: &str) {
        if let Ok(mut s) = self.0.lock() {
            s.push_str(text);
        }
    }
    fn stderr(&mut self, text: &str) {
        self.stdout(text);
    }
    fn display(&mut self, _data: &gcalc_runtime::DisplayData) {}
    fn input(&mut self, _prompt: &str) -> Option<String> {
        None
    }
}

pub fn session(float_x: &str) -> (Session, Arc<Mutex<String>>) {
    let mut flags = Flags::default();
    flags.set("floatX", float_x).expect("floatX flag");
    let log = Arc::new(Mutex::new(String::new()));
    (Session::new(flags, Box::new(Capture(log.clone()))), log)
}

/// Run code; the error text if it failed.
pub fn run(s: &mut Session, code: &str) -> Result<(), String> {
    let out: ExecOutcome = s.execute(code, "<test>");
    match out.error {
        Some(e) => Err(e.evalue()),
        None => Ok(()),
    }
}

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [lo, hi), never within `gap` of zero when `gap` > 0.
    pub fn away(&mut self, lo: f64, hi: f64, gap: f64) -> f64 {
        loop {
            let v = lo + (hi - lo) * self.next();
            if v.abs() >= gap {
                return v;
            }
        }
    }
    pub fn array(&mut self, shape: &[usize], lo: f64, hi: f64) -> Array {
        let n = shape.iter().product();
        let v: Vec<f64> = (0..n).map(|_| self.away(lo, hi, 0.1)).collect();
        Array::from_vec(v, shape.to_vec())
    }
}

fn call(s: &mut Session, f: &Value, args: &[Value]) -> Result<Value, String> {
    s.interp()
        .call_value(f.clone(), args.to_vec(), vec![], Default::default())
        .map_err(|e| e.message.clone())
}

fn scalar(v: &Value) -> f64 {
    match v {
        Value::Array(a) => a.to_f64_vec().expect("read")[0],
        Value::Float(f) => *f,
        Value::Int(i) => *i as f64,
        _ => f64::NAN,
    }
}

/// Define `f(x0, ..)` = `sum(sin(1.3 * op(x0, ..) + 0.2))` for the gradient
/// walk of elementwise op `name` (`where` gets `x0 > 0` as its condition);
/// the argument numbers to differentiate.
pub fn define_elementwise_f(s: &mut Session, name: &str, arity: usize) -> Vec<usize> {
    let params: Vec<String> = (0..arity).map(|i| format!("x{i}")).collect();
    let call_args = if name == "where" {
        "x0 > 0, x1, x2".to_string()
    } else {
        params.join(", ")
    };
    let code = format!(
        "fn f({}) {{ sum(sin(1.3 * {name}({call_args}) + 0.2)) }}",
        params.join(", ")
    );
    run(s, &code).unwrap_or_else(|e| panic!("{name}: {e}"));
    (0..arity)
        .filter(|&i| !(name == "where" && i == 0))
        .collect()
}

/// Values for operand `i` of elementwise op `name` in the gradient tests
/// (inside its domain, away from kinks and poles).
pub fn grad_operand(
    r: &mut Rng,
    name: &str,
    dom: gcalc_runtime::ops::elementwise::Domain,
    i: usize,
    shape: &[usize],
) -> Array {
    use gcalc_runtime::ops::elementwise::Domain;
    let (lo, hi) = match (name, dom, i) {
        ("clip", _, 1) => (-2.0, -0.5),
        ("clip", _, 2) => (0.5, 2.0),
        // Away from the bounds' ranges' edges is enough: kinks are measure zero.
        ("clip", _, _) => (-3.0, 3.0),
        (_, Domain::Positive, _) => (0.2, 3.0),
        (_, Domain::AboveMinusOne, _) => (-0.8, 3.0),
        (_, Domain::Small, _) => (-1.2, 1.2),
        (_, Domain::Power, 0) => (0.2, 3.0),
        (_, Domain::Power, _) => (-2.0, 2.0),
        (_, Domain::Unit, _) => (-0.8, 0.8),
        (_, Domain::AtLeastOne, _) => (1.2, 3.0),
        (_, Domain::NonZero, _) => (0.3, 3.0),
        _ => (-3.0, 3.0),
    };
    r.array(shape, lo, hi)
}

/// Check `grad(f, argnums)` at `args` against central differences; `what` names
/// the case in failures. Returns the largest relative error.
pub fn check(
    s: &mut Session,
    what: &str,
    args: &[Value],
    argnums: &[usize],
    h: f64,
    tol: f64,
) -> f64 {
    check_with(s, what, (args, argnums), (h, tol), &|a| a)
}

/// `check` with h = tol = 1e-6 and every perturbed argument passed through
/// `place` (e.g. moved to the GPU the other arguments are on) before `f`
/// sees it.
pub fn check_placed(
    s: &mut Session,
    what: &str,
    args: &[Value],
    argnums: &[usize],
    place: &dyn Fn(Array) -> Array,
) -> f64 {
    check_with(s, what, (args, argnums), (1e-6, 1e-6), place)
}

fn check_with(
    s: &mut Session,
    what: &str,
    (args, argnums): (&[Value], &[usize]),
    (h, tol): (f64, f64),
    place: &dyn Fn(Array) -> Array,
) -> f64 {
    let f = s.get("f").expect("f defined");
    let nums: Vec<Value> = argnums.iter().map(|&k| Value::Int(k as i64)).collect();
    let grad = Value::Builtin(gcalc_runtime::ops::lookup("grad").expect("grad in the op table"));
    let gf = call(s, &grad, &[f.clone(), Value::tuple(nums)]).expect("grad(f)");
    let grads = match call(s, &gf, args) {
        Ok(Value::Tuple(t)) => t.to_vec(),
        Ok(v) => panic!("{what}: grad gave {}", v.type_name()),
        Err(e) => panic!("{what}: grad failed: {e}"),
    };
    let mut worst = 0.0f64;
    for (gi, &k) in argnums.iter().enumerate() {
        let Value::Array(x) = &args[k] else {
            panic!("{what}: arg {k} is not an array")
        };
        let Value::Array(g) = &grads[gi] else {
            panic!("{what}: gradient {gi} is not an array")
        };
        assert_eq!(g.shape(), x.shape(), "{what}: gradient shape of arg {k}");
        let xv = x.to_f64_vec().expect("x");
        let gv = g.to_f64_vec().expect("g");
        for j in 0..xv.len() {
            let mut at = |d: f64| {
                let mut v = xv.clone();
                v[j] += d;
                let mut a = args.to_vec();
                a[k] = Value::Array(place(
                    Array::from_vec(v, x.shape().to_vec())
                        .astype(x.dtype())
                        .expect("cast"),
                ));
                scalar(&call(s, &f, &a).unwrap_or_else(|e| panic!("{what}: f failed: {e}")))
            };
            let fd = (at(h) - at(-h)) / (2.0 * h);
            let err = (gv[j] - fd).abs() / (1.0 + fd.abs());
            worst = worst.max(err);
            assert!(
                err <= tol,
                "{what}: d/d arg{k}[{j}]: grad {} vs finite difference {fd}",
                gv[j]
            );
        }
    }
    worst
}
