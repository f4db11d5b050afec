# wp.array3d[T] subscript annotations on a 3-d launch: float64 and vec3 elements,
# neighbours along every axis wrapped by the array's shape.
# kern-test: lang_annot_array3d_sub --dim 2,3,4 a='rand(float64,2,3,4,seed=31)' v='rand(vec3,2,3,4,seed=32)' out='zeros(float64,2,3,4)' ov='zeros(float,2,3,4)'
# kern-check: out
# kern-check: ov
import warp as wp


@wp.kernel
def lang_annot_array3d_sub(a: wp.array3d[wp.float64], v: wp.array3d[wp.vec3],
                           out: wp.array3d[wp.float64], ov: wp.array3d[float]):
    i, j, k = wp.tid()
    ni = (i + 1) % a.shape[0]
    nj = (j + 1) % a.shape[1]
    nk = (k + 1) % a.shape[2]
    out[i, j, k] = a[ni, j, k] + a[i, nj, k] * wp.float64(2.0) - a[i, j, nk]
    ov[i, j, k] = wp.dot(v[i, j, k], v[ni, nj, nk])
