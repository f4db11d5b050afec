# expect: 9:12: error: wp.mat22() from vectors is ambiguous; construct it from its 4 components (Warp: use wp.matrix_from_rows() or wp.matrix_from_cols())
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec2(1.0, 2.0)
    m = wp.mat22(v, v)
