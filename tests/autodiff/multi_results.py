# A @wp.func with several results (`return a, b`, called as `p, q =
# f(...)`), returned from inside branches (a guard and an if/else), a
# function of several results calling another, and one whose first
# result is discarded: each result's adjoint flows back through the
# return that produced it (Note [several results] in src/ir/adjoint.c).
# kern-test: multi_results --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='full(float32,8,2)'
# kern-check: adj_a
import warp as wp


@wp.func
def two(x: float, y: float):
    if x > 2.0:
        return x * y, wp.sin(x)
    if x > 1.0:
        z = x * x
        return z * y, z - y
    else:
        w = wp.exp(x * 0.5)
        return x + y, w * y
    return 0.0, 0.0


@wp.func
def three(x: float):
    s, c = two(x, x * 0.25 + 1.0)
    return s * c, s + c, x * 3.0


@wp.kernel
def multi_results(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.45 + 0.1
    p, q = two(x, x * 3.0)
    u, v, w = three(q)
    r, t = two(w, p)
    out[i] = p * q + u * v - w * t + r * 0.0 + t
