# Autodiff through if/elif/else: the gradient follows the branch taken,
# a variable reassigned in one branch only, and a ternary.
# kern-test: branch --adjoint --dim 12 a='arange(float32,12)' out='zeros(float32,12)' adj_a='zeros(float32,12)' adj_out='full(float32,12,2)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def branch(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] - 5.0
    y = x * 2.0
    if x > 2.0:
        y = x * x
    elif x < -2.0:
        y = -x * x * x
    else:
        z = wp.sin(x)
        y = y * z
    if i % 3 == 0:
        y = y + x * 10.0
    w = x if x > 0.0 else 3.0 * x
    out[i] = y * w
