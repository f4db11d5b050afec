# The float16 math builtins half_math.py leaves out: asin, acos, atan, tan,
# sinh, cosh, log2, log10, cbrt, exp of small values, rint, radians, erf,
# copysign, isfinite/isnan on a computed NaN, each a float32 function of the
# widened value rounded once.
# kern-test: ty_half_math2 --dim 16 x='rand(float16,16,seed=175)' out='zeros(float16,16,16)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_half_math2(x: wp.array(dtype=wp.float16), out: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    a = x[i] * wp.float16(2.0) - wp.float16(1.0)
    b = x[(i + 3) % 16] * wp.float16(4.0) + wp.float16(0.25)
    out[i, 0] = wp.asin(a)
    out[i, 1] = wp.acos(a)
    out[i, 2] = wp.atan(b)
    out[i, 3] = wp.tan(a)
    out[i, 4] = wp.sinh(b)
    out[i, 5] = wp.cosh(a)
    out[i, 6] = wp.log2(b)
    out[i, 7] = wp.log10(b)
    out[i, 8] = wp.cbrt(a)
    out[i, 9] = wp.rint(b * wp.float16(2.0))
    out[i, 10] = wp.radians(b * wp.float16(45.0))
    out[i, 11] = wp.erf(a)
    out[i, 12] = wp.copysign(b, a)
    out[i, 13] = wp.where(wp.isfinite(b / a), wp.float16(1.0), wp.float16(-1.0))
    out[i, 14] = wp.where(wp.isnan(wp.sqrt(a)), wp.float16(2.0), wp.float16(3.0))
    out[i, 15] = wp.exp(-b)
