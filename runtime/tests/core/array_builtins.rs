//! The array builtins through a Session: creation, methods, shapes, random,
//! files, and the text the prompt shows.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session, Value};

fn session() -> Session {
    let f = Flags {
        device: gcalc_runtime::flags::DeviceFlag::Cpu,
        ..Flags::default()
    };
    Session::new(f, Box::new(Captured::default()))
}

/// The text a prompt shows for `code`'s last value, or the error's text.
fn show(s: &mut Session, code: &str) -> String {
    let out = s.execute(code, "<test>");
    if let Some(e) = out.error {
        return format!("ERROR {}", e.evalue());
    }
    out.value.map(|d| d.text).unwrap_or_default()
}

#[test]
fn creation_and_methods() {
    let mut s = session();
    assert_eq!(
        show(&mut s, "array([1, 2, 3])"),
        "[1 2 3]\n<3 int64 @cpu(0)>"
    );
    assert_eq!(
        show(&mut s, "array([[1, 2], [3, 4.5]])"),
        "[[1.  2. ]\n [3.  4.5]]\n<2x2 float32 @cpu(0)>"
    );
    assert_eq!(show(&mut s, "zeros((2, 3)).shape"), "(2, 3)");
    assert_eq!(
        show(&mut s, "ones(3, dtype=int32)"),
        "[1 1 1]\n<3 int32 @cpu(0)>"
    );
    assert_eq!(show(&mut s, "full((2,), 7)"), "[7 7]\n<2 int64 @cpu(0)>");
    assert_eq!(
        show(&mut s, "eye(2)"),
        "[[1. 0.]\n [0. 1.]]\n<2x2 float32 @cpu(0)>"
    );
    assert_eq!(show(&mut s, "arange(4)"), "[0 1 2 3]\n<4 int64 @cpu(0)>");
    assert_eq!(
        show(&mut s, "arange(0, 1, 0.25, dtype=\"float64\")"),
        "[0.   0.25 0.5  0.75]\n<4 float64 @cpu(0)>"
    );
    assert_eq!(
        show(&mut s, "linspace(0, 1, 3)"),
        "[0.  0.5 1. ]\n<3 float32 @cpu(0)>"
    );
    assert_eq!(
        show(&mut s, "zeros_like(array([true, false]))"),
        "[false false]\n<2 bool @cpu(0)>"
    );
    assert_eq!(show(&mut s, "array(1.5).item()"), "1.5");
    assert_eq!(
        show(&mut s, "array([[1, 2], [3, 4]]).tolist()"),
        "[[1, 2], [3, 4]]"
    );
    assert_eq!(show(&mut s, "array(2.5)"), "2.5 <scalar float32 @cpu(0)>");
    assert!(show(&mut s, "array([[1, 2], [3]])").contains("ragged"));
    assert!(show(&mut s, "zeros((2, 3), dtype=\"float8\")").contains("unknown dtype"));
}

#[test]
fn shapes_and_indexing() {
    let mut s = session();
    s.execute("x = arange(6)", "<t>");
    assert_eq!(show(&mut s, "x.reshape(2, 3).shape"), "(2, 3)");
    assert_eq!(show(&mut s, "reshape(x, (3, 2)).shape"), "(3, 2)");
    assert_eq!(
        show(&mut s, "x.reshape(4)"),
        "ERROR reshape: cannot reshape array of size 6 into shape (4,)"
    );
    assert_eq!(show(&mut s, "x.reshape(2, 3).T.shape"), "(3, 2)");
    assert_eq!(
        show(&mut s, "x.reshape(2, 3).transpose().flatten()"),
        "[0 3 1 4 2 5]\n<6 int64 @cpu(0)>"
    );
    assert_eq!(show(&mut s, "expand_dims(x, 0).shape"), "(1, 6)");
    assert_eq!(show(&mut s, "expand_dims(x, 0).squeeze().shape"), "(6,)");
    assert_eq!(show(&mut s, "concat([x, x]).shape"), "(12,)");
    assert_eq!(show(&mut s, "stack([x, x], axis=1).shape"), "(6, 2)");
    assert_eq!(
        show(&mut s, "x.astype(float64)"),
        "[0. 1. 2. 3. 4. 5.]\n<6 float64 @cpu(0)>"
    );
    s.execute("y = x.reshape(2, 3); y[0, 1:] = 9", "<t>");
    assert_eq!(show(&mut s, "x"), "[0 9 9 3 4 5]\n<6 int64 @cpu(0)>");
    assert_eq!(show(&mut s, "x[::2]"), "[0 9 4]\n<3 int64 @cpu(0)>");
    assert_eq!(show(&mut s, "x[[5, 0]]"), "[5 0]\n<2 int64 @cpu(0)>");
    assert!(show(&mut s, "x[10]").contains("index 10 is out of bounds for axis 0 with size 6"));
}

#[test]
fn random_and_files() {
    let mut s = session();
    s.execute("seed(22); a = rand(5); seed(22); b = rand(5); c = rand((2, 3)); n = randn(4, dtype=float64); k = randint(0, 2, 10)", "<t>");
    let get = |s: &Session, n: &str| match s.get(n) {
        Some(Value::Array(a)) => a,
        _ => panic!("{n} is not an array"),
    };
    assert_eq!(
        get(&s, "a").to_f64_vec().unwrap(),
        get(&s, "b").to_f64_vec().unwrap()
    );
    assert_eq!(get(&s, "c").shape(), &[2, 3]);
    assert_eq!(get(&s, "n").dtype(), gcalc_runtime::DType::Float64);
    assert!(
        get(&s, "k")
            .to_vec::<i64>()
            .unwrap()
            .iter()
            .all(|&v| v == 0 || v == 1)
    );
    let dir = tempfile::Builder::new()
        .prefix("gcalc-builtins-")
        .tempdir()
        .unwrap();
    let d = dir.path();
    let p = d.join("a.npy").display().to_string();
    let z = d.join("b.npz").display().to_string();
    assert_eq!(
        show(&mut s, &format!("save(\"{p}\", a); load(\"{p}\").shape")),
        "(5,)"
    );
    let t = show(&mut s, &format!("savez(\"{z}\", a, c, w=n); load(\"{z}\")"));
    assert!(
        t.starts_with("{\"arr_0\": array(") && t.contains("\"w\": array("),
        "{t}"
    );
    assert!(show(&mut s, "load(\"/nonexistent/x.npy\")").contains("/nonexistent/x.npy"));
}
