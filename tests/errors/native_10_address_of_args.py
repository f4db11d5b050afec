# expect: 11:13: error: wp.address_of() takes exactly one positional argument
import warp as wp


@wp.func_native("*(float*)p += 1.0f;")
def bump(p: wp.uint64): ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    bump(wp.address_of(a[0], a[1]))
