# Conditional expression `a if c else b` with int, float and vector values, nested.
# kern-test: ops_conditional_expr --dim 8 x='arange(int32,8)' oi='zeros(int32,8)' of='zeros(float32,8)' ov='zeros(vec2,8)'
# kern-check: oi
# kern-check: of
# kern-check: ov
import warp as wp


@wp.kernel
def ops_conditional_expr(x: wp.array(dtype=wp.int32), oi: wp.array(dtype=wp.int32), of: wp.array(dtype=wp.float32),
                         ov: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    k = x[i]
    oi[i] = k * 2 if k < 4 else -k
    of[i] = 0.5 if k == 0 else (1.5 if k < 5 else 2.5)
    ov[i] = wp.vec2(1.0, 2.0) if k % 2 == 0 else wp.vec2(float(k), 0.0)
