//! Gradients of the elementwise ops on gpu(0): every op of the elementwise
//! table with a gradient rule, in float64, its `grad` computed with the
//! arguments on the GPU checked against central finite differences also
//! evaluated on the GPU (the CPU's walk is `core`'s grad_ops), plain and
//! broadcasting shapes; the gradient stays on the GPU.

use crate::gpu_util::{G, have_gpu};
use crate::grad_util::{Rng, check_placed, define_elementwise_f, grad_operand, run, session};
use gcalc_runtime::Value;
use gcalc_runtime::backend;
use gcalc_runtime::ops::{self, elementwise::ew_def};

#[test]
fn gpu_elementwise_gradients_match_finite_differences() {
    if !have_gpu() {
        return;
    }
    let (mut s, _) = session("float64");
    let mut r = Rng(0x243f6a8885a308d3);
    let to_gpu = |a: gcalc_runtime::Array| backend::to_device(&a, G).expect("to gpu(0)");
    let mut checked = 0;
    for op in ops::all() {
        let Some(def) = ew_def(op) else { continue };
        if def.grad.is_none() {
            continue;
        }
        let argnums = define_elementwise_f(&mut s, op.name, def.arity);
        let layouts: [&[&[usize]]; 2] = [&[&[3, 4], &[3, 4], &[3, 4]], &[&[3, 4], &[4], &[3, 1]]];
        for shapes in layouts {
            let args: Vec<Value> = (0..def.arity)
                .map(|i| {
                    Value::Array(to_gpu(grad_operand(
                        &mut r, op.name, def.domain, i, shapes[i],
                    )))
                })
                .collect();
            let what = format!("{} {:?} on gpu(0)", op.name, &shapes[..def.arity]);
            check_placed(&mut s, &what, &args, &argnums, &to_gpu);
            checked += 1;
        }
    }
    assert!(
        checked >= 2 * 25,
        "only {checked} GPU gradient cases checked"
    );
}

#[test]
fn gpu_gradients_stay_on_the_gpu() {
    if !have_gpu() {
        return;
    }
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "x = linspace(-0.7, 0.7, 9, device=gpu()); y = linspace(0.3, 2.0, 9, device=gpu())\n\
         g = grad(fn(a, b) { sum(arcsinh(a) * hypot(a, b) + erf(b) + arctan2(a, b)) }, (0, 1))(x, y)",
    )
    .expect("grad on the GPU");
    let Some(Value::Tuple(g)) = s.get("g") else {
        panic!("g is not a tuple")
    };
    for v in g.iter() {
        let Value::Array(a) = v else {
            panic!("not an array")
        };
        assert_eq!(a.device(), G, "the gradient left the GPU");
    }
}
