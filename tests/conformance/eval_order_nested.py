# Evaluation order when an operand's own operands were evaluated first:
# kern puts an operand into a temporary before the expression when two
# operands have effects (Note [evaluation order], src/lower/check_print.c).
# In max(randf(s), randi(s) * randi(s)) the two randi are such temporaries
# of the inner product, and the randf before them must still be drawn
# first, as Warp draws it; kern once drew it last.  Likewise the values of
# a wp.where inside an operand (columns 3 and 4: kernel 1238).  Found by the random
# differential test against Warp (tests/synth/warp_diff_test.c, kernel 108).
# kern-test: eval_order_nested --dim 8 seed=25141 out='zeros(float32,8,5)'
# kern-check: out
import warp as wp


@wp.func
def f3(a: float, b: float, c: float) -> float:
    return a * 100.0 + b * 10.0 + c


@wp.kernel
def eval_order_nested(seed: int, out: wp.array2d(dtype=float)):
    i = wp.tid()
    st = wp.rand_init(seed, i)
    out[i, 0] = wp.max(wp.randf(st, -2.0, 2.0), float(wp.randi(st, 2, 21) * wp.randi(st, -4, 0)))
    s = wp.randf(st)
    out[i, 1] = f3(wp.randf(st), s + wp.max(wp.randf(st), wp.randf(st) * wp.randf(st)),
                   wp.randf(st) - wp.randf(st))
    v = wp.vec3(wp.randf(st), float(i), wp.where(i < 3, wp.randf(st), wp.randf(st) + wp.randf(st)))
    out[i, 2] = v[0] * 7.0 + v[2] + wp.min(wp.randf(st), s) * wp.randf(st)
    a = wp.randi(st, 4, 16) / (wp.where(i >= 2, wp.randi(st, -3, 17), 5) | 1)
    out[i, 3] = float(a) + 100.0 * wp.randf(st)
    b = wp.randi(st, 4, 16) + wp.where(i >= 2, wp.randi(st, -3, 17), 5)
    out[i, 4] = float(b) + 100.0 * wp.randf(st)
