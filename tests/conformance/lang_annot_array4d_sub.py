# wp.array4d[T] subscript annotations on a 4-d launch: int32 and mat22 elements, the
# four shape entries and ndim.
# kern-test: lang_annot_array4d_sub --dim 2,2,3,2 a='rand(int32,2,2,3,2,seed=41)' m='rand(mat22,2,2,3,2,seed=42)' out='zeros(int32,2,2,3,2)' om='zeros(mat22,2,2,3,2)'
# kern-check: out
# kern-check: om
import warp as wp


@wp.kernel
def lang_annot_array4d_sub(a: wp.array4d[wp.int32], m: wp.array4d[wp.mat22],
                           out: wp.array4d[wp.int32], om: wp.array4d[wp.mat22]):
    i, j, k, l = wp.tid()
    rk = a.shape[2] - 1 - k
    out[i, j, k, l] = a[i, j, rk, l] * 1000 + a.shape[0] * 100 + a.shape[3] * 10 + a.ndim
    om[i, j, k, l] = m[i, j, k, l] * m[j, i, rk, 1 - l]
