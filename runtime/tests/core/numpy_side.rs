//! gcalc's side of the NumPy-differential tests (tests/numpy): each case's
//! program runs in one `Session` (reset between cases, so thousands run per
//! second), and `out` becomes an `Outcome` — every element exactly, the
//! dtype, the shape — or the error's category. Shared by the CPU tests and
//! the GPU tests (`#[path]`), which differ only in the `device` flag.

use gcalc_difftest::ops::{FnCase, FnSpec};
use gcalc_difftest::{Oracle, Outcome, Report, Settings, Values, suite};
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Array, DType, Element, ErrorKind, Flags, Session, Value};

/// A session for the cases: new arrays on `device`, floatX float64 (where
/// gcalc's documented floatX decision and NumPy's float64 coincide).
pub struct GcalcSide {
    flags: Flags,
    session: Session,
}

impl GcalcSide {
    pub fn new(device: DeviceFlag) -> GcalcSide {
        let flags = Flags {
            device,
            float_x: DType::Float64,
            ..Flags::default()
        };
        let session = Session::new(flags.clone(), Box::new(Captured::default()));
        GcalcSide { flags, session }
    }

    /// Run one case's program and read `out`.
    pub fn eval(&mut self, code: &str) -> Outcome {
        self.session.reset();
        let r = self.session.execute(code, "<case>");
        if let Some(e) = r.error {
            let message = e.evalue();
            return match e.kind() {
                Some(ErrorKind::Internal) | None => {
                    // A panic may leave the session in any state: start afresh.
                    self.session = Session::new(self.flags.clone(), Box::new(Captured::default()));
                    Outcome::Internal { message }
                }
                Some(k) => Outcome::Error {
                    category: category(k).into(),
                    message,
                },
            };
        }
        match self.session.get("out") {
            Some(Value::Array(a)) => {
                // Reading the result is gcalc code too: a panic there is a finding.
                let r = std::panic::catch_unwind(|| array_outcome(&a));
                match r {
                    Ok(Ok(o)) => o,
                    Ok(Err(e)) => Outcome::Internal {
                        message: format!("reading the result: {}", e.full_message()),
                    },
                    Err(_) => Outcome::Internal {
                        message: "reading the result panicked".into(),
                    },
                }
            }
            Some(Value::Int(i)) => scalar("int64", Values::Int(vec![i])),
            Some(Value::Float(f)) => scalar("float64", Values::Float(vec![f])),
            Some(Value::Bool(b)) => scalar("bool", Values::Bool(vec![b])),
            Some(other) => Outcome::Error {
                category: "type".into(),
                message: format!("`out` is a {}, not an array", other.type_name()),
            },
            None => Outcome::Internal {
                message: "the program left no `out`".into(),
            },
        }
    }
}

fn scalar(dtype: &str, values: Values) -> Outcome {
    Outcome::Value {
        dtype: dtype.into(),
        shape: vec![],
        values,
    }
}

/// One word per error kind (what `outcome::categories_correspond` reads).
fn category(k: ErrorKind) -> &'static str {
    match k {
        ErrorKind::Index => "index",
        ErrorKind::Shape => "shape",
        ErrorKind::DType => "dtype",
        ErrorKind::Type => "type",
        ErrorKind::Value => "value",
        ErrorKind::Syntax => "syntax",
        ErrorKind::Name => "name",
        ErrorKind::ZeroDivision => "zero_division",
        ErrorKind::Device => "device",
        ErrorKind::OutOfMemory => "out_of_memory",
        ErrorKind::Kernel => "kernel",
        _ => "other",
    }
}

/// An array's dtype, shape and elements (downloaded from a GPU).
fn array_outcome(a: &Array) -> gcalc_runtime::Result<Outcome> {
    let h = a.to_host()?;
    let d = h.dtype();
    let values = gcalc_runtime::with_dtype!(d, T => {
        let v: Vec<T> = h.to_vec::<T>()?;
        match d {
            DType::Bool => Values::Bool(v.iter().map(|x| x.to_i64() != 0).collect()),
            DType::Int32 | DType::Int64 => Values::Int(v.iter().map(|x| x.to_i64()).collect()),
            _ => Values::Float(v.iter().map(|x| x.to_f64()).collect()),
        }
    });
    Ok(Outcome::Value {
        dtype: d.name().into(),
        shape: h.shape().to_vec(),
        values,
    })
}

/// Run the indexing suite with new arrays on `device`; fail with the report
/// (every mismatch class, minimal reproductions) on any mismatch. `test`
/// names the test in skip messages; `rerun` is the command that runs it.
pub fn assert_index_suite(test: &str, rerun: &str, s: &Settings, device: DeviceFlag) {
    let Some(oracle) = Oracle::for_test(test) else {
        return;
    };
    let mut side = GcalcSide::new(device);
    let name = format!("indexing ({})", device_name(device));
    for r in suite::run_index(&name, rerun, s, &oracle, &mut |c| side.eval(c)) {
        r.assert_clean();
    }
}

/// Run the function table `table` on `device` likewise.
pub fn assert_fn_suite(
    test: &str,
    rerun: &str,
    s: &Settings,
    table: &'static [FnSpec],
    device: DeviceFlag,
) -> Vec<Report<FnCase>> {
    let Some(oracle) = Oracle::for_test(test) else {
        return vec![];
    };
    let mut side = GcalcSide::new(device);
    let name = format!("functions ({})", device_name(device));
    suite::run_functions(&name, rerun, s, table, &oracle, &mut |c| side.eval(c))
}

fn device_name(d: DeviceFlag) -> String {
    match d {
        DeviceFlag::Gpu(i) => format!("gpu{i}"),
        DeviceFlag::Cpu => "cpu".into(),
        DeviceFlag::Auto => "auto".into(),
    }
}
