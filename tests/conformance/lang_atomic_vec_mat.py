# Atomics on vector and matrix arrays: atomic_add/atomic_sub of vec3, vec2d and mat22
# (component-wise), atomic_min/atomic_max of vec3 (component-wise), many threads onto
# few elements with values that add exactly.
# kern-test: lang_atomic_vec_mat --dim 12 k='rand(int32,12,seed=671)' v='zeros(vec3,3)' d='zeros(vec2d,3)' m='zeros(mat22,3)' lo='full(vec3,2,50)' hi='zeros(vec3,2)'
# kern-check: v
# kern-check: d
# kern-check: m
# kern-check: lo
# kern-check: hi
import warp as wp


@wp.kernel
def lang_atomic_vec_mat(k: wp.array(dtype=int), v: wp.array(dtype=wp.vec3), d: wp.array(dtype=wp.vec2d),
                        m: wp.array(dtype=wp.mat22), lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    j = i % 3
    a = float(k[i])
    wp.atomic_add(v, j, wp.vec3(a, 1.0, -a))
    wp.atomic_sub(v, (j + 1) % 3, wp.vec3(0.5, 0.0, 1.0))
    wp.atomic_add(d, j, wp.vec2d(wp.float64(a) * wp.float64(0.125), wp.float64(i)))
    wp.atomic_add(m, j, wp.mat22(a, 1.0, 2.0, a * 0.5))
    w = wp.vec3(a, 100.0 - a, float(i))
    wp.atomic_min(lo, i % 2, w)
    wp.atomic_max(hi, i % 2, w)
