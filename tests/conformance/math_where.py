# wp.where(cond, a, b) with bool and int conditions and scalar/vector values.
# (wp.select was removed in Warp 1.19: using it is an error there.)
# kern-test: math_where --dim 8 x='arange(int32,8)' oi='zeros(int32,8)' of='zeros(float32,8)' ov='zeros(vec2,8)'
# kern-check: oi
# kern-check: of
# kern-check: ov
import warp as wp


@wp.kernel
def math_where(x: wp.array(dtype=wp.int32), oi: wp.array(dtype=wp.int32), of: wp.array(dtype=wp.float32),
               ov: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    k = x[i]
    oi[i] = wp.where(k > 3, k * 10, -k)
    of[i] = wp.where(k % 3, 1.5, -2.5)
    ov[i] = wp.where(k < 5, wp.vec2(1.0, 2.0), wp.vec2(float(k), 0.0))
