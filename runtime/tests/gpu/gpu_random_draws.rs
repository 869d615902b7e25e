//! The distributions' draws, permutations, `choice` and `shuffle` on gpu(0)
//! against the CPU from the same generator state: the same bits, every
//! distribution, output dtype and branch of the samplers (scalar and array
//! parameters), and the same generator state afterwards; the session's
//! builtins likewise with `device=gpu()`.

use crate::gpu_util::{G, have_gpu};
use gcalc_runtime::backend::{self, random as draws};
use gcalc_runtime::opid::Dist;
use gcalc_runtime::random::{Param, Rng};
use gcalc_runtime::{Array, DType, Device, Flags, Session, Value};

/// Parameters reaching every branch (as kernels/src/cuda/samplers_twin.rs).
fn params(d: Dist) -> Vec<(f64, f64)> {
    match d {
        Dist::Exponential => vec![(1.0, 0.0), (2.5, 0.0)],
        Dist::Bernoulli => vec![(0.5, 0.0), (1e-9, 0.0), (1.0, 0.0)],
        Dist::Gamma => vec![(0.0, 1.0), (0.05, 1.0), (0.5, 2.0), (3.7, 0.5), (1e4, 1.0)],
        Dist::Beta => vec![(0.01, 0.02), (0.5, 0.5), (2.0, 5.0), (300.0, 0.7)],
        Dist::Poisson => vec![
            (0.0, 0.0),
            (0.3, 0.0),
            (9.99, 0.0),
            (123.4, 0.0),
            (1e7, 0.0),
        ],
        Dist::Binomial => vec![
            (10.0, 0.0),
            (7.0, 0.3),
            (40.0, 0.2),
            (100.0, 0.6),
            (1e6, 0.999),
        ],
    }
}

fn dtypes(d: Dist) -> &'static [DType] {
    match d {
        Dist::Exponential | Dist::Gamma | Dist::Beta => {
            &[DType::Float16, DType::Float32, DType::Float64]
        }
        Dist::Poisson | Dist::Binomial => {
            &[DType::Int32, DType::Int64, DType::Float32, DType::Float64]
        }
        Dist::Bernoulli => &DType::ALL,
    }
}

fn same_bits(what: &str, cpu: &Array, gpu: &Array) {
    assert_eq!(gpu.device(), G, "{what}: on the GPU");
    assert_eq!(
        (gpu.shape(), gpu.dtype()),
        (cpu.shape(), cpu.dtype()),
        "{what}"
    );
    let (c, g) = (cpu.to_f64_vec().unwrap(), gpu.to_f64_vec().unwrap());
    for (k, (x, y)) in c.iter().zip(&g).enumerate() {
        assert!(
            x.to_bits() == y.to_bits(),
            "{what}: element {k}: CPU {x:e}, GPU {y:e}"
        );
    }
}

#[test]
fn gpu_distribution_draws_are_the_cpus_bit_for_bit() {
    if !have_gpu() {
        return;
    }
    for d in Dist::ALL {
        for (a, b) in params(d) {
            for &dt in dtypes(d) {
                let (mut rc, mut rg) = (Rng::default(), Rng::default());
                rc.seed(77);
                rg.seed(77);
                let shape = [37, 29];
                let c = draws::draw(
                    &mut rc,
                    d,
                    Param::Scalar(a),
                    Param::Scalar(b),
                    &shape,
                    dt,
                    Device::Cpu,
                )
                .unwrap();
                let g = draws::draw(
                    &mut rg,
                    d,
                    Param::Scalar(a),
                    Param::Scalar(b),
                    &shape,
                    dt,
                    G,
                )
                .unwrap();
                let what = format!("{d:?}({a}, {b}) as {dt}");
                same_bits(&what, &c, &g);
                assert_eq!(rc, rg, "{what}: generator state");
            }
        }
        // Array parameters (one value per element), on each device.
        let (a, b) = params(d)[1];
        let pa: Vec<f64> = (0..60)
            .map(|k| {
                let v = a * (1.0 + (k % 7) as f64 / 8.0);
                match d {
                    Dist::Bernoulli => v.min(1.0),
                    Dist::Binomial => v.floor(),
                    _ => v,
                }
            })
            .collect();
        let ha = Array::from_vec(pa, vec![60]);
        let hb = Array::from_vec(vec![b; 60], vec![60]);
        let (ga, gb) = (
            backend::to_device(&ha, G).unwrap(),
            backend::to_device(&hb, G).unwrap(),
        );
        let (mut rc, mut rg) = (Rng::default(), Rng::default());
        let c = draws::draw(
            &mut rc,
            d,
            Param::Array(&ha),
            Param::Array(&hb),
            &[60],
            DType::Float64,
            Device::Cpu,
        )
        .unwrap();
        let g = draws::draw(
            &mut rg,
            d,
            Param::Array(&ga),
            Param::Array(&gb),
            &[60],
            DType::Float64,
            G,
        )
        .unwrap();
        same_bits(&format!("{d:?} with array parameters"), &c, &g);
        assert_eq!(rc, rg);
    }
}

