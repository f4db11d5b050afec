# Arrays of every vector and matrix flavour named by Warp type names in subscript and
# call style: vec4i, vec2d, vec3ui (uint32), mat33d, mat44 and quat-free mixed use.
# kern-test: lang_annot_vec_dtypes --dim 3 a='rand(vec4i,3,seed=101)' b='rand(vec2d,3,seed=102)' c='rand(vec3ui,3,seed=103)' m='rand(mat33d,3,seed=104)' n='rand(mat44,3,seed=105)' oa='zeros(vec4i,3)' ob='zeros(vec2d,3)' oc='zeros(vec3ui,3)' om='zeros(mat33d,3)' on='zeros(float,3)'
# kern-check: oa
# kern-check: ob
# kern-check: oc
# kern-check: om
# kern-check: on
import warp as wp


@wp.kernel
def lang_annot_vec_dtypes(a: wp.array[wp.vec4i], b: wp.array(dtype=wp.vec2d), c: wp.array[wp.vec3ui],
                          m: wp.array[wp.mat33d], n: wp.array(dtype=wp.mat44),
                          oa: wp.array[wp.vec4i], ob: wp.array[wp.vec2d], oc: wp.array[wp.vec3ui],
                          om: wp.array[wp.mat33d], on: wp.array[float]):
    i = wp.tid()
    oa[i] = a[i] * 3 - wp.vec4i(1, 2, 3, 4)
    ob[i] = b[i] * wp.float64(2.0) + wp.vec2d(b[i][1], b[i][0])
    oc[i] = c[i] + wp.vec3ui(wp.uint32(i), wp.uint32(1), wp.uint32(2))
    om[i] = m[i] * wp.transpose(m[i])
    on[i] = wp.trace(n[i]) + wp.determinant(n[i])
