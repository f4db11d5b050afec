# wp.print and print() of every scalar type Warp prints (int8 .. uint64,
# float32, float64, float16, bool), of vectors of ints and float64, of a
# 3x3 and a non-square matrix, of a quaternion and a transform, and of
# format-like strings; compared with Warp's output byte for byte.
# kern-test: bi_print_types --dim 1 x='arange(float32,4)' out='zeros(int32,1)'
# kern-check: out
# kern-stdout
import warp as wp


@wp.kernel
def bi_print_types(x: wp.array(dtype=float), out: wp.array(dtype=int)):
    v = x[3] * 1.25
    wp.print(wp.int8(-5))
    wp.print(wp.uint8(250))
    wp.print(wp.int16(-30000))
    wp.print(wp.uint16(65000))
    wp.print(wp.int64(-9000000000))
    wp.print(wp.uint64(18000000000000000000))
    wp.print(wp.uint32(4000000000))
    wp.print(v)
    wp.print(wp.float64(v) / wp.float64(3.0))
    wp.print(wp.float16(v))
    wp.print(v > 1.0)
    print(wp.vec3i(-1, 2, 3))
    print(wp.vec2d(wp.float64(v), wp.float64(0.1)))
    print(wp.mat33(v, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0))
    print(wp.quat(0.0, 0.0, x[1], 0.5))
    print(wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat_identity()))
    print("100% %d {} \\n")
    wp.print(wp.vec4(1e10, -1e-10, 0.0, v))
    out[0] = 1
