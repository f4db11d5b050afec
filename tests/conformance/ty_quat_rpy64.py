# Roll-pitch-yaw in float64: wp.quat_rpy from three float64 angles (Warp has
# no float64 quat_to_rpy), its rotation matrix and the product of two.
# kern-test: ty_quat_rpy64 --dim 10 a='rand(float64,10,3,seed=107)' out='zeros(float64,10,13)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_quat_rpy64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    s = wp.float64(4.0)
    q = wp.quat_rpy((a[i, 0] - wp.float64(0.5)) * s, (a[i, 1] - wp.float64(0.5)) * s, (a[i, 2] - wp.float64(0.5)) * s)
    m = wp.quat_to_matrix(q)
    r = q * wp.quat_rpy(a[i, 2], a[i, 1], a[i, 0])
    for k in range(4):
        out[i, k] = q[k]
        out[i, 4 + k] = r[k]
    for k in range(3):
        out[i, 8 + k] = m[k, (k + 1) % 3]
    out[i, 11] = m[0, 0]
    out[i, 12] = m[2, 2]
