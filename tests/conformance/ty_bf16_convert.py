# bfloat16 conversions: from float32 (ties to even), float64 (through
# float32), int32 and int64 values, uint8; to float32, float64, int32
# (truncating) and float16; and bfloat16 math builtins (sqrt, exp, sin,
# floor, round), each rounded once.
# kern-test: ty_bf16_convert --dim 16 y='rand(float32,16,seed=178)' d='rand(float64,16,seed=179)' ob='zeros(bfloat16,16,10)' of='zeros(float32,16,2)' od='zeros(float64,16)' oi='zeros(int32,16)' oh='zeros(float16,16)'
# kern-check: ob
# kern-check: of
# kern-check: od
# kern-check: oi
# kern-check: oh
import warp as wp


@wp.kernel
def ty_bf16_convert(y: wp.array(dtype=float), d: wp.array(dtype=wp.float64), ob: wp.array2d(dtype=wp.bfloat16),
                    of: wp.array2d(dtype=float), od: wp.array(dtype=wp.float64), oi: wp.array(dtype=int),
                    oh: wp.array(dtype=wp.float16)):
    i = wp.tid()
    v = (y[i] - 0.5) * 300.0
    b = wp.bfloat16(v)
    ob[i, 0] = b
    ob[i, 1] = wp.bfloat16(d[i] * wp.float64(1e5))
    ob[i, 2] = wp.bfloat16(i * 12345)
    ob[i, 3] = wp.bfloat16(wp.int64(i) * wp.int64(3000000001))
    ob[i, 4] = wp.bfloat16(wp.uint8(i * 20))
    ob[i, 5] = wp.sqrt(wp.abs(b))
    ob[i, 6] = wp.exp(b * wp.bfloat16(0.01))
    ob[i, 7] = wp.sin(b)
    ob[i, 8] = wp.floor(b) + wp.round(b * wp.bfloat16(0.5))
    ob[i, 9] = wp.bfloat16(wp.float16(v))
    of[i, 0] = float(b)
    of[i, 1] = wp.float32(b) - v
    od[i] = wp.float64(b)
    oi[i] = int(b)
    oh[i] = wp.float16(b)
