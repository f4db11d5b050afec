# Argument unpacking with '*' where the count is known when the kernel is
# compiled, as Warp's test_unpack.py writes it: vectors, quaternions, matrices
# (by rows), vector and matrix slices, 1-d array slices with constant bounds,
# mixed with other arguments, into constructors, builtins and @wp.func calls,
# and the value of a call unpacked once.
# kern-test: corpus_star_unpack --dim 4 a='arange(float32,16)' out='zeros(float32,4,8)'
# kern-check: out
import warp as wp


@wp.func
def add3(x: float, y: float, z: float) -> float:
    return x + 2.0 * y + 3.0 * z


@wp.func
def scaled(v: wp.vec3, s: float) -> wp.vec3:
    return v * s


@wp.kernel
def corpus_star_unpack(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = wp.vec3(a[i], a[i + 1], a[i + 2])
    v4 = wp.vec4(*v, 4.0)
    out[i, 0] = v4[3] + v4[0]
    out[i, 1] = add3(*v)
    out[i, 2] = wp.max(*a[2:4])
    w = wp.vec3(*a[0:6:2])
    out[i, 3] = w[2] - w[1]
    m = wp.mat22(1.0, 2.0, a[i], 4.0)
    r = wp.matrix_from_rows(*m)
    out[i, 4] = r[1, 0]
    q = wp.quat(0.0, 0.0, 0.0, 1.0)
    u = wp.vec4(*q)
    out[i, 5] = u[3] + wp.vec2(*v[1:3])[1]
    out[i, 6] = add3(*scaled(v, 2.0))
    out[i, 7] = add3(1.0, *wp.vec2(a[i], 5.0))
