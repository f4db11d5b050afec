# Autodiff through @wp.func calls (inlined in the adjoint): a scalar
# function, a function on vectors with a local reassigned, a function
# calling another, one reading an array, and a call inside a dynamic loop.
# kern-test: funcs --adjoint --dim 5 a='arange(float32,5)' v='arange(vec3,5)' out='zeros(float32,5)' n=3 adj_a='zeros(float32,5)' adj_v='zeros(vec3,5)' adj_out='full(float32,5,1.5)' adj_n=0
# why: sums of transcendental terms, float32
# kern-check: adj_a rtol=1e-5 atol=1e-5
# kern-check: adj_v rtol=1e-5 atol=1e-5
import warp as wp


@wp.func
def sq(x: float):
    return x * x


@wp.func
def poly(x: float, c: float):
    y = sq(x) * c
    y = y + wp.sin(x)
    return y


@wp.func
def vfun(p: wp.vec3, s: float):
    q = p * s
    q = q + wp.vec3(1.0, 2.0, 3.0)
    return wp.dot(q, p)


@wp.func
def load2(arr: wp.array(dtype=float), i: int):
    return arr[i] * 2.0


@wp.kernel
def funcs(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = a[i] * 0.3
    r = poly(x, 1.5) + vfun(v[i] * 0.1, x)
    for k in range(n):
        r = r + load2(a, (i + k) % 5) * sq(x)
    out[i] = r
