# A file with several kernels and functions; the test launches the second kernel only.
# kern-test: second --dim 8 x='arange(int32,8)' out='zeros(int32,8)'
# kern-check: out
import warp as wp


@wp.func
def helper(a: int) -> int:
    return a * 3 + 1


@wp.kernel
def first(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    out[i] = -helper(x[i])


@wp.func
def helper2(a: int) -> int:
    return helper(a) - a


@wp.kernel(enable_backward=False)
def second(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    out[i] = helper2(x[i]) * 10 + helper(i)
