# expect: 11:24: error: wp.address_of() of a float16: kern computes 16-bit floats in float32, so it has no address of the value's own format
import warp as wp


@wp.func_native("*(float*)p += 1.0f;")
def bump(p: wp.uint64): ...


@wp.kernel
def k(a: wp.array(dtype=wp.float16)):
    bump(wp.address_of(a[0]))
