# wp.min, wp.max and wp.clamp on int8, uint8, int16, uint16, int64, uint64
# and float64 (also clamp with reversed bounds: min(max(x, lo), hi)).
# kern-test: bi_math_minmax_types --dim 16 a='rand(int32,16,seed=217)' o='zeros(int64,16,14)' od='zeros(float64,16,3)'
# kern-check: o
# kern-check: od
import warp as wp


@wp.kernel
def bi_math_minmax_types(a: wp.array(dtype=int), o: wp.array2d(dtype=wp.int64), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = a[i] - 50
    w = a[(i + 5) % 16] - 50
    o[i, 0] = wp.int64(wp.min(wp.int8(v), wp.int8(w)))
    o[i, 1] = wp.int64(wp.max(wp.uint8(v), wp.uint8(w)))
    o[i, 2] = wp.int64(wp.clamp(wp.int8(v), wp.int8(-10), wp.int8(20)))
    o[i, 3] = wp.int64(wp.min(wp.int16(v * 300), wp.int16(w * 300)))
    o[i, 4] = wp.int64(wp.max(wp.uint16(v * 300), wp.uint16(w)))
    o[i, 5] = wp.int64(wp.clamp(wp.uint16(v), wp.uint16(10), wp.uint16(60000)))
    o[i, 6] = wp.min(wp.int64(v) * wp.int64(10000000000), wp.int64(w))
    o[i, 7] = wp.max(wp.int64(v), wp.int64(w) * wp.int64(-3))
    o[i, 8] = wp.clamp(wp.int64(v), wp.int64(-20), wp.int64(-30))
    o[i, 9] = wp.int64(wp.min(wp.uint64(v), wp.uint64(w)) >> wp.uint64(32))
    o[i, 10] = wp.int64(wp.max(wp.uint64(v), wp.uint64(w)) % wp.uint64(1000))
    o[i, 11] = wp.int64(wp.clamp(wp.uint64(w), wp.uint64(5), wp.uint64(40)))
    o[i, 12] = wp.int64(wp.clamp(v, 30, -30))
    o[i, 13] = wp.int64(wp.max(wp.uint32(v), wp.uint32(w)) >> wp.uint32(16))
    dv = wp.float64(v) * wp.float64(0.1)
    dw = wp.float64(w) * wp.float64(0.1)
    od[i, 0] = wp.min(dv, dw)
    od[i, 1] = wp.max(dv, dw)
    od[i, 2] = wp.clamp(dv, wp.float64(-1.5), wp.float64(2.25))
