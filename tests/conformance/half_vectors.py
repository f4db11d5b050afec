# Vectors and matrices of float16 (wp.vec3h, wp.mat22h ...): arrays of
# them, construction, componentwise arithmetic, and the products Warp
# writes as chains of float16 operations (dot, length, cross, matrix
# times vector and matrix), each product and partial sum rounded.
# kern-test: half_vectors --dim 8 v='rand(vec3h,8,seed=5)' m='rand(mat22h,8,seed=6)' vout='zeros(vec3h,8,6)' mout='zeros(mat22h,8,2)' sout='zeros(float16,8,6)'
# kern-check: vout
# kern-check: mout
# kern-check: sout
import warp as wp


@wp.kernel
def half_vectors(v: wp.array(dtype=wp.vec3h), m: wp.array(dtype=wp.mat22h),
                 vout: wp.array2d(dtype=wp.vec3h), mout: wp.array2d(dtype=wp.mat22h),
                 sout: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    a = v[i] * wp.float16(10.0)
    b = v[(i + 3) % 8] - wp.vec3h(wp.float16(0.5), wp.float16(0.25), wp.float16(1.0))
    vout[i, 0] = a + b
    vout[i, 1] = wp.cross(a, b)
    vout[i, 2] = wp.normalize(a)
    vout[i, 3] = wp.lerp(a, b, wp.float16(0.75))
    c = wp.vec3h()
    c[1] = a.x * b.z
    c.z = wp.float16(7.0)
    vout[i, 4] = c
    vout[i, 5] = wp.vec3h(wp.vec3(1.0, 2.5, -3.3))
    p = m[i] * wp.float16(3.0)
    q = wp.mat22h(wp.float16(1.5), b.x, a.y, wp.float16(-2.0))
    mout[i, 0] = p * q
    mout[i, 1] = wp.transpose(p) + q
    w = wp.vec2h(a.x, b.y)
    sout[i, 0] = wp.dot(a, b)
    sout[i, 1] = wp.length(a)
    sout[i, 2] = wp.length_sq(b)
    sout[i, 3] = (p * w)[0] + (w * p)[1]
    sout[i, 4] = wp.trace(p)
    sout[i, 5] = wp.float16(wp.vec3(a)[2] * 0.5)
