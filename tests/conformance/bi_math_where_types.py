# wp.where choosing between values of many types: int64, uint8, float64,
# float16, vec3d, mat22, quat, with bool and int conditions (nonzero is
# true), nested, and as an expression inside arithmetic.
# kern-test: bi_math_where_types --dim 12 a='rand(int32,12,seed=277)' o='zeros(int64,12,3)' od='zeros(float64,12,4)' oh='zeros(float16,12)'
# kern-check: o
# kern-check: od
# kern-check: oh
import warp as wp


@wp.kernel
def bi_math_where_types(a: wp.array(dtype=int), o: wp.array2d(dtype=wp.int64), od: wp.array2d(dtype=wp.float64),
                        oh: wp.array(dtype=wp.float16)):
    i = wp.tid()
    v = a[i] - 50
    c = v > 0
    o[i, 0] = wp.where(c, wp.int64(v) * wp.int64(10000000000), wp.int64(-1))
    o[i, 1] = wp.int64(wp.where(v % 3, wp.uint8(v), wp.uint8(200)))
    o[i, 2] = wp.int64(wp.where(c, wp.where(v > 25, 2, 1), wp.where(v < -25, -2, -1)))
    d = wp.float64(v) * wp.float64(0.1)
    od[i, 0] = wp.where(c, d, -d) + wp.float64(1.0)
    w = wp.where(v % 2 == 0, wp.vec3d(d, d, d), wp.vec3d(wp.float64(1.0), d, wp.float64(2.0)))
    od[i, 1] = w[0] + w[2]
    m = wp.where(c, wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(float(v), 0.0, 0.0, 1.0))
    od[i, 2] = wp.float64(m[0, 0] + m[1, 0])
    q = wp.where(i % 3 == 0, wp.quat_identity(), wp.quat(0.0, 1.0, 0.0, 0.0))
    od[i, 3] = wp.float64(q[1] * 2.0 + q[3])
    oh[i] = wp.where(c, wp.float16(d), wp.float16(0.25)) * wp.float16(3.0)
