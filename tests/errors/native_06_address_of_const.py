# expect: 13:24: error: wp.address_of() of the constant 'LIMIT': a constant has no storage; copy it to a variable first
import warp as wp

LIMIT = wp.constant(3)


@wp.func_native("*(int32_t*)p += 1;")
def bump(p: wp.uint64): ...


@wp.kernel
def k(a: wp.array(dtype=int)):
    bump(wp.address_of(LIMIT))
