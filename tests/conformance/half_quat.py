# float16 quaternions and transforms (wp.quath, wp.transformh): Warp's
# quat.h and spatial.h formulas are templates, so every product and sum is
# rounded to float16 in order (quat_rotate, the Hamilton product,
# normalize, transform_point ...); kern rounds the same steps.  (kern run
# takes no arrays of quaternions yet: they travel as vec4h.)
# kern-test: half_quat --dim 8 q='rand(vec4h,8,seed=51)' p='rand(vec3h,8,seed=52)' qo='zeros(vec4h,8,4)' vo='zeros(vec3h,8,5)'
# kern-check: qo
# kern-check: vo
import warp as wp


@wp.func
def as_vec(q: wp.quath) -> wp.vec4h:
    return wp.vec4h(q[0], q[1], q[2], q[3])


@wp.kernel
def half_quat(q: wp.array(dtype=wp.vec4h), p: wp.array(dtype=wp.vec3h),
              qo: wp.array2d(dtype=wp.vec4h), vo: wp.array2d(dtype=wp.vec3h)):
    i = wp.tid()
    v = q[i]
    a = wp.quath(v[0], v[1], v[2], v[3]) * wp.float16(2.0)
    b = wp.quath(a.x, a.y, wp.float16(-0.5), a[3])
    qo[i, 0] = as_vec(a + b)
    qo[i, 1] = as_vec(b - wp.quat_identity(dtype=wp.float16))
    qo[i, 2] = as_vec(a * b)
    r = wp.normalize(wp.quath(v[0], v[1], v[2], v[3]) - wp.quath(wp.float16(0.5), wp.float16(0.5), wp.float16(0.5), wp.float16(0.0)))
    qo[i, 3] = as_vec(wp.quat_inverse(r))
    vo[i, 0] = wp.quat_rotate(r, p[i])
    vo[i, 1] = wp.quat_rotate_inv(r, p[i])
    t = wp.transformh(p[(i + 1) % 8], r)
    vo[i, 2] = wp.transform_point(t, p[i])
    vo[i, 3] = wp.transform_get_translation(wp.transform_inverse(t))
    u = wp.transform_multiply(t, wp.transformh(p[i], wp.normalize(a)))
    vo[i, 4] = wp.transform_vector(u, p[(i + 2) % 8]) + wp.transform_get_translation(u)
