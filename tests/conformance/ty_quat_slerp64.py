# wp.quat_slerp in float64 between random unit quatd values at several
# parameters, and the slerp result's length.
# kern-test: ty_quat_slerp64 --dim 12 a='rand(float64,12,8,seed=106)' out='zeros(float64,12,9)'
# why: slerp goes through acos and sin of the platform in double
# kern-check: out rtol=1e-12 atol=1e-13
import warp as wp


@wp.kernel
def ty_quat_slerp64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    q = wp.normalize(wp.quatd(a[i, 0] - h, a[i, 1] - h, a[i, 2] - h, a[i, 3] - h))
    r = wp.normalize(wp.quatd(a[i, 4] - h, a[i, 5] - h, a[i, 6] - h, a[i, 7] - h))
    t = wp.float64(i) / wp.float64(11.0)
    s = wp.quat_slerp(q, r, t)
    u = wp.quat_slerp(r, q, wp.float64(0.8))
    for k in range(4):
        out[i, k] = s[k]
        out[i, 4 + k] = u[k]
    out[i, 8] = wp.length(s)
