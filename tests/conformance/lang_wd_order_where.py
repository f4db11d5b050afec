# Warp evaluates both value operands of wp.where (and the condition first), so a random
# draw or an atomic in the arm not chosen still happens: the draws after it and the
# counter show that.
# kern-test: lang_wd_order_where --dim 6 cnt='zeros(int32,6)' out='zeros(float,6,4)' oi='zeros(int32,6,2)'
# kern-check: cnt
# kern-check: out
# kern-check: oi
import warp as wp


@wp.kernel
def lang_wd_order_where(cnt: wp.array(dtype=int), out: wp.array2d(dtype=float), oi: wp.array2d(dtype=int)):
    i = wp.tid()
    st = wp.rand_init(777, i)
    out[i, 0] = wp.where(i % 2 == 0, wp.randf(st), wp.randf(st) + 10.0)
    out[i, 1] = wp.randf(st)
    out[i, 2] = wp.where(wp.randf(st) < 0.5, wp.randf(st), -wp.randf(st))
    out[i, 3] = wp.randf(st)
    oi[i, 0] = wp.where(i > 2, wp.atomic_add(cnt, i, 1), wp.atomic_add(cnt, i, 10))
    oi[i, 1] = cnt[i]
