# for i in range(...) with 1, 2 and 3 arguments, negative step, runtime bounds, empty ranges,
# and nested loops.
# kern-test: control_for_range --dim 6 n='arange(int32,6)' out='zeros(int32,6,7)'
# kern-check: out
import warp as wp


@wp.kernel
def control_for_range(n: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    m = n[i]
    s = int(0)
    for k in range(m):
        s += k
    out[i, 0] = s
    s = int(0)
    for k in range(2, m + 3):
        s += k * k
    out[i, 1] = s
    s = int(0)
    for k in range(m, 20, 3):
        s += k
    out[i, 2] = s
    s = int(0)
    for k in range(m * 2, -1, -1):
        s = s * 2 + k
    out[i, 3] = s
    s = int(0)
    for k in range(10, m, -3):
        s += k
    out[i, 4] = s
    s = int(0)
    for a in range(3):
        for b in range(a, m):
            s += a * 10 + b
    out[i, 5] = s
    s = int(0)
    for k in range(5, 2):
        s += 1
    for k in range(0, 5, -1):
        s += 1
    out[i, 6] = s
