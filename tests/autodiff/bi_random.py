# Autodiff through Warp's random vectors: a vector drawn from an rng state
# (sample_unit_*, sample_triangle) is a constant, as in Warp 1.19, so only
# the float it multiplies gets a gradient (the sample's components).
# kern-test: bi_random --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8,4)' adj_a='zeros(float32,8)' adj_out='ones(float32,8,4)'
# why: Warp's adjoint of a sample from an rng state adds nothing; the product's rule gives a the sample's components
# kern-check: adj_a rtol=2e-6 atol=1e-6
import warp as wp


@wp.kernel
def bi_random(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.25 + 0.5
    state = wp.rand_init(42, i)
    p = wp.sample_unit_sphere_surface(state) * x
    q = wp.sample_unit_disk(state) * x
    r = wp.sample_unit_cube(state) * (x * x)
    s = wp.sample_triangle(state)
    h = wp.sample_unit_hemisphere(state)
    u = wp.sample_unit_ring(state)
    out[i, 0] = p[0] + p[1] * 2.0 + p[2] * 3.0 + wp.dot(q, u) * x
    out[i, 1] = r[0] - r[1] + r[2] + s[0] * x + s[1] * x * x
    out[i, 2] = wp.dot(h, wp.sample_unit_sphere(state)) * x + wp.dot(wp.sample_unit_square(state), wp.vec2(x, 1.0))
    out[i, 3] = wp.length(wp.sample_unit_hemisphere_surface(state) * x)
