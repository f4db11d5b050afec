# Module-level Python floats and booleans captured as float32 and bool constants:
# float arithmetic, a constant computed from others, a bool in if, not and and.
# kern-test: lang_const_module_float_bool --dim 5 x='rand(float,5,seed=121)' out='zeros(float,5,4)'
# kern-check: out
import warp as wp

GAIN = 1.75
OFFSET = -0.125
RATIO = GAIN / 4.0 + OFFSET
USE_GAIN = True
CLAMPED = False


@wp.kernel
def lang_const_module_float_bool(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = x[i]
    if USE_GAIN:
        v = v * GAIN
    out[i, 0] = v + OFFSET
    out[i, 1] = x[i] * RATIO
    if not CLAMPED and x[i] > 0.25:
        out[i, 2] = 1.0
    out[i, 3] = wp.where(USE_GAIN and CLAMPED, v, -v)
