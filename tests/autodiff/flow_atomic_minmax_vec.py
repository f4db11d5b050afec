# Autodiff of wp.atomic_min and wp.atomic_max on vectors: Warp's rule for
# floats on each component, so v[k] gets adj_a[i][k] when v[k] is what
# a[i][k] holds after the launch (the winner of each component can be
# another thread's vector).
# kern-test: flow_atomic_minmax_vec --adjoint --dim 8 a='arange(float32,8)' lo='full(vec3,2,5.0)' hi='zeros(vec3,2)' adj_a='zeros(float32,8)' adj_lo='ones(vec3,2)' adj_hi='full(vec3,2,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def flow_atomic_minmax_vec(a: wp.array(dtype=float), lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i] * 0.25
    v = wp.vec3(wp.sin(x), x * x - 1.0, wp.cos(x * 2.0))
    wp.atomic_min(lo, i % 2, v)
    wp.atomic_max(hi, i % 2, v * 2.0)
