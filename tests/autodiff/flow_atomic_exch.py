# Autodiff of wp.atomic_exch and wp.atomic_cas on floats: Warp 1.19's
# adjoints of both are empty, so the value exchanged gets no gradient and
# the arrays' adjoints are left as they were (not cleared); the other
# uses of x still get theirs.
# kern-test: flow_atomic_exch --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' out2='zeros(float32,6)' out3='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='full(float32,6,2.0)' adj_out2='full(float32,6,0.5)' adj_out3='ones(float32,6)'
# kern-check: adj_a
# kern-check: adj_out
# kern-check: adj_out2
import warp as wp


@wp.kernel
def flow_atomic_exch(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float), out3: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    wp.atomic_exch(out, i, x * 2.0)
    wp.atomic_cas(out2, i, 0.0, x * x)
    out3[i] = wp.sin(x) * 3.0
