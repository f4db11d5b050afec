# Operands of binary operators and comparisons, and nested call arguments, are
# evaluated left to right in Warp: random draws on both sides of -, /, <, and inside
# a call's arguments nested in another call, and atomics whose return values are
# subtracted.
# kern-test: lang_wd_order_operands --dim 4 cnt='zeros(int32,4)' out='zeros(float,4,5)' oi='zeros(int32,4,2)'
# kern-check: cnt
# kern-check: out
# kern-check: oi
import warp as wp


@wp.func
def lin(a: float, b: float, c: float) -> float:
    return a * 100.0 + b * 10.0 + c


@wp.kernel
def lang_wd_order_operands(cnt: wp.array(dtype=int), out: wp.array2d(dtype=float), oi: wp.array2d(dtype=int)):
    i = wp.tid()
    st = wp.rand_init(4242, i)
    out[i, 0] = wp.randf(st) / (wp.randf(st) + 1.0)
    out[i, 1] = float(wp.randf(st) < wp.randf(st))
    out[i, 2] = lin(wp.randf(st), lin(wp.randf(st), wp.randf(st), 0.0), wp.randf(st))
    out[i, 3] = wp.randf(st) * 2.0 - wp.randf(st) * wp.randf(st)
    out[i, 4] = wp.sin(wp.randf(st)) + wp.cos(wp.randf(st)) * 3.0
    oi[i, 0] = wp.atomic_add(cnt, i, 1) - wp.atomic_add(cnt, i, 2) * 10
    oi[i, 1] = wp.atomic_add(cnt, i, 4) * 100 + wp.atomic_sub(cnt, i, 1)
