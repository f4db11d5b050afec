# range(a(), b(), c()) evaluates its bounds once each, left to right (kern's C backend
# once evaluated b() first): functions that bump a counter with atomics give the bounds,
# and the counter's final value and the loop's visits show the order.
# kern-test: lang_wd_order_range --dim 4 cnt='zeros(int32,4)' out='zeros(int32,4,3)'
# kern-check: cnt
# kern-check: out
import warp as wp


@wp.func
def next_val(cnt: wp.array(dtype=int), i: int, scale: int) -> int:
    return wp.atomic_add(cnt, i, 1) * scale


@wp.kernel
def lang_wd_order_range(cnt: wp.array(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    s = int(0)
    for k in range(next_val(cnt, i, 1), next_val(cnt, i, 5) + i):
        s = s * 10 + k
    out[i, 0] = s
    t = int(0)
    for k in range(next_val(cnt, i, 3), next_val(cnt, i, 4) + 3, next_val(cnt, i, 1) - 3):
        t = t * 10 + k
    out[i, 1] = t
    out[i, 2] = cnt[i]
