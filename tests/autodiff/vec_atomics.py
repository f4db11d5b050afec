# Autodiff of atomics on vector arrays (wp.atomic_add, wp.atomic_sub of a
# vec3, which the expansion assigns to an unused temporary) on a 2-d
# launch with a 2-d array.
# kern-test: vec_atomics --adjoint --dim 2,3 v='arange(vec3,2)' acc='zeros(vec3,2)' out='zeros(float32,2,3)' adj_v='zeros(vec3,2)' adj_acc='full(vec3,2,1)' adj_out='ones(float32,2,3)'
# why: sums of float32 products of different orders
# kern-check: adj_v rtol=1e-5 atol=1e-5
import warp as wp


@wp.kernel
def vec_atomics(v: wp.array(dtype=wp.vec3), acc: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = v[i] * float(j + 1)
    wp.atomic_add(acc, 0, x * 2.0)
    wp.atomic_sub(acc, i, wp.cross(x, wp.cw_mul(x, x)))
    out[i, j] = wp.length(x)
