# kern gradcheck input (tests/autodiff/gradcheck.sh): an array of structs
# with an array field, which gradcheck refuses by name.
import warp as wp


@wp.struct
class H:
    x: float
    xs: wp.array(dtype=float)


@wp.kernel
def hold(a: wp.array(dtype=H), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i].x * 2.0
