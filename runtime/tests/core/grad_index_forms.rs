//! Every way gcalc reads or writes an array through an index, as the body
//! of `f(x, y)` returning a scalar: the table the gradient tests walk (on the
//! CPU against central finite differences in `grad_index.rs`, on a GPU
//! against the CPU in `gpu/gpu_index_writes.rs`). (kind, body, x's shape,
//! y's shape); both arguments are differentiated.

pub const FORMS: &[(&str, &str, &[usize], &[usize])] = &[
    // Reads: views (a view's gradient is a store into zeros) ...
    ("read int+slice", "sum(sin(x[1, 1:3]) * y)", &[3, 4], &[2]),
    ("read step -1", "sum(sin(x[::-1, ::2]) * y)", &[3, 4], &[2]),
    ("read newaxis", "sum(sin(x[none, 1]) * y)", &[3, 4], &[4]),
    ("read element", "sin(x[2, 3]) * sum(y)", &[3, 4], &[2]),
    // ... and copies (advanced indices: a scatter-add, repeats add up).
    (
        "read int array",
        "sum(sin(x[array([0, 2, 0])]) * y)",
        &[3, 4],
        &[4],
    ),
    ("read list", "sum(sin(x[:, [3, 3, 1]]) * y)", &[3, 4], &[3]),
    (
        "read broadcast arrays",
        "sum(sin(x[array([[0], [2]]), array([1, 3, 1])]) * y)",
        &[3, 4],
        &[3],
    ),
    (
        "read mask",
        "sum(sin(x[x > 0]) * 1.5) + sum(y)",
        &[3, 4],
        &[2],
    ),
    (
        "read partial mask",
        "sum(sin(x[:, array([true, false, true, true])]) * y)",
        &[3, 4],
        &[3],
    ),
    (
        "read 0-d int array",
        "sin(x[array(1), array(2)]) * sum(y)",
        &[3, 4],
        &[2],
    ),
    ("read 0-d bool", "sum(sin(x[true]) * y)", &[3, 4], &[4]),
    (
        "read by iteration",
        "s = 0.0; for r in x { s = s + sum(sin(r) * y) }; s",
        &[3, 4],
        &[4],
    ),
    (
        "read by unpacking",
        "a, b, c = x; sum(sin(a * b) * y) + sum(c)",
        &[3, 4],
        &[4],
    ),
    // Writes: the overwritten part passes no gradient, the value gets it.
    (
        "write slice",
        "z = zeros((3, 4)); z[1:3] = x[1:3] * y; sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "write row of a tracked array",
        "z = x * 1.0; z[0] = y; sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "write int array (repeats: the last wins)",
        "z = x * 1.0; z[array([0, 2, 0])] = y; sum(sin(z))",
        &[3, 4],
        &[3, 4],
    ),
    (
        "write mask, one value",
        "z = x * 1.0; z[x > 0] = y[0, 0]; sum(sin(z))",
        &[3, 4],
        &[2, 2],
    ),
    (
        "write mask, many values",
        "z = x * 1.0; m = x > 0; z[m] = y[m] * 2.0; sum(sin(z))",
        &[3, 4],
        &[3, 4],
    ),
    (
        "write partial mask",
        "z = x * 1.0; z[1, array([true, false, true, false])] = y; sum(sin(z))",
        &[3, 4],
        &[2],
    ),
    (
        "write 0-d bool",
        "z = x * 1.0; z[true] = y; sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "write newaxis",
        "z = x * 1.0; z[none, 1] = y; sum(sin(z))",
        &[3, 4],
        &[1, 4],
    ),
    (
        "write through a view",
        "z = x * 1.0; w = z[1:]; w[0] = y; sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "write after a read kept it",
        "z = x * 1.0; p = z * z; z[0] = y; sum(sin(p)) + sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "write rows in a loop",
        "h = zeros((4, 4)); h[0] = x[0]; for t in range(1, 4) { h[t] = tanh(h[t - 1] * y + x[t - 1]) }; sum(h)",
        &[3, 4],
        &[4],
    ),
    (
        "write broadcast arrays",
        "z = x * 1.0; z[array([[0], [2]]), array([1, 3])] = y; sum(sin(z))",
        &[3, 4],
        &[2, 2],
    ),
    (
        "write step -2 through a transposed view",
        "z = x * 1.0; z.T[::-2, 1] = y; sum(sin(z))",
        &[3, 4],
        &[2],
    ),
    // Augmented assignment: buffered (a repeated index applies once).
    (
        "op= int array",
        "z = x * 1.0; z[array([0, 0, 2])] += y; sum(sin(z))",
        &[3, 4],
        &[3, 4],
    ),
    (
        "op= slice",
        "z = x * 1.0; z[1:, ::2] *= y; sum(sin(z))",
        &[3, 4],
        &[2],
    ),
    (
        "op= mask",
        "z = x * 1.0; z[z > 0] *= y[0, 1]; sum(sin(z))",
        &[3, 4],
        &[2, 2],
    ),
    (
        "op= element",
        "z = x * 1.0; z[1, 2] -= y[1] * z[0, 0]; sum(sin(z))",
        &[3, 4],
        &[2],
    ),
    (
        "op= /= list, repeats",
        "z = x * 1.0; z[[2, 0, 2]] /= y * y + 1.0; sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "op= partial mask beside an int array",
        "z = x * 1.0; z[array([2, 0]), array([true, false, true, false])] -= y; sum(sin(z))",
        &[3, 4],
        &[2],
    ),
    (
        "op= 0-d bool",
        "z = x * 1.0; z[array(true)] *= y; z[false] += y; sum(sin(z))",
        &[3, 4],
        &[4],
    ),
    (
        "op= in place, seen by a view",
        "z = x * 1.0; v = z[0]; z += y; sum(sin(v)) + sum(z)",
        &[3, 4],
        &[4],
    ),
    // Unbuffered updates: every repeat applies.
    (
        "add_at",
        "z = x * 1.0; add_at(z, array([0, 0, 2]), y); sum(sin(z))",
        &[3, 4],
        &[3, 4],
    ),
    (
        "subtract_at, tuple index",
        "z = x * 1.0; subtract_at(z, (array([1, 1]), array([0, 3])), y); sum(sin(z))",
        &[3, 4],
        &[2],
    ),
];
