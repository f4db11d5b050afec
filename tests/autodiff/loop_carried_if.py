# Warp's loop-carried variables in full (Note [adjoint]): in the body a
# reassigned variable is read at its new value until the body ends, where
# the carried local takes the body's last version; one is reassigned
# under an if (joined with Warp's wp.where).  Warp 1.19's gradient, which
# is not the derivative for the products here, and kern's are the same.
# kern-test: loop_carried_if --adjoint --dim 4 a='arange(float32,4)' out='zeros(float32,4)' n=3 adj_a='zeros(float32,4)' adj_out='ones(float32,4)' adj_n=0
# kern-check: adj_a
import warp as wp


@wp.kernel
def loop_carried_if(a: wp.array(dtype=float), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = a[i] * 0.5 + 1.0
    s = float(1.0)
    u = float(0.0)
    for j in range(n):
        s = s * x
        u = u + s * s
        if s > 3.0:
            s = s * 0.5
    out[i] = s + u
