# Warp type names used for locals: constructors of every scalar width (wp.int8 ..
# wp.uint64, wp.float16 excluded), wp.float64 arithmetic, typed vector and matrix
# locals (wp.vec3d, wp.vec2i, wp.mat22d), all derived from the inputs.
# kern-test: lang_annot_local_types --dim 4 x='rand(float,4,seed=71)' k='rand(int32,4,seed=72)' out='zeros(float64,4,8)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_annot_local_types(x: wp.array(dtype=float), k: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = wp.int8(k[i])
    b = wp.uint16(k[i] * 700)
    c = wp.int64(k[i]) * wp.int64(100000)
    d = wp.uint32(k[i]) * wp.uint32(3)
    e = wp.float64(x[i])
    v = wp.vec3d(e, e * wp.float64(2.0), wp.float64(1.0))
    w = wp.vec2i(k[i], -k[i])
    m = wp.mat22d(e, wp.float64(1.0), wp.float64(2.0), e)
    out[i, 0] = wp.float64(a)
    out[i, 1] = wp.float64(b)
    out[i, 2] = wp.float64(c)
    out[i, 3] = wp.float64(d)
    out[i, 4] = wp.length(v)
    out[i, 5] = wp.float64(w[0] - w[1])
    out[i, 6] = wp.determinant(m)
    out[i, 7] = e * e / wp.float64(3.0)
