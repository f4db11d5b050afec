# Autodiff of float16 stores and atomics: a store's adjoint, wp.atomic_add
# and += into float16 arrays, in Warp's half precision.
# kern-test: half_atomic --adjoint --dim 8 a='arange(float16,8)' out='zeros(float16,8)' acc='zeros(float16,2)' adj_a='zeros(float16,8)' adj_out='ones(float16,8)' adj_acc='full(float16,2,0.5)'
# why: Warp's float16 adjoints of stores and atomics (adj_atomic_add reads the adjoint array at the index)
# kern-check: adj_a rtol=2e-3 atol=2e-3
import warp as wp


@wp.kernel
def half_atomic(a: wp.array(dtype=wp.float16), out: wp.array(dtype=wp.float16), acc: wp.array(dtype=wp.float16)):
    i = wp.tid()
    x = a[i] * wp.float16(0.1)
    out[i] = x * x + wp.cos(x)
    wp.atomic_add(acc, 0, x * wp.float16(3.0))
    acc[1] += wp.sin(x) * x
