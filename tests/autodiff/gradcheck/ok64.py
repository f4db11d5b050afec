# kern gradcheck inputs (tests/autodiff/gradcheck.sh): float64 kernels
# whose adjoint and tangent are the derivative, so the check passes.
import warp as wp


@wp.func
def soft(x: wp.float64, k: wp.float64):
    return wp.log(wp.float64(1.0) + wp.exp(k * x)) / k


@wp.kernel
def mix(x: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec3d), s: wp.float64, out: wp.array(dtype=wp.float64), acc: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * s
    if a > wp.float64(0.9):
        a = wp.sin(a) * x[i]
    else:
        a = soft(a, wp.float64(2.0))
    p = v[i]
    out[i] = a * wp.length(p) + wp.dot(p, wp.vec3d(s, x[i], wp.float64(1.0)))
    wp.atomic_add(acc, 0, wp.sqrt(x[i]) * s)


@wp.kernel
def sumsq(x: wp.array(dtype=wp.float64), n: int, out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    t = wp.float64(0.0)
    for j in range(n):
        t = t + x[j] * x[i]
    out[i] = t


@wp.kernel
def erfk(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = wp.erf(x[i])
