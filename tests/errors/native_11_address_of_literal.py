# expect: 13:28: error: wp.address_of() cannot take 'x', which Warp treats as a constant here (it was last assigned a literal); make it a variable: x = wp.int32(...)
import warp as wp


@wp.func_native("*(int32_t*)p += 1;")
def bump(p: wp.uint64): ...


@wp.kernel
def k(a: wp.array(dtype=int)):
    x = 0
    if a[0] > 0:
        bump(wp.address_of(x))
    a[0] = x
