# expect: 7:17: error: the snippet 'SNIPPET' is not a string assigned at the top of the file above this function
import warp as wp

SNIPPET = 3


@wp.func_native(SNIPPET)
def inc(x: int) -> int: ...


@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = inc(a[0])
