# break and continue in for and while loops, including nested loops.
# kern-test: control_break_continue --dim 10 x='arange(int32,10)' out='zeros(int32,10,4)'
# kern-check: out
import warp as wp


@wp.kernel
def control_break_continue(x: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    lim = x[i]
    s = int(0)
    for k in range(100):
        if k > lim:
            break
        if k % 3 == 0:
            continue
        s += k
    out[i, 0] = s
    c = int(0)
    k = int(0)
    while True:
        k += 1
        if k % 2 == 1:
            continue
        c += k
        if c > lim * 4:
            break
    out[i, 1] = c
    t = int(0)
    for a in range(5):
        for b in range(5):
            if b > a:
                break
            if (a + b) % 2 == 0:
                continue
            t += a * b + lim
    out[i, 2] = t
    first = int(-1)
    for k in range(lim, 40):
        if k % 7 == 0:
            first = k
            break
    out[i, 3] = first
