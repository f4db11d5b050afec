# Unary -, +, ~ on ints, floats, vectors; `not` on bools.
# kern-test: ops_unary --dim 6 x='arange(int32,6)' f='arange(float64,6)' oi='zeros(int32,6,3)' od='zeros(float64,6,2)' ov='zeros(vec2,6)' ob='zeros(bool,6)'
# kern-check: oi
# kern-check: od
# kern-check: ov
# kern-check: ob
import warp as wp


@wp.kernel
def ops_unary(x: wp.array(dtype=wp.int32), f: wp.array(dtype=wp.float64), oi: wp.array2d(dtype=wp.int32),
              od: wp.array2d(dtype=wp.float64), ov: wp.array(dtype=wp.vec2), ob: wp.array(dtype=wp.bool)):
    i = wp.tid()
    k = x[i] - 2
    oi[i, 0] = -k
    oi[i, 1] = +k
    oi[i, 2] = ~k
    od[i, 0] = -f[i]
    od[i, 1] = +(-f[i])
    ov[i] = -wp.vec2(float(k), 1.0)
    ob[i] = not (k > 0)
