# Variables named like kern's hidden temporaries (the loop counter i, stop, step, arg,
# diff, actual), first assigned after the loops and calls that create those
# temporaries, are the program's own variables.
# kern-test: names_after_loop --dim 3 n='full(int32,3,4)' out='zeros(float32,3,3)'
# kern-check: out
import warp as wp


@wp.func
def total(n: int) -> float:
    s = float(0.0)
    for k in range(1, n, 1):
        s += float(k)
    i = 0.5
    stop = 2.0
    return s + i + stop


@wp.kernel
def names_after_loop(n: wp.array(dtype=int), out: wp.array2d(dtype=float)):
    t = wp.tid()
    s = float(0.0)
    for k in range(n[t]):
        s += float(k)
    st = wp.rand_init(7, t)
    v = wp.vec2(wp.randf(st), wp.randf(st))
    wp.expect_near(1.0, 1.0)
    i = 2.5
    step = 3.0
    arg = 10.0
    diff = 1.0
    actual = 100.0
    out[t, 0] = s + i + step
    out[t, 1] = arg + diff + actual + v[0] * 0.0
    out[t, 2] = total(n[t] + t)
