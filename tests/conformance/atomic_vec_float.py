# atomic_add on vector elements and float64, with exactly representable values (order-independent sums).
# kern-test: atomic_vec_float --dim 48 v='zeros(vec3,2)' d='zeros(float64,3)' m='zeros(mat22,1)'
# kern-check: v
# kern-check: d
# kern-check: m
import warp as wp


@wp.kernel
def atomic_vec_float(v: wp.array(dtype=wp.vec3), d: wp.array(dtype=wp.float64), m: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    wp.atomic_add(v, i % 2, wp.vec3(1.0, 0.5, float(i)))
    wp.atomic_sub(d, i % 3, wp.float64(i) * wp.float64(0.25))
    wp.atomic_add(m, 0, wp.mat22(1.0, float(i), -2.0, 0.125))
