# Fixed-size local arrays of vectors in the adjoint (Note [adjoint fixed
# arrays] in src/ir/adjoint.c): an element stored, another stored then
# added into (Warp's atomic: its adjoint is not read again by the load
# the update is lowered into), read whole, by component and through a
# @wp.func taking the array.
# kern-test: fixed_vec --adjoint --dim 4 x='arange(float32,4)' y='zeros(float32,4)' adj_x='zeros(float32,4)' adj_y='full(float32,4,0.5)'
# kern-check: adj_x
# kern-check: adj_y
import warp as wp


@wp.func
def first(arr: wp.array(dtype=wp.vec2)):
    return arr[0]


@wp.kernel
def fixed_vec(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.zeros(shape=3, dtype=wp.vec2)
    t[0] = wp.vec2(x[i], x[i] * 2.0)
    t[1] = wp.vec2(x[i] * 4.0, x[i])
    t[1] += wp.vec2(x[i] * 3.0, 1.0)
    r = first(t)
    y[i] = r[0] * 2.0 + r[1] + t[1][0] * 5.0 + wp.dot(t[1], wp.vec2(1.0, 7.0))
