# Several results of vector and matrix type (`return v * x, m, s`),
# returned from both branches of an if, and a scalar result beside them:
# each component's adjoint flows back through its return (Note [several
# results] in src/ir/adjoint.c).
# kern-test: multi_vecmat --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.func
def parts(x: float, v: wp.vec3):
    m = wp.outer(v, v) * x
    if x > 1.0:
        return v * x, m, wp.length(v) * x
    return wp.normalize(v) + v * (x * x), m * 2.0, wp.dot(v, v)


@wp.kernel
def multi_vecmat(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.4 + 0.2
    p, m, q = parts(x, wp.vec3(x, 1.0, x * 2.0))
    r = m * p
    out[i] = wp.dot(p, p) * q + r[1] - m[0, 2] * x
