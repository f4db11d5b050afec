# len() and .shape everywhere: len of 1-d..3-d arrays (first dimension), of vectors and
# matrices (rows), .shape[k] of each array dimension, .ndim, and len() of sub-arrays
# and slices, all compared with the runtime shape given.
# kern-test: lang_len_shape --dim 1 a='zeros(float,7)' b='zeros(int32,3,5)' c='zeros(vec2,2,4,6)' out='zeros(int32,16)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_len_shape(a: wp.array(dtype=float), b: wp.array2d(dtype=int), c: wp.array3d(dtype=wp.vec2),
                   out: wp.array(dtype=int)):
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    m = wp.mat33()
    out[0] = len(a)
    out[1] = len(b)
    out[2] = len(c)
    out[3] = len(v)
    out[4] = len(m)
    out[5] = b.shape[1]
    out[6] = c.shape[2]
    out[7] = c.shape[1] * 100 + a.ndim * 10 + c.ndim
    out[8] = len(b[1])
    out[9] = len(c[1])
    out[10] = len(c[1, 2])
    out[11] = len(a[2:])
    out[12] = len(b[:, 1])
    out[13] = len(m[0])
    out[14] = len(v[1:])
    out[15] = len(c[:, 1:3, 2])
