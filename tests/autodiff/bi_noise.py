# Autodiff of wp.noise in 1 to 4 dimensions (Note [noise adjoints] in
# src/ir/adjoint.c): Warp's adjoint adds the analytic gradient of the
# blended field at the coordinate; the seed, an integer, gets none.
# Coordinates span several cells on both sides of 0, the seeds vary per
# thread, and the outputs' seeds are random so each term is weighted.
# kern-test: bi_noise --adjoint --dim 16 a='rand(float32,16,seed=261)' p2='rand(vec2,16,seed=262)' p3='rand(vec3,16,seed=263)' p4='rand(vec4,16,seed=264)' out='zeros(float32,16,5)' adj_a='zeros(float32,16)' adj_p2='zeros(vec2,16)' adj_p3='zeros(vec3,16)' adj_p4='zeros(vec4,16)' adj_out='rand(float32,16,5,seed=265)'
# kern-check: adj_a
# kern-check: adj_p2
# kern-check: adj_p3
# kern-check: adj_p4
import warp as wp


@wp.kernel
def bi_noise(
    a: wp.array(dtype=float),
    p2: wp.array(dtype=wp.vec2),
    p3: wp.array(dtype=wp.vec3),
    p4: wp.array(dtype=wp.vec4),
    out: wp.array2d(dtype=float),
):
    i = wp.tid()
    s = wp.rand_init(1234, i)
    x = (a[i] - 0.5) * 4.0
    out[i, 0] = wp.noise(s, x) + wp.noise(wp.rand_init(7), x * 0.5) * x
    out[i, 1] = wp.noise(s, (p2[i] - wp.vec2(0.5, 0.5)) * 3.0)
    q = (p3[i] - wp.vec3(0.5, 0.5, 0.5)) * 3.0
    out[i, 2] = wp.noise(s, q) * wp.noise(wp.rand_init(i * 3 + 1), wp.vec3(q[2], q[0], -q[1]))
    out[i, 3] = wp.noise(s, (p4[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 3.0)
    out[i, 4] = wp.noise(wp.rand_init(99, i), wp.vec4(x, q[0], q[1], 0.25))
