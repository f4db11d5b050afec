# Autodiff of the vector norms and rigid-body helpers the expansion
# (src/ir/expand.c) writes out: norm_l1, norm_huber (both branches),
# norm_pseudo_huber, smooth_normalize, velocity_at_point, transform_twist,
# transform_wrench.
# kern-test: vec_extra --adjoint --dim 12 a='arange(float32,12)' v='rand(vec3,12)' out='zeros(float32,12,5)' adj_a='zeros(float32,12)' adj_v='zeros(vec3,12)' adj_out='ones(float32,12,5)'
# why: Warp differentiates its math.py @wp.funcs for these; kern's expansion gives the same gradient
# kern-check: adj_a rtol=5e-5 atol=1e-5
# kern-check: adj_v rtol=5e-5 atol=1e-5
import warp as wp


@wp.kernel
def vec_extra(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1 + 0.2
    p = v[i] - wp.vec3(0.5, 0.4, 0.3)
    out[i, 0] = wp.norm_l1(p * x) + wp.norm_huber(p, x) + wp.norm_huber(p * 3.0)
    out[i, 1] = wp.norm_pseudo_huber(p, x + 0.1) * 2.0 + wp.dot(wp.smooth_normalize(p, x), wp.vec3(1.0, 2.0, 3.0))
    s = wp.spatial_vector(x, p[0], p[1], p[2] * x, 0.5, x * x)
    out[i, 2] = wp.dot(wp.velocity_at_point(s, p), wp.vec3(1.0, -2.0, 0.5))
    q = wp.normalize(wp.quat(p[0], x, p[2], 1.0))
    t = wp.transform(p * 2.0, q)
    w = wp.transform_twist(t, s)
    out[i, 3] = w[0] + w[1] * 2.0 + w[2] * 3.0 + w[3] * 4.0 + w[4] * 5.0 + w[5] * 6.0
    f = wp.transform_wrench(t, s * x)
    out[i, 4] = f[0] * 6.0 - f[1] + f[2] * 0.5 + f[3] * 2.0 + f[4] + f[5] * 3.0
