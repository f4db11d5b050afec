# Autodiff through a 2-d array of structs: a whole element copied into a
# struct local, changed and stored back whole (b[i, j] = s), then one of
# its fields stored again (b[i, j].x = ...): the later store takes and
# clears adj_b[i, j].x first, so the whole store passes s.x a zero
# gradient, as Warp's adjoint does.
# why: products and a sine, float32
# kern-test: aos_2d --adjoint --dim 2,3 a='rand(Q,2,3,seed=5)' b='zeros(Q,2,3)' adj_a='zeros(Q,2,3)' adj_b='rand(Q,2,3,seed=6)'
# kern-check: adj_a rtol=1e-5 atol=1e-5
# kern-check: adj_b rtol=1e-5 atol=1e-5
import warp as wp


@wp.struct
class Q:
    x: float
    v: wp.vec2


@wp.kernel
def aos_2d(a: wp.array2d(dtype=Q), b: wp.array2d(dtype=Q)):
    i, j = wp.tid()
    s = a[i, j]
    s.v = s.v * s.x
    b[i, j] = s
    b[i, j].x = wp.sin(a[i, j].v[1])
