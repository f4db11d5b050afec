# wp.array2d[T] subscript annotations on a 2-d launch: float, vec3 and int64 element
# types, with .shape read from the annotated arrays.
# kern-test: lang_annot_array2d_sub --dim 3,4 a='rand(float,3,4,seed=21)' v='rand(vec3,3,4,seed=22)' n='rand(int64,3,4,seed=23)' out='zeros(float,3,4)' ov='zeros(vec3,3,4)' on='zeros(int64,3,4)'
# kern-check: out
# kern-check: ov
# kern-check: on
import warp as wp


@wp.kernel
def lang_annot_array2d_sub(a: wp.array2d[float], v: wp.array2d[wp.vec3], n: wp.array2d[wp.int64],
                           out: wp.array2d[float], ov: wp.array2d[wp.vec3], on: wp.array2d[wp.int64]):
    i, j = wp.tid()
    jn = (j + 1) % a.shape[1]
    out[i, j] = a[i, j] - a[i, jn] + float(a.shape[0] * 10 + a.shape[1])
    ov[i, j] = wp.cross(v[i, j], v[i, jn])
    on[i, j] = n[i, j] * wp.int64(i + 1) - n[i, jn]
