# while loops with compound conditions (and, or, not, comparisons of two changing
# values), a loop whose condition reads an array, and a loop with an else-less
# if/elif inside.
# kern-test: lang_ctrl_while_complex --dim 6 a='rand(int32,6,6,seed=541)' x='rand(float,6,seed=542)' out='zeros(int32,6,3)' of='zeros(float,6)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_ctrl_while_complex(a: wp.array2d(dtype=int), x: wp.array(dtype=float), out: wp.array2d(dtype=int),
                            of: wp.array(dtype=float)):
    i = wp.tid()
    lo = int(0)
    hi = int(100)
    n = int(0)
    while lo < hi and not (hi - lo < 5) and n < 20:
        mid = (lo + hi) // 2
        if mid < a[i, 0]:
            lo = mid + 1
        elif mid > a[i, 0]:
            hi = mid
        else:
            lo = mid
            hi = mid
        n += 1
    out[i, 0] = lo * 100 + n
    j = int(0)
    while j < 6 and (a[i, j] > 10 or a[i, j] % 2 == 0):
        j += 1
    out[i, 1] = j
    k = int(a[i, 1])
    steps = int(0)
    while k != 1 and steps < 50:
        if k % 2 == 0:
            k = k // 2
        else:
            k = 3 * k + 1
        steps += 1
    out[i, 2] = steps
    f = float(x[i])
    while f < 100.0 or f * f < 2.0e4:
        f = f * 1.5 + 1.0
    of[i] = f
