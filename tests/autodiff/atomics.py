# Autodiff of array writes: wp.atomic_add, wp.atomic_sub, a[i] += v, a
# store, and an integer atomic (no gradient).
# kern-test: atomics --adjoint --dim 6 a='arange(float32,6)' total='zeros(float32,1)' acc='zeros(float32,6)' out='zeros(float32,6)' cnt='zeros(int32,1)' adj_a='zeros(float32,6)' adj_total='full(float32,1,3)' adj_acc='arange(float32,6)' adj_out='ones(float32,6)' adj_cnt='zeros(int32,1)'
# kern-check: adj_a
# kern-check: adj_out
import warp as wp


@wp.kernel
def atomics(a: wp.array(dtype=float), total: wp.array(dtype=float), acc: wp.array(dtype=float), out: wp.array(dtype=float), cnt: wp.array(dtype=wp.int32)):
    i = wp.tid()
    x = a[i]
    wp.atomic_add(total, 0, x * x)
    acc[i] += 2.0 * x
    wp.atomic_sub(acc, i, wp.sin(x))
    out[i] = x * 3.0
    wp.atomic_add(cnt, 0, 1)
