# Autodiff through quaternions and transforms (their expansion into scalar
# operations) and a loop unrolled by wp.static.  (wp.quat_from_axis_angle:
# spatial_extra.py.)
# kern-test: quat_xform --adjoint --dim 4 p='arange(vec3,4)' ang='arange(float32,4)' out='zeros(vec3,4)' adj_p='zeros(vec3,4)' adj_ang='zeros(float32,4)' adj_out='full(vec3,4,1)'
# why: rotations composed in float32
# kern-check: adj_p rtol=1e-5 atol=1e-5
# kern-check: adj_ang rtol=1e-5 atol=1e-5
import warp as wp

N = wp.constant(3)


@wp.kernel
def quat_xform(p: wp.array(dtype=wp.vec3), ang: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    q = wp.normalize(wp.quat(ang[i] * 0.3, 0.2, -0.1, 1.0))
    v = p[i] * 0.1
    for k in range(wp.static(N)):
        v = wp.quat_rotate(q, v) + wp.vec3(0.1, 0.0, 0.0)
    t = wp.transform(wp.vec3(1.0, 0.0, 2.0), q)
    out[i] = wp.transform_point(t, v) + wp.quat_rotate_inv(q * q, v)
