# Autodiff of transform_decompose (math.py's body: column lengths, the
# columns divided by them, quat_from_matrix).
# kern-test: bi_decompose --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,3)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,3)'
# why: Warp differentiates math.py's transform_decompose through sqrt, the divisions where the length is not zero, and adj_quat_from_matrix
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_decompose(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.01
    p = v[i] - wp.vec3(0.5)
    k = i % 4
    b = wp.quat(wp.where(k == 1, 1.0, 0.0), wp.where(k == 2, 1.0, 0.0), wp.where(k == 3, 1.0, 0.0), wp.where(k == 0, 1.0, 0.1))
    q = wp.normalize(b + wp.quat(p[0], p[1], p[2], x) * 0.1)
    sz = 0.8 + x
    m = wp.transform_compose(p * 2.0, q, wp.vec3(1.0 + p[1], 1.5 - x, sz))
    m = m + wp.mat44(0.0, x * 0.1, 0.0, 0.0, p[2] * 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    t, r, s = wp.transform_decompose(m)
    out[i, 0] = t[0] + t[1] * 2.0 + t[2] * 3.0
    out[i, 1] = r[0] - r[1] * 2.0 + r[2] * 0.5 + r[3] * 3.0
    out[i, 2] = s[0] + s[1] * 2.0 + s[2] * 3.0
