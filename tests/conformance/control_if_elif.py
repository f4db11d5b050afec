# if / elif / else chains, nested ifs, `if n:` on an int, `if not b:`.
# kern-test: control_if_elif --dim 12 x='arange(int32,12)' out='zeros(int32,12,3)'
# kern-check: out
import warp as wp


@wp.kernel
def control_if_elif(x: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    v = x[i]
    r = int(0)
    if v < 3:
        r = 1
    elif v < 6:
        r = 2
    elif v == 6:
        r = 3
    else:
        r = 4
        if v % 2 == 0:
            r = r * 10
    out[i, 0] = r
    n = v % 3
    if n:
        out[i, 1] = 1
    else:
        out[i, 1] = -1
    big = v > 8
    if not big:
        out[i, 2] = 7
    if v > 100:
        out[i, 2] = 99
