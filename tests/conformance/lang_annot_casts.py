# Casts between Warp scalar types named by their Warp names: float to every integer
# width (truncation toward zero), narrowing integer casts that wrap, int to float64,
# bool(x), float(x) of int64 and uint types, and int() of float64.
# kern-test: lang_annot_casts --dim 6 x='full(float,6,-2.75)' y='rand(float,6,seed=81)' k='rand(int32,6,seed=82)' out='zeros(int32,6,8)' of='zeros(float,6,4)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_annot_casts(x: wp.array(dtype=float), y: wp.array(dtype=float), k: wp.array(dtype=int),
                     out: wp.array2d(dtype=int), of: wp.array2d(dtype=float)):
    i = wp.tid()
    f = x[i] * float(i) + y[i] * 10.0
    out[i, 0] = int(wp.int8(f))
    out[i, 1] = int(wp.int16(f * 100.0))
    out[i, 2] = int(wp.int64(f * 1000.0))
    out[i, 3] = int(wp.uint8(k[i] * 7))
    out[i, 4] = int(wp.int8(k[i] * 5))
    out[i, 5] = int(wp.float64(f) * wp.float64(3.0))
    out[i, 6] = int(bool(k[i] % 3))
    out[i, 7] = int(wp.uint16(k[i] - 50))
    of[i, 0] = float(wp.int64(k[i]) * wp.int64(3))
    of[i, 1] = float(wp.uint32(k[i]))
    of[i, 2] = float(wp.float64(f) / wp.float64(7.0))
    of[i, 3] = wp.float32(wp.int16(k[i] * 400))
