# The call forms of operators and constructors (Warp registers each under a
# name): wp.bit_and/bit_or/bit_xor/lshift/rshift/invert on scalars and integer
# vectors, wp.floordiv on ints and floats, wp.pos, wp.unot on bool and ints,
# wp.float/wp.int, wp.div_approx (exact division, as Warp's CPU build), and
# the generic constructors wp.vector (components, broadcast with length=,
# zero with length= and dtype=, int and float64 components, conversion),
# wp.matrix (shape=, zero), wp.quaternion (x, y, z, w / ijk and real / zero /
# conversion), wp.quat(ijk, real) and wp.quatd(ijk, real), and
# wp.transformation (p, q / 7 components).
# kern-test: builtin_op_calls --dim 6 a='arange(int32,6)' f='rand(float32,6,seed=3)' vi='rand(vec3i,6,seed=4)' oi='zeros(int32,6,12)' of='zeros(float32,6,10)' ov='zeros(vec3i,6,6)' ofv='zeros(vec3,6,3)' om='zeros(mat22,6,2)' oq='zeros(float64,6,12)'
# kern-check: oi
# kern-check: of
# kern-check: ov
# kern-check: ofv
# kern-check: om
# kern-check: oq
import warp as wp


@wp.kernel
def builtin_op_calls(a: wp.array(dtype=int), f: wp.array(dtype=float), vi: wp.array(dtype=wp.vec3i),
                     oi: wp.array2d(dtype=int), of: wp.array2d(dtype=float), ov: wp.array2d(dtype=wp.vec3i),
                     ofv: wp.array2d(dtype=wp.vec3), om: wp.array2d(dtype=wp.mat22), oq: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = a[i] * 7 - 13
    oi[i, 0] = wp.bit_and(x, 6)
    oi[i, 1] = wp.bit_or(x, 6)
    oi[i, 2] = wp.bit_xor(x, 6)
    oi[i, 3] = wp.lshift(x, 2)
    oi[i, 4] = wp.rshift(x, 1)
    oi[i, 5] = wp.invert(x)
    oi[i, 6] = wp.floordiv(x, -4)
    oi[i, 7] = wp.pos(x)
    oi[i, 8] = wp.where(wp.unot(x - 8), 1, 0)
    oi[i, 9] = wp.where(wp.unot(x > 0), 5, 9)
    oi[i, 10] = wp.int(f[i] * 10.0)
    oi[i, 11] = int(wp.rshift(wp.uint32(x), wp.uint32(3)))
    of[i, 0] = wp.float(x)
    of[i, 1] = wp.floordiv(f[i] * 10.0, 0.75)
    of[i, 2] = wp.pos(f[i])
    of[i, 3] = wp.div_approx(f[i], 3.0)
    of[i, 4] = wp.div_approx(wp.vec2(f[i], 1.0), 4.0)[0]
    of[i, 5] = wp.div_approx(2.0, wp.vec2(f[i], 1.0))[0]
    q = wp.quaternion(1.0, 2.0, 3.0, f[i])
    q2 = wp.quaternion(wp.vec3(1.0, 2.0, 3.0), f[i])
    t = wp.transformation(wp.vec3(1.0, f[i], 3.0), q)
    t2 = wp.transformation(1.0, 2.0, f[i], 0.0, 0.0, 0.0, 1.0)
    of[i, 6] = q2[3] + t[6] + t2[2] + t[1]
    z = wp.quaternion(dtype=wp.float32)
    of[i, 7] = z[0] + z[3]
    of[i, 8] = wp.transform_point(t2, wp.vec3(1.0, 1.0, 1.0))[2]
    q3 = wp.quat(wp.vec3(1.0, f[i], 3.0), 0.5)
    q4 = wp.quatd(wp.vec3d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0)), wp.float64(f[i]))
    of[i, 7] = of[i, 7] + q3[1] + q3[3] + float(q4[3])
    of[i, 9] = wp.quaternion(wp.quatd(wp.float64(1.0), wp.float64(0.0), wp.float64(0.0), wp.float64(f[i])), dtype=wp.float32)[3]
    v = vi[i]
    w = wp.vec3i(3, 5, 6)
    ov[i, 0] = wp.bit_and(v, w)
    ov[i, 1] = wp.bit_or(v, w)
    ov[i, 2] = wp.bit_xor(v, w)
    ov[i, 3] = wp.lshift(v, wp.vec3i(1, 2, 3))
    ov[i, 4] = wp.rshift(v, wp.vec3i(1, 2, 3))
    ov[i, 5] = wp.invert(v) + wp.vector(1, 2, 3)
    ofv[i, 0] = wp.vector(1.0, 2.0, f[i])
    ofv[i, 1] = wp.vector(f[i], length=3)
    ofv[i, 2] = wp.vector(length=3, dtype=wp.float32) + wp.vector(wp.vec3d(wp.float64(f[i]), wp.float64(2.0), wp.float64(3.0)), dtype=wp.float32)
    om[i, 0] = wp.matrix(1.0, 2.0, 3.0, f[i], shape=(2, 2))
    om[i, 1] = wp.matrix(shape=(2, 2), dtype=wp.float32) + wp.matrix(f[i], shape=(2, 2))
    d = wp.vector(1.0, 2.0, 0.5, dtype=wp.float64)
    oq[i, 0] = d[0] + d[2]
    td = wp.transformation(wp.vec3d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0)), wp.quatd(wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(1.0)))
    for k in range(7):
        oq[i, 1 + k] = td[k]
    qd = wp.quaternion(1.0, 2.0, 3.0, 4.0, dtype=wp.float64)
    for k in range(4):
        oq[i, 8 + k] = qd[k]
