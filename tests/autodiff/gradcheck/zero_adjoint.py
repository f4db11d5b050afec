# Note [zero adjoints] in src/ir/adjoint.c: the normalisation and the
# square root of a vector and value that are zero here (wp.where's branch
# not taken) get a zero adjoint through rules whose partials are infinite;
# without the guard 0 * inf made every gradient NaN (found by synth_fd.py).
import warp as wp


@wp.kernel
def kz(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.vec3d), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    v1 = wp.where(x[i] > wp.float64(100.0), x[i], wp.float64(0.0))
    v3 = wp.normalize(y[i] * v1)
    r = wp.sqrt(x[i] * v1)
    out[i] = x[i] * x[i]
