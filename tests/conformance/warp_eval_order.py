# Warp evaluates call arguments, operator operands and range() bounds once each, left to
# right, and both values of wp.where: visible with random draws and atomics, also when
# only one operand has an effect and another reads what it changes. kern's C
# backend once evaluated arguments right to left and only the chosen wp.where value.
# kern-test: warp_eval_order --dim 4 out='zeros(float32,4,8)' oi='zeros(int32,4,6)' cnt='zeros(int32,4)' o2='zeros(float32,4,6)'
# kern-check: out
# kern-check: oi
# kern-check: cnt
# kern-check: o2
import warp as wp


@wp.func
def take(cnt: wp.array(dtype=int), i: int) -> int:
    return wp.atomic_add(cnt, i, 1)


@wp.func
def pair(a: float, b: float) -> float:
    return a * 10.0 + b


@wp.kernel
def warp_eval_order(out: wp.array2d(dtype=float), oi: wp.array2d(dtype=int), cnt: wp.array(dtype=int),
                    o2: wp.array2d(dtype=float)):
    i = wp.tid()
    st = wp.rand_init(1234, i)
    v = wp.vec3(wp.randf(st), wp.randf(st), wp.randf(st))
    out[i, 0] = v[0]
    out[i, 1] = v[2]
    out[i, 2] = wp.randf(st) - wp.randf(st)
    out[i, 3] = wp.where(i % 2 == 0, wp.randf(st), wp.randf(st))
    out[i, 4] = wp.randf(st)
    out[i, 5] = pair(wp.randf(st), wp.randf(st))
    out[i, 6] = wp.max(wp.randf(st), wp.randf(st) * 0.5)
    out[i, 7] = float(wp.randi(st, 0, 100) - wp.randi(st, 0, 100))
    oi[i, 0] = take(cnt, i) * 10 + take(cnt, i)
    oi[i, 1] = wp.where(i > 1, take(cnt, i), -1)
    s = int(0)
    for k in range(take(cnt, i), take(cnt, i) + 3):
        s = s * 10 + k
    oi[i, 2] = s
    oi[i, 3] = wp.min(take(cnt, i), take(cnt, i) - 100)
    oi[i, 4] = take(cnt, i)
    m = wp.vec2i(take(cnt, i), take(cnt, i))
    oi[i, 5] = m[0] * 100 + m[1]
    # one effect, and another operand reading what it changes
    s2 = wp.rand_init(99, i)
    a = wp.vec2(float(s2 % wp.uint32(1000)), wp.randf(s2))
    b = wp.vec2(wp.randf(s2), float(s2 % wp.uint32(1000)))
    c = wp.vec2(float(cnt[i]), float(wp.atomic_add(cnt, i, 5)))
    o2[i, 0] = a[0]
    o2[i, 1] = b[1]
    o2[i, 2] = c[0]
    o2[i, 3] = c[1]
    o2[i, 4] = float(cnt[i])
    o2[i, 5] = a[1] + b[0]
