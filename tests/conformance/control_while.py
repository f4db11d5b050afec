# while loops: Collatz step count, nested while.
# kern-test: control_while --dim 16 x='arange(int32,16)' out='zeros(int32,16,2)'
# kern-check: out
import warp as wp


@wp.kernel
def control_while(x: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    v = x[i] + 1
    steps = int(0)
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
    out[i, 0] = steps
    a = int(0)
    t = int(0)
    while a < i:
        b = int(0)
        while b < a:
            t += 1
            b += 1
        a += 1
    out[i, 1] = t
