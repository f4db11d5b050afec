# print() of float16 and bfloat16 values, vectors and matrices: Warp prints
# the float value with %g.
# kern-test: half_print --dim 1 x='rand(float16,4,seed=41)' out='zeros(float16,1)'
# kern-stdout
# kern-check: out
import warp as wp


@wp.kernel
def half_print(x: wp.array(dtype=wp.float16), out: wp.array(dtype=wp.float16)):
    h = x[0] * wp.float16(1000.0)
    print(h)
    print(wp.float16(65504.0) * wp.float16(2.0))
    print(wp.bfloat16(3.14159))
    print(wp.vec3h(x[1], x[2], wp.float16(2049.0)))
    print(wp.mat22h(x[0], x[1], x[2], x[3]))
    out[0] = h
