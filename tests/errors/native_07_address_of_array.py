# expect: 11:24: error: wp.address_of() of an array; take an element's address (wp.address_of(a[i]))
import warp as wp


@wp.func_native("*(float*)p += 1.0f;")
def bump(p: wp.uint64): ...


@wp.kernel
def k(a: wp.array(dtype=float)):
    bump(wp.address_of(a))