#[test]
fn gpu_permutations_choices_and_row_gathers_are_the_cpus() {
    if !have_gpu() {
        return;
    }
    for (k, n) in [
        (0usize, 0u64),
        (1, 1),
        (10, 10),
        (5, 1000),
        (70_000, 70_000),
        (3, 1 << 40),
    ] {
        let (mut rc, mut rg) = (Rng::default(), Rng::default());
        let c = draws::perm_index(&mut rc, k, n, Device::Cpu).unwrap();
        let g = draws::perm_index(&mut rg, k, n, G).unwrap();
        same_bits(&format!("perm_index({k}, {n})"), &c, &g);
        assert_eq!(rc, rg);
    }
    let p = [0.1, 0.0, 0.4, 0.25, 0.25];
    let mut cdf = Vec::new();
    let mut acc = 0.0;
    for x in p {
        acc += x;
        cdf.push(acc);
    }
    let hc = Array::from_vec(cdf.clone(), vec![5]);
    let gc = backend::to_device(&hc, G).unwrap();
    let (mut rc, mut rg) = (Rng::default(), Rng::default());
    let c = draws::choice_cdf(&mut rc, 999, &hc, &cdf, Device::Cpu).unwrap();
    let g = draws::choice_cdf(&mut rg, 999, &gc, &cdf, G).unwrap();
    same_bits("choice_cdf", &c, &g);
    assert_eq!(rc, rg);
    for dt in DType::ALL {
        let h = crate::gpu_util::host(dt, &[9, 4, 3], 5);
        let hv = h.view(vec![9, 3], vec![12, 1], 1); // a strided view
        let idx = Array::from_vec(vec![8i64, 0, 3, 3, 5], vec![5]);
        for x in [h.clone(), hv] {
            let gx = backend::to_device(&x, G).unwrap();
            let c = draws::take_rows(&x, &idx).unwrap();
            let g = draws::take_rows(&gx, &backend::to_device(&idx, G).unwrap()).unwrap();
            same_bits(&format!("take_rows of {dt} {:?}", x.shape()), &c, &g);
        }
    }
}

fn session(device: &str) -> Session {
    let mut flags = Flags::default();
    flags.set("device", device).unwrap();
    Session::new(flags, Box::new(gcalc_runtime::output::Captured::default()))
}

#[test]
fn gpu_random_builtins_give_the_cpus_numbers() {
    if !have_gpu() {
        return;
    }
    let code = "seed(21)
a = exponential(array([1.0, 3.0]), (4, 2))
b = poisson(40.0, 6)
c = binomial(array([3, 300]), 0.4)
d = bernoulli(0.3, 7, dtype=bool)
e = gamma(0.7, 2.0, 5, dtype=float64)
f = beta(2.0, 0.5, 5)
g = choice(10, 6)
h = choice(arange(12).reshape((6, 2)), 4, replace=false)
i = choice(5, 8, p=array([0.1, 0.2, 0.3, 0.2, 0.2]))
j = choice(5, 3, replace=false, p=array([0.1, 0.2, 0.3, 0.2, 0.2]))
k = permutation(9)
l = permutation(arange(10.0))
m = arange(8); shuffle(m)
z = rand(3)";
    let mut cpu = session("cpu");
    let mut gpu = session("gpu");
    for s in [&mut cpu, &mut gpu] {
        if let Some(e) = s.execute(code, "<test>").error {
            panic!("{}", e.evalue());
        }
    }
    for v in [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "z",
    ] {
        let (Some(Value::Array(x)), Some(Value::Array(y))) = (cpu.get(v), gpu.get(v)) else {
            panic!("{v}")
        };
        assert_eq!(x.device(), Device::Cpu);
        same_bits(v, &x, &y);
    }
}
