# Warp 1.19's gradient through fixed-size local arrays where it is not
# the derivative (Note [adjoint fixed arrays] in src/ir/adjoint.c): the
# backward kernel's replay makes the array again, zeroed, and stores
# nothing into it, so t[k] * t[k] and wp.sin(t[1]) are differentiated at
# zero; a store does not clear the array's adjoint, and a @wp.func's
# array has its adjoint zeroed at each call (fpart, called twice).
# kern-test: fixed_replay --adjoint --dim 4 x='arange(float32,4)' y='zeros(float32,4)' adj_x='zeros(float32,4)' adj_y='full(float32,4,1.5)'
# kern-check: adj_x
# kern-check: adj_y
import warp as wp


@wp.func
def fpart(x: float) -> float:
    t = wp.zeros(shape=2, dtype=float)
    s = t[1] * 3.0
    t[1] = x
    return s + t[1]


@wp.kernel
def fixed_replay(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.zeros(shape=(4,), dtype=float)
    for k in range(4):
        t[k] = x[i] * float(k + 1)
    s = float(0.0)
    for k in range(4):
        s += t[k] * t[k]
    y[i] = s + wp.sin(t[1]) + fpart(x[i]) + fpart(x[i] * 2.0)
