# wp.constant() of a vector or matrix made on the host from a Python list of its components, with
# a type named by a module-level alias (wp.types.vector(length=3, dtype=wp.bool)) and by
# a Warp type.
# kern-test: const_vector_from_list --dim 4 out='zeros(int32,4,5)' of='zeros(float32,4,3)'
# kern-check: out
# kern-check: of
import warp as wp

vec3bool = wp.types.vector(length=3, dtype=wp.bool)
SELECT = wp.constant(vec3bool([True, False, True]))
WEIGHTS = wp.constant(wp.vec3([0.5, 2.0, -1.25]))
mat22bool = wp.types.matrix((2, 2), dtype=wp.bool)
DIAG = wp.constant(mat22bool([True, False, False, True]))


@wp.kernel
def const_vector_from_list(out: wp.array2d(dtype=int), of: wp.array2d(dtype=float)):
    i = wp.tid()
    for k in range(3):
        if SELECT[k]:
            out[i, k] = i + 1
        of[i, k] = WEIGHTS[k] * float(i)
    if DIAG[1, 1]:
        out[i, 3] = 7
    if DIAG[0, 1]:
        out[i, 4] = 9
