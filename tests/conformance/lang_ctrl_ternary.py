# Conditional expressions x if c else y: nested in both arms, on vectors, on ints with a
# compound condition, inside a call's argument and a loop, with int and float
# conditions (truthiness).
# kern-test: lang_ctrl_ternary --dim 6 x='rand(float,6,seed=551)' k='rand(int32,6,seed=552)' out='zeros(float,6,5)' ov='zeros(vec2,6)'
# kern-check: out
# kern-check: ov
import warp as wp


@wp.kernel
def lang_ctrl_ternary(x: wp.array(dtype=float), k: wp.array(dtype=int), out: wp.array2d(dtype=float),
                      ov: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v = x[i]
    n = k[i]
    out[i, 0] = -1.0 if v < 0.3 else (0.0 if v < 0.6 else 1.0)
    out[i, 1] = float(n // 2 if n % 2 == 0 and n > 20 else n * 3)
    out[i, 2] = wp.sqrt(v if v > 0.5 else 1.0 - v)
    s = float(0.0)
    for j in range(5):
        s += float(j) if (j + n) % 3 else -v
    out[i, 3] = s
    out[i, 4] = 10.0 if n % 5 else 20.0
    ov[i] = wp.vec2(v, 1.0) if n > 50 else wp.vec2(1.0, v)
