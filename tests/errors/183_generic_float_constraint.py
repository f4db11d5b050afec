# expect: 12:28: error: argument 1 of half_of() ('x') must be Float, got int32
import warp as wp


@wp.func
def half_of(x: wp.Float):
    return x * type(x)(0.5)


@wp.kernel
def k(out: wp.array(dtype=float)):
    out[0] = float(half_of(3))
