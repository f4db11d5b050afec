# Warp's semantics for a variable reassigned in a dynamic loop (Note
# [adjoint]): the adjoint's replay skips the loop, so after it the
# variable keeps its value from before the loop, and each reverse
# iteration replays the body on the variable's current value.  That is
# not the derivative for products (3 a^2 would be exact), but it is what
# Warp 1.19 computes, and kern computes the same.
# kern-test: loop_carried --adjoint --dim 3 a='arange(float32,3)' out='zeros(float32,3)' out2='zeros(float32,3)' n=3 adj_a='zeros(float32,3)' adj_out='ones(float32,3)' adj_out2='full(float32,3,0.5)' adj_n=0
# The second kernel, loop_carried_if (a variable read after its
# reassignment in the body, and reassigned under an if), is checked by
# loop_carried_if.py.
# kern-check: adj_a
import warp as wp


@wp.kernel
def loop_carried(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = a[i] + 2.0
    s = float(1.0)
    for j in range(n):
        s = s * x
    out[i] = s
    out2[i] = s * x
