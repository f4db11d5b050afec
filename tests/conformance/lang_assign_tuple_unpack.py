# Tuple assignment: a, b = b, a (swap), a, b, c = x, y, z with expressions, unpacking a
# multi-valued @wp.func, rotation of three variables, and names rebound from their own
# old values in one statement.
# kern-test: lang_assign_tuple_unpack --dim 5 x='rand(float,5,seed=631)' k='rand(int32,5,seed=632)' out='zeros(float,5,6)' oi='zeros(int32,5,3)'
# kern-check: out
# kern-check: oi
import warp as wp


@wp.func
def sum_diff(a: float, b: float):
    return a + b, a - b


@wp.kernel
def lang_assign_tuple_unpack(x: wp.array(dtype=float), k: wp.array(dtype=int), out: wp.array2d(dtype=float),
                             oi: wp.array2d(dtype=int)):
    i = wp.tid()
    a = x[i]
    b = float(i)
    a, b = b, a
    out[i, 0] = a
    out[i, 1] = b
    p, q, r = a * 2.0, b + 1.0, a - b
    s, d = sum_diff(p, q)
    out[i, 2] = r
    out[i, 3] = s
    out[i, 4] = d
    u = k[i]
    v = u + 1
    w = u * 2
    u, v, w = v, w, u
    oi[i, 0] = u
    oi[i, 1] = v
    oi[i, 2] = w
    f, g = sum_diff(x[i], 1.0)
    f, g = g, f
    out[i, 5] = f * 10.0 + g
