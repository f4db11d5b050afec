# Autodiff through stores into single fields of an array of structs'
# elements, as Warp 1.19 differentiates them: a vector field stored whole
# (b[i].v = ...), one component of a vector field (b[i].w[1] = x), a
# matrix entry (b[i].m[1, 0] = x), an integer field (b[i].n = 5: its
# adjoint is cleared too) and b[i].a += y (the field read and stored
# again: y takes adj_b[i].a, which stays).
# kern-test: aos_fields --adjoint --dim 3 a='arange(P,3)' b='zeros(P,3)' out='zeros(float32,3)' adj_a='zeros(P,3)' adj_b='arange(P,3)' adj_out='ones(float32,3)'
# why: products, float32
# kern-check: adj_a rtol=1e-5 atol=1e-5
# kern-check: adj_b rtol=1e-5 atol=1e-5
import warp as wp


@wp.struct
class P:
    a: float
    n: int
    v: wp.vec3
    w: wp.vec2
    m: wp.mat22


@wp.kernel
def aos_fields(a: wp.array(dtype=P), b: wp.array(dtype=P), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i].a
    b[i].v = wp.vec3(x * x, 2.0 * a[i].w[0], 3.0)
    b[i].w[1] = x * a[i].v[2]
    b[i].m[1, 0] = 0.5 * a[i].m[0, 1]
    b[i].n = 5
    b[i].a += 4.0 * x
    out[i] = x * a[i].w[1]
