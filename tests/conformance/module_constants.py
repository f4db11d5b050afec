# Module constants via wp.constant: int, float, float64, int64, bool, vec3, mat22, and a
# constant computed from other Python values at import time.
# kern-test: module_constants --dim 4 of='zeros(float32,4,4)' oi='zeros(int32,4)' od='zeros(float64,4)' ol='zeros(int64,4)'
# kern-check: of
# kern-check: oi
# kern-check: od
# kern-check: ol
import warp as wp

N = wp.constant(5)
HALF = wp.constant(0.5)
TENTH = wp.constant(wp.float64(0.1))
BIG = wp.constant(wp.int64(1 << 40))
ON = wp.constant(True)
UP = wp.constant(wp.vec3(0.0, 1.0, 2.0))
ROT = wp.constant(wp.mat22(0.0, -1.0, 1.0, 0.0))
SQ = wp.constant(3 * 3 + 1)


@wp.kernel
def module_constants(of: wp.array2d(dtype=wp.float32), oi: wp.array(dtype=wp.int32), od: wp.array(dtype=wp.float64),
                     ol: wp.array(dtype=wp.int64)):
    i = wp.tid()
    of[i, 0] = HALF * float(i)
    of[i, 1] = UP[i % 3]
    of[i, 2] = (ROT @ wp.vec2(1.0, float(i)))[0]
    of[i, 3] = 1.0 if ON else 0.0
    oi[i] = N * i + SQ
    od[i] = TENTH * wp.float64(i)
    ol[i] = BIG + wp.int64(i)
