# a.shape on arrays of vectors/matrices counts array dimensions only (not components);
# shapes used as loop bounds and in arithmetic.
# kern-test: array_shape_elements --dim 1 v='zeros(vec3,5)' m='zeros(mat22,2,3)' b='zeros(uint8,2,3,4)' out='zeros(int32,6)'
# kern-check: out
import warp as wp


@wp.kernel
def array_shape_elements(v: wp.array(dtype=wp.vec3), m: wp.array2d(dtype=wp.mat22), b: wp.array3d(dtype=wp.uint8),
                         out: wp.array(dtype=wp.int32)):
    out[0] = v.shape[0]
    out[1] = m.shape[0]
    out[2] = m.shape[1]
    out[3] = b.shape[0] * 100 + b.shape[1] * 10 + b.shape[2]
    n = int(0)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            n += 1
    out[4] = n
    out[5] = wp.tid()
