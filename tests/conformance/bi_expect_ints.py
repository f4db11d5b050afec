# wp.expect_eq and wp.expect_neq on every integer type (int8 .. uint64)
# and float64, failing and holding, and wp.expect_near on float64 and
# vec3d; what Warp prints for each failure is compared byte for byte.
# kern-test: bi_expect_ints --dim 1 n='arange(int32,4)' out='zeros(int32,2)'
# kern-check: out
# kern-stdout
import warp as wp


@wp.kernel
def bi_expect_ints(n: wp.array(dtype=int), out: wp.array(dtype=int)):
    v = n[3]
    wp.expect_eq(wp.int8(v * 100), wp.int8(44))
    wp.expect_eq(wp.uint8(v * 100), wp.uint8(44))
    wp.expect_eq(wp.int16(v - 5), wp.int16(-2))
    wp.expect_neq(wp.uint16(v), wp.uint16(3))
    wp.expect_eq(wp.uint32(v) - wp.uint32(5), wp.uint32(0))
    wp.expect_eq(wp.int64(v) * wp.int64(3000000000), wp.int64(9000000000))
    wp.expect_eq(wp.int64(v) * wp.int64(-3000000000), wp.int64(1))
    wp.expect_eq(wp.uint64(v) - wp.uint64(4), wp.uint64(7))
    wp.expect_neq(wp.float64(v) * wp.float64(0.5), wp.float64(1.5))
    wp.expect_near(wp.float64(v) / wp.float64(7.0), wp.float64(0.43), wp.float64(0.001))
    wp.expect_near(wp.vec3d(wp.float64(v), wp.float64(0.0), wp.float64(1.0)), wp.vec3d(wp.float64(3.0), wp.float64(0.5), wp.float64(1.0)), wp.float64(0.25))
    wp.expect_eq(wp.vec2i(v, -v), wp.vec2i(3, 3))
    out[0] = v
    out[1] = int(wp.int8(v * 100))
