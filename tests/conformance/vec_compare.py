# `==` between vectors/matrices gives one bool (all components equal).
# (Warp 1.19 accepts `!=` and `<` on vectors in Python but then fails to compile the C++.)
# kern-test: vec_compare --dim 6 a='arange(vec2,6)' out='zeros(bool,6,3)'
# kern-check: out
import warp as wp


@wp.kernel
def vec_compare(a: wp.array(dtype=wp.vec2), out: wp.array2d(dtype=wp.bool)):
    i = wp.tid()
    v = a[i]
    out[i, 0] = v == wp.vec2(4.0, 5.0)
    out[i, 1] = v == v
    m = wp.mat22(v.x, v.y, 0.0, 1.0)
    out[i, 2] = m == wp.mat22(2.0, 3.0, 0.0, 1.0)
