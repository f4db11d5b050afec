# expect: 8:12: error: wp.matrix() of vectors is not supported; use wp.matrix_from_rows() or wp.matrix_from_cols()
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    v = wp.vec2(1.0, 2.0)
    m = wp.matrix(v, v, shape=(2, 2))
