# Early returns from @wp.func: inside nested ifs, from inside a for loop and a while
# loop (leaving the loop), with a fallback return at the end, and in a void function
# that stores before returning.
# kern-test: lang_func_early_return --dim 8 a='rand(int32,8,6,seed=291)' out='zeros(int32,8,4)'
# kern-check: out
import warp as wp


@wp.func
def classify(x: int) -> int:
    if x < 30:
        if x % 2 == 0:
            return 0
        return 1
    elif x < 60:
        return 2
    return 3


@wp.func
def first_above(a: wp.array2d(dtype=int), row: int, lim: int) -> int:
    for j in range(a.shape[1]):
        if a[row, j] > lim:
            return j
    return -1


@wp.func
def steps_to(x: int, target: int) -> int:
    n = int(0)
    v = int(x)
    while True:
        if v >= target:
            return n
        v = v * 2 + 1
        n += 1
    return -1


@wp.func
def maybe_store(out: wp.array2d(dtype=int), i: int, v: int):
    if v > 50:
        out[i, 3] = v
        return
    out[i, 3] = -v


@wp.kernel
def lang_func_early_return(a: wp.array2d(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    out[i, 0] = classify(a[i, 0])
    out[i, 1] = first_above(a, i, 80)
    out[i, 2] = steps_to(a[i, 1], 200)
    maybe_store(out, i, a[i, 2])
