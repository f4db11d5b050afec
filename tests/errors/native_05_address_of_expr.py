# expect: 11:29: error: wp.address_of() needs something addressable (a local variable, an array element, a struct field or a vector or matrix component), not an expression
import warp as wp


@wp.func_native("*(float*)p += 1.0f;")
def bump(p: wp.uint64): ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    bump(wp.address_of(a[0] + 1.0))
