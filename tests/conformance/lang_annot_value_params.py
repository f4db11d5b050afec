# Kernel parameters passed by value with Warp type names: vec3, vec2i, mat22, mat33d,
# wp.float64, wp.int64, wp.uint8, float and bool, combined with array data.
# kern-test: lang_annot_value_params --dim 4 v=1,2,3 k=4,-5 m=1,2,3,4 md=2,0,0,0,3,0,0,0,4 d=0.125 l=10000000000 u=200 f=1.5 b=false x='rand(float,4,seed=1101)' out='zeros(float64,4,6)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_annot_value_params(v: wp.vec3, k: wp.vec2i, m: wp.mat22, md: wp.mat33d, d: wp.float64, l: wp.int64,
                            u: wp.uint8, f: float, b: bool, x: wp.array(dtype=float),
                            out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    s = x[i] * f
    out[i, 0] = wp.float64(wp.dot(v, wp.vec3(s, 1.0, -s)))
    out[i, 1] = wp.float64(k[0] * i + k[1])
    out[i, 2] = wp.float64((m * wp.vec2(s, 1.0))[1])
    out[i, 3] = wp.determinant(md) * d + wp.float64(s)
    out[i, 4] = wp.float64(l + wp.int64(i)) + wp.float64(u)
    out[i, 5] = wp.where(b, wp.float64(1.0), wp.float64(s))
