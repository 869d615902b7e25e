//! File builtins: `save load savez` (NumPy's .npy/.npz, see `crate::npy`).
//! `load("f.npz")` gives a dict {name: array} in file order (NumPy's
//! `np.load(...)["w"]`).

use super::creation::{array_arg, op};
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::npy::{self, Loaded};
use crate::ops::{OpDef, OpKind};
use crate::value::Value;
use std::path::PathBuf;

pub static OPS: &[OpDef] = &[
    op!(
        "save",
        "save(path, x)",
        "Write x to a NumPy .npy file (a regular file is replaced atomically: the old one survives a failed save; a symlink is written through, a device in place).",
        false,
        save
    ),
    op!(
        "load",
        "load(path, device=none)",
        "Read a .npy file (an array) or a .npz file (a dict {name: array} in file order, as NumPy's z[\"w\"]), onto device (default: the device flag).",
        false,
        load
    ),
    op!(
        "savez",
        "savez(path, a, b, ..., name=c)",
        "Write several arrays to a NumPy .npz file: positional ones as arr_0, arr_1, ..., keywords by name.",
        false,
        savez
    ),
];

fn path_arg(v: &Value) -> Result<PathBuf> {
    match v {
        Value::Str(s) => Ok(PathBuf::from(s.as_ref())),
        other => Err(Error::type_(format!(
            "the path must be a string, not {}",
            other.a_type_name()
        ))
        .with_help("e.g. save(\"x.npy\", x)")),
    }
}

fn save(i: &mut Interp, mut a: Args) -> Result<Value> {
    let path = path_arg(&a.req("path")?)?;
    let x = array_arg(i, &a.req("x")?)?;
    a.finish()?;
    npy::save_checked(&path, &x, &|| i.check_interrupt().is_err())?;
    Ok(Value::None)
}

/// Arrays read from a file go where new arrays go (`device=`, else the
/// `device` flag), like every other creation function.
fn load(i: &mut Interp, mut a: Args) -> Result<Value> {
    let path = path_arg(&a.req("path")?)?;
    let dev = a
        .kw("device")
        .map(|v| super::creation::device_arg(&v))
        .transpose()?
        .unwrap_or_else(|| i.default_device());
    a.finish_with(&["device"])?;
    let place = |x: crate::array::Array| -> Result<Value> {
        Ok(crate::backend::to_device(&x, dev)?.into())
    };
    Ok(match npy::load(&path)? {
        Loaded::Array(x) => place(x)?,
        Loaded::Archive(items) => Value::Dict(crate::containers::Dict::from_pairs(
            items
                .into_iter()
                .map(|(n, x)| Ok((Value::str(n), place(x)?)))
                .collect::<Result<Vec<_>>>()?,
        )?),
    })
}

fn savez(i: &mut Interp, mut a: Args) -> Result<Value> {
    let path = path_arg(&a.req("path")?)?;
    let mut arrays = Vec::new();
    for (k, v) in a.rest().iter().enumerate() {
        arrays.push((format!("arr_{k}"), array_arg(i, v)?));
    }
    for (name, v) in std::mem::take(&mut a.kw) {
        if arrays.iter().any(|(n, _)| *n == name) {
            return Err(Error::value(format!(
                "savez: cannot use `{name}` as a keyword: it names a positional array"
            ))
            .with_help("pick another name"));
        }
        arrays.push((name, array_arg(i, &v)?));
    }
    a.finish()?;
    npy::savez_checked(&path, &arrays, &|| i.check_interrupt().is_err())?;
    Ok(Value::None)
}
