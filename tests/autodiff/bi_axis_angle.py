# Autodiff of quat_to_axis_angle (both results, q.w of both signs).
# kern-test: bi_axis_angle --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,2)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,2)'
# why: Warp's adj_quat_to_axis_angle is the derivative of the normalised (flipped) vector part and of 2 atan2(|v|, |w|) where |v| > 0
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_axis_angle(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.25 - 1.0
    p = v[i] - wp.vec3(0.5)
    q = wp.quat(p[0], p[1] * x, p[2] + 0.1, x)
    axis, angle = wp.quat_to_axis_angle(q)
    out[i, 0] = axis[0] + axis[1] * 2.0 + axis[2] * 3.0
    out[i, 1] = angle * (1.0 + x)
