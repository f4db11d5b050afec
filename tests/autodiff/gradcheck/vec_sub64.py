# A local array of vectors stored a difference (t[0] = a - b): an
# ordinary store, not the update t[0] -= v (fixed_update in
# src/ir/adjoint.c); its adjoint is the derivative.
import warp as wp


@wp.kernel
def vsub(a: wp.array(dtype=wp.vec3d), b: wp.array(dtype=wp.vec3d),
         out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    t = wp.zeros(shape=2, dtype=wp.vec3d)
    t[0] = a[i] - b[i]
    t[1] = a[i] + b[i]
    t[1] -= b[i] * wp.float64(3.0)
    out[i] = t[0] * wp.float64(2.0) + t[1]
