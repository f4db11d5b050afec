# Rounding to float16, at compile time (literals) and at run time
# (conversions of float32 values): ties to even (2049 -> 2048, 2051 -> 2052),
# 65504 is the largest finite value and 65520 rounds to infinity,
# subnormals down to 2**-24, half of that rounds to zero, NaN stays NaN.
# kern-test: half_rounding --dim 1 out='zeros(float16,24)' back='zeros(float32,24)'
# kern-check: out
# kern-check: back
import warp as wp


@wp.kernel
def half_rounding(out: wp.array(dtype=wp.float16), back: wp.array(dtype=float)):
    one = float(1.0)
    out[0] = wp.float16(2049.0)
    out[1] = wp.float16(2051.0 * one)
    out[2] = wp.float16(65504.0)
    out[3] = wp.float16(65519.0 * one)
    out[4] = wp.float16(65520.0 * one)
    out[5] = wp.float16(-1.0e6 * one)
    out[6] = wp.float16(1.0e-7)
    out[7] = wp.float16(5.9604645e-8 * one)
    out[8] = wp.float16(2.9802322e-8 * one)
    out[9] = wp.float16(2.9802326e-8 * one)
    out[10] = wp.float16(8.940697e-8 * one)
    out[11] = wp.float16(6.1e-5 * one)
    out[12] = wp.float16(wp.nan)
    out[13] = wp.float16(0.0 / (0.0 * one))
    out[14] = wp.float16(-0.0 * one)
    out[15] = wp.float16(0.1 * one)
    h = wp.float16(300.0)
    out[16] = h * h
    out[17] = -(h * h)
    s = wp.float16(6.1035156e-05)
    out[18] = s / wp.float16(1024.0)
    out[19] = s / wp.float16(2048.0)
    out[20] = wp.float16(wp.float64(2049.0000001))
    out[21] = wp.float16(2049)
    out[22] = wp.float16(1.0) + wp.float16(0.0004)
    out[23] = wp.float16(wp.int64(70000))
    for k in range(24):
        back[k] = float(out[k])
