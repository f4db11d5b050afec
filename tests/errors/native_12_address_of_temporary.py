# expect: 19:39: error: wp.address_of() of a temporary value (a call's result, a constructed value or a matrix row has no storage): it needs a local variable, an array element, a struct field or a vector or matrix component
import warp as wp


@wp.struct
class Box:
    value: wp.float32


@wp.func
def make_box() -> Box:
    b = Box()
    b.value = 1.0
    return b


@wp.kernel
def k(out: wp.array(dtype=wp.uint64)):
    out[0] = wp.address_of(make_box().value)
