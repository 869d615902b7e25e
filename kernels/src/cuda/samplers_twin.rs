//! The CUDA samplers (samplers.cuh) built with the host's C++ compiler
//! (`-ffp-contract=off`, as NVRTC's `--fmad=false`) and compared bit for bit
//! with the Rust samplers that the CPU runs: every distribution over ranges
//! of parameters, the permutation and the cdf search. This checks the GPU's
//! arithmetic without a GPU. Skips visibly without a C++ compiler.

use crate::cpu::samplers::{Dist, Perm, cdf_index, draw, pair_uniform};
use std::io::Write;
use std::process::{Command, Stdio};

const MAIN: &str = r#"
#include <stdio.h>
int main() {
  char op;
  while (scanf(" %c", &op) == 1) {
    if (op == 'D') {
      int dist; unsigned long long ctr, key, i, ab, bb;
      if (scanf("%d %llu %llu %llu %llx %llx", &dist, &ctr, &key, &i, &ab, &bb) != 6) return 2;
      double r = gc_draw(dist, ctr, key, i, gc_from_bits_host(ab), gc_from_bits_host(bb));
      printf("%016llx\n", gc_bits_host(r));
    } else if (op == 'P') {
      unsigned long long n, ctr, key, i;
      if (scanf("%llu %llu %llu %llu", &n, &ctr, &key, &i) != 4) return 2;
      gc_perm p = gc_perm_new(n, ctr, key);
      printf("%llu\n", gc_perm_at(&p, i));
    } else if (op == 'C') {
      unsigned long long ctr, key, i;
      if (scanf("%llu %llu %llu", &ctr, &key, &i) != 3) return 2;
      const double cdf[5] = {0.1, 0.1, 0.5, 0.75, 1.0};
      printf("%llu\n", gc_cdf_index(cdf, 5, gc_pair_uniform(ctr, key, i)));
    }
  }
  return 0;
}
"#;

/// The compiled twin, or None (printed) without a compiler.
fn build() -> Option<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("gcalc-samplers-twin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let src = dir.join("twin.cpp");
    let exe = dir.join("twin");
    std::fs::write(&src, format!("{}\n{MAIN}", super::SAMPLERS)).ok()?;
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let out = Command::new(&cxx)
        .args(["-O2", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(&src)
        .output();
    match out {
        Ok(o) if o.status.success() => Some(exe),
        Ok(o) => panic!(
            "samplers.cuh does not build as C++:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            println!("SKIPPED: no C++ compiler `{cxx}` ({e})");
            None
        }
    }
}

fn run(exe: &std::path::Path, input: &str) -> Vec<String> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the twin");
    let mut stdin = child.stdin.take().expect("stdin");
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("twin output");
    writer.join().expect("writer").expect("write");
    assert!(out.status.success(), "the twin failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// Parameters exercising every branch: small and large shapes, rates and
/// counts (inversion and BTRS, p above 1/2, multiplication and PTRS).
fn params(d: Dist) -> Vec<(f64, f64)> {
    match d {
        Dist::Exponential => vec![(1.0, 0.0), (2.5, 0.0), (1e-3, 0.0)],
        Dist::Bernoulli => vec![
            (0.5, 0.0),
            (1e-9, 0.0),
            (0.999, 0.0),
            (0.0, 0.0),
            (1.0, 0.0),
        ],
        Dist::Gamma => vec![
            (0.0, 1.0),
            (0.05, 1.0),
            (0.5, 2.0),
            (1.0, 1.0),
            (3.7, 0.5),
            (1e4, 1.0),
        ],
        Dist::Beta => vec![
            (0.01, 0.02),
            (0.5, 0.5),
            (1.0, 1.0),
            (2.0, 5.0),
            (300.0, 0.7),
        ],
        Dist::Poisson => vec![
            (0.0, 0.0),
            (0.3, 0.0),
            (9.99, 0.0),
            (10.0, 0.0),
            (123.4, 0.0),
            (1e7, 0.0),
        ],
        Dist::Binomial => vec![
            (0.0, 0.5),
            (10.0, 0.0),
            (10.0, 1.0),
            (7.0, 0.3),
            (40.0, 0.2),
            (100.0, 0.6),
            (1000.0, 0.05),
            (1e6, 0.999),
        ],
    }
}

#[test]
fn cuda_samplers_built_for_the_host_match_the_rust_samplers() {
    let Some(exe) = build() else { return };
    let (ctr, key) = (0x1234_5678_9abc_u64, 0x5eed_6ca1c_u64);
    let mut input = String::new();
    let mut want = Vec::new();
    for (id, &d) in Dist::ALL.iter().enumerate() {
        for (a, b) in params(d) {
            for i in 0..300u64 {
                input += &format!(
                    "D {id} {ctr} {key} {i} {:x} {:x}\n",
                    a.to_bits(),
                    b.to_bits()
                );
                want.push((
                    format!("{d:?}({a}, {b}) at {i}"),
                    draw(d, ctr, key, i, a, b),
                ));
            }
        }
    }
    let got = run(&exe, &input);
    assert_eq!(got.len(), want.len());
    for (g, (what, w)) in got.iter().zip(&want) {
        let g = f64::from_bits(u64::from_str_radix(g, 16).expect("hex"));
        assert!(g.to_bits() == w.to_bits(), "{what}: C++ {g:e}, Rust {w:e}");
    }
    let mut input = String::new();
    let mut want = Vec::new();
    for n in [1u64, 2, 3, 17, 1000, 65_537, 1 << 40] {
        for i in (0..n.min(200)).chain([n - 1]) {
            input += &format!("P {n} {ctr} {key} {i}\n");
            want.push(Perm::from_stream(n, ctr, key).at(i).to_string());
        }
    }
    let cdf = [0.1, 0.1, 0.5, 0.75, 1.0];
    for i in 0..500u64 {
        input += &format!("C {ctr} {key} {i}\n");
        want.push(cdf_index(&cdf, pair_uniform(ctr, key, i)).to_string());
    }
    assert_eq!(run(&exe, &input), want, "permutation and cdf search");
    let _ = std::fs::remove_dir_all(exe.parent().expect("dir"));
}
