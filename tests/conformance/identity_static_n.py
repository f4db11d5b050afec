# wp.identity with n known at compile time but not a literal: wp.static()
# of module-level constants, and a wp.constant.
# kern-test: identity_static_n --dim 2 out='zeros(float32,2)'
# kern-check: out
import warp as wp

N = 2
M = wp.constant(4)


@wp.kernel
def identity_static_n(out: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.identity(n=wp.static(N + 1), dtype=float)
    b = wp.identity(M, dtype=float)
    c = wp.identity(wp.static(N), float)
    out[i] = wp.ddot(a, a) * float(i + 1) + wp.trace(b) * 10.0 + c[1, 1] * 100.0
