# `pass` in if/else bodies, loop bodies and functions.
# kern-test: control_pass --dim 6 x='arange(int32,6)' out='zeros(int32,6)'
# kern-check: out
import warp as wp


@wp.func
def nothing(a: int):
    pass


@wp.kernel
def control_pass(x: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if x[i] > 2:
        pass
    else:
        out[i] = 5
    for k in range(3):
        pass
    nothing(i)
    if x[i] == 4:
        out[i] = 44
    else:
        pass
