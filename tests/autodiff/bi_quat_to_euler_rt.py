# Autodiff of quat_to_euler with axes computed at run time (Note [runtime
# euler axes]): the 12 sequences (Tait-Bryan and proper), each on a
# general rotation (rows 0-11) and on a rotation about its first axis
# (rows 12-23: a proper sequence's middle angle is then 0, the case taken
# near 0), math.py's body with its branches on the axes taken at run time.
# kern-test: bi_quat_to_euler_rt --adjoint --dim 24 a='arange(float32,24)' v='rand(vec3,24)' out='zeros(float32,24)' adj_a='zeros(float32,24)' adj_v='zeros(vec3,24)' adj_out='ones(float32,24)'
# why: Warp differentiates math.py's quat_to_euler: acos and two atan2 of sums of the components
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_quat_to_euler_rt(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    t = wp.tid()
    s = t % 12
    i = s % 3
    j = (i + 1 + (s // 3) % 2) % 3
    k = 3 - i - j
    if s >= 6:
        k = i
    x = a[t] * 0.05 - 0.6
    p = v[t] - wp.vec3(0.5)
    q = wp.normalize(wp.quat(p[0] + x, p[1], p[2] * x, 1.0 + p[0] * 0.5))
    if t >= 12:
        y = x * 0.5 + p[1] * 0.1
        sy = wp.sin(y)
        q = wp.quat(wp.where(i == 0, sy, 0.0), wp.where(i == 1, sy, 0.0), wp.where(i == 2, sy, 0.0), wp.cos(y))
    e = wp.quat_to_euler(q, i, j, k)
    out[t] = e[0] + e[1] * 2.0 - e[2] * 0.5
