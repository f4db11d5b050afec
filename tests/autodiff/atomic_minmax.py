# Autodiff of wp.atomic_min and wp.atomic_max on floats: the value that
# the array holds after the launch takes the gradient (Warp's
# adj_atomic_minmax), a tie giving it to every thread that wrote it.
# kern-test: atomic_minmax --adjoint --dim 8 a='arange(float32,8)' lo='full(float32,2,100)' hi='full(float32,2,-100)' adj_a='zeros(float32,8)' adj_lo='full(float32,2,2)' adj_hi='full(float32,2,3)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def atomic_minmax(a: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] - 3.5
    wp.atomic_min(lo, i % 2, x * x)
    wp.atomic_max(hi, i % 2, wp.sin(x))
    wp.atomic_max(hi, 0, wp.float32(1.5) * wp.float32(i % 2))
