# A @wp.struct of scalar fields of several types (float, int, bool, wp.float64,
# wp.uint8, wp.int64) passed as a kernel parameter by value and read by every thread.
# kern-test: lang_struct_param_scalars --dim 5 p='{gain=1.5,count=3,flip=true,fine=0.125,small=200,big=5000000000}' x='rand(float,5,seed=301)' out='zeros(float64,5,4)'
# kern-check: out
import warp as wp


@wp.struct
class Params:
    gain: float
    count: int
    flip: bool
    fine: wp.float64
    small: wp.uint8
    big: wp.int64


@wp.kernel
def lang_struct_param_scalars(p: Params, x: wp.array(dtype=float), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = x[i] * p.gain
    if p.flip:
        v = -v
    out[i, 0] = wp.float64(v) + p.fine
    out[i, 1] = wp.float64(p.count * i)
    out[i, 2] = wp.float64(p.small + wp.uint8(i * 20))
    out[i, 3] = wp.float64(p.big + wp.int64(i))
