# Literal typing: `1` is int32, `1.5` is float32; big int literals wrap to int32
# unless wrapped in wp.int64/wp.uint64; wp.constant values keep their types.
# kern-test: literal_typing --dim 1 oi='zeros(int32,4)' of='zeros(float32,3)' ol='zeros(int64,2)' od='zeros(float64,2)'
# kern-check: oi
# kern-check: of
# kern-check: ol
# kern-check: od
import warp as wp

CI = wp.constant(7)
CF = wp.constant(2.5)
CD = wp.constant(wp.float64(0.1))
CL = wp.constant(wp.int64(10000000000))


@wp.kernel
def literal_typing(oi: wp.array(dtype=wp.int32), of: wp.array(dtype=wp.float32),
                   ol: wp.array(dtype=wp.int64), od: wp.array(dtype=wp.float64)):
    a = 3
    b = 0.1
    oi[0] = a * CI
    oi[1] = 3000000000          # does not fit int32: wraps to -1294967296
    oi[2] = 0xFFFFFFFF          # -1 as int32
    oi[3] = -2147483647 - 1
    of[0] = b * CF
    of[1] = 1e-3 + b
    of[2] = 1.0 / 3.0
    ol[0] = CL * wp.int64(3)
    ol[1] = wp.int64(3000000000)
    od[0] = CD * wp.float64(3.0)
    od[1] = wp.float64(1.0) / wp.float64(3.0)
