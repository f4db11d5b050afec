# Autodiff through stores into an array of structs: a field of an element
# (b[i].a = v), a nested struct field (b[i].inner = q), a whole element
# (c[i] = s, after s = a[i] and a change of one field) and an element
# copied from another array's (d[i] = a[i]).  Each store passes the
# gradient its fields hold in adj_b[i] (adj_c[i], adj_d[i]) to the
# stored values and clears those fields, as Warp's adjoint does under
# wp.Tape; the fields not stored keep theirs (adj_b[i].n, the seed
# of adj_b's fields not written).
# kern-test: aos_store --adjoint --dim 3 a='arange(P,3)' b='zeros(P,3)' c='zeros(P,3)' d='zeros(P,3)' out='zeros(float32,3)' adj_a='zeros(P,3)' adj_b='ones(P,3)' adj_c='ones(P,3)' adj_d='ones(P,3)' adj_out='ones(float32,3)'
# why: products and a cosine, float32
# kern-check: adj_a rtol=1e-5 atol=1e-5
# kern-check: adj_b rtol=1e-5 atol=1e-5
# kern-check: adj_c rtol=1e-5 atol=1e-5
# kern-check: adj_d rtol=1e-5 atol=1e-5
import warp as wp


@wp.struct
class In:
    x: float
    v: wp.vec3


@wp.struct
class P:
    a: float
    n: int
    inner: In
    w: float


@wp.kernel
def aos_store(a: wp.array(dtype=P), b: wp.array(dtype=P), c: wp.array(dtype=P),
              d: wp.array(dtype=P), out: wp.array(dtype=float)):
    i = wp.tid()
    y = a[i].a * wp.cos(0.1 * a[i].inner.x)
    b[i].a = 3.0 * y
    q = a[i].inner
    q.x = y * q.v[0]
    b[i].inner = q
    s = a[i]
    s.w = 2.0 * y
    c[i] = s
    d[i] = a[i]
    out[i] = y * y
