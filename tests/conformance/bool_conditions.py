# Ints and floats as conditions (`if n:`, `while n:`, `x if n else y`, `not n`), bool() and
# int()/float() of bools.
# kern-test: bool_conditions --dim 6 x='arange(int32,6)' f='arange(float32,6)' out='zeros(int32,6,6)' ob='zeros(bool,6,2)'
# kern-check: out
# kern-check: ob
import warp as wp


@wp.kernel
def bool_conditions(x: wp.array(dtype=wp.int32), f: wp.array(dtype=wp.float32), out: wp.array2d(dtype=wp.int32),
                    ob: wp.array2d(dtype=wp.bool)):
    i = wp.tid()
    n = x[i] % 3
    if n:
        out[i, 0] = 1
    if f[i] - 2.0:
        out[i, 1] = 1
    m = int(x[i])
    c = int(0)
    while m:
        m = m // 2
        c += 1
    out[i, 2] = c
    out[i, 3] = 5 if n else 6
    out[i, 4] = int(n > 1) + int(True)
    if not n:
        out[i, 5] = int(float(n == 0) * 4.0)
    ob[i, 0] = bool(n)
    ob[i, 1] = bool(f[i] - 3.0)
