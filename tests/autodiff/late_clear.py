# The clearing store of a store's adjoint (Note [late clears] in
# ir/adjoint.c) moves past the atomics after it, but never past a use of
# its own adjoint array: here z is read before it is stored, so in the
# reverse sweep adj_z is read and cleared (the store's rule) and then the
# read's rule adds into it again; w's clear may move past both.
# kern-test: late_clear --adjoint --dim 8 x='arange(float32,8)' z='full(float32,8,3.0)' w='zeros(float32,8)' y='zeros(float32,8)' adj_x='zeros(float32,8)' adj_z='full(float32,8,0.5)' adj_w='arange(float32,8)' adj_y='full(float32,8,2.0)'
# kern-check: adj_x
# kern-check: adj_z
# kern-check: adj_w
# kern-check: adj_y
import warp as wp


@wp.kernel
def late_clear(x: wp.array(dtype=float), z: wp.array(dtype=float),
               w: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = z[i]
    z[i] = x[i] * 2.0
    w[i] = x[i] * x[i]
    y[i] = t * 3.0
