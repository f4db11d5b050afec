# expect: 5:5: error: @wp.func_native needs the snippet: @wp.func_native("...")
import warp as wp


@wp.func_native
def inc(x: int) -> int: ...


@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = inc(a[0])
