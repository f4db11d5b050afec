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
def noisek(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = wp.float64(wp.noise(wp.uint32(7), wp.float32(x[i])))


# the error functions, copysign and mod (adjoint and tangent)
@wp.kernel
def erfs(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    u = x[i] * wp.float64(0.3) - wp.float64(0.1)
    out[i] = wp.erf(u) * y[i] + wp.erfc(y[i]) + wp.erfinv(u) * wp.erfcinv(u + wp.float64(1.0))
    out[i] += wp.copysign(u, y[i] - wp.float64(0.5)) * y[i] + wp.mod(y[i] * wp.float64(3.0), wp.float64(7.0))


# transform_set_translation_copy, transform_set_rotation_copy (Warp 1.19
# cannot build their adjoint, so no Warp golden: the derivative instead)
@wp.kernel
def xcopy(x: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec3d), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    p = v[i]
    t = wp.transformd(p, wp.quatd(wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(1.0)))
    t2 = wp.transform_set_translation_copy(t, p * x[i])
    t3 = wp.transform_set_rotation_copy(t2, wp.normalize(wp.quatd(x[i], p[2], wp.float64(0.3), wp.float64(1.0))))
    out[i] = wp.dot(wp.transform_point(t3, wp.vec3d(wp.float64(1.0), x[i], wp.float64(2.0))), p) + wp.transform_vector(t2, p)[1]


@wp.struct
class Fine:
    k: wp.float64


@wp.struct
class Frame:
    w: wp.float64
    p: wp.vec3d
    inner: Fine


@wp.func
def frame_energy(f: Frame, x: wp.float64):
    return f.w * x + wp.dot(f.p, f.p) * f.inner.k


@wp.kernel
def structk(x: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec3d), g: Frame, out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    f = Frame()
    f.w = x[i] * g.w
    f.p = v[i] * x[i] + g.p
    f.inner.k = wp.cos(x[i])
    h = f
    h.w = h.w * h.inner.k
    out[i] = frame_energy(h, x[i]) + frame_energy(f, g.inner.k)


# Warp's adjoint neither replays f.p[1] = x nor differentiates it: refused
@wp.kernel
def structcomp(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    f = Frame()
    f.p[1] = x[i]
    out[i] = f.p[1]


@wp.func
def fsum64(t: wp.array(dtype=wp.float64), c: wp.float64) -> wp.float64:
    s = wp.float64(0.0)
    for j in range(4):
        s += t[j] * c
    return s


# fixed-size local arrays whose values enter the result linearly (Note
# [adjoint fixed arrays]): Warp's adjoint is the derivative there
@wp.kernel
def fixed64(x: wp.array(dtype=wp.float64), n: int, out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    t = wp.zeros(shape=4, dtype=wp.float64)
    for k in range(3):
        t[k] = x[i] * x[(i + k) % 5]
    for k in range(n):
        t[k % 4] += wp.sin(x[k % 5]) * wp.float64(2.0)
    t[3] -= x[i]
    wp.atomic_add(t, 1, wp.exp(x[i]))
    out[i] = fsum64(t, wp.float64(3.0)) - t[2] * wp.float64(0.5)
