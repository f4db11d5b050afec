# reversed(range(a, b, c)) with run-time bounds that often make the range
# empty (a == b, or a past b in the step's direction), for steps of either
# sign: an empty range gives no trip, as Warp's iter_reverse() makes it
# (kern once ran one spurious trip for range(3, 3, 3)); the trips counted
# and their order seen through a position-weighted sum.
# kern-test: lang_ctrl_reversed_empty --dim 12 out='zeros(int32,12,4)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_reversed_empty(out: wp.array2d(dtype=int)):
    i = wp.tid()
    a = i % 4 - 1
    b = 2 - i // 4
    c = i % 3 + 2
    n = int(0)
    s = int(0)
    for k in reversed(range(a, b, c)):
        n = n + 1
        s = s * 7 + k + 3
    out[i, 0] = n
    out[i, 1] = s
    m = int(0)
    t = int(0)
    for k in reversed(range(b, a, -c)):
        m = m + 1
        t = t * 7 + k + 3
    out[i, 2] = m
    out[i, 3] = t
