# Autodiff of wp.acos and wp.asin at |x| = 1, where the derivative is
# infinite: Warp's adjoint adds nothing there (its adj_acos/adj_asin add
# only where sqrt(1 - x^2) > 0), so the other terms' gradients stay finite.
# kern-test: bi_acos_edge --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8,2)' adj_a='zeros(float32,8)' adj_out='ones(float32,8,2)'
# why: thread 0's arguments are exactly 1 and -1; the others are inside (-1, 1)
# kern-check: adj_a rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_acos_edge(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1
    u = 1.0 - x * x
    out[i, 0] = wp.acos(u) + x * 2.0
    out[i, 1] = wp.asin(-u) * 0.5 + wp.acos(x * 0.5 - 0.2)
