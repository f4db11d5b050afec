# Variables changed inside dynamic loops (run-time range bounds, while) declared in the
# form Warp requires (x = float(0.0), n = int(0), v = wp.vec2(...) from a constructor),
# including a vector accumulator and a variable read after the loop.
# kern-test: lang_loop_dynamic_vars --dim 5 n='rand(int32,5,seed=991)' x='rand(float,5,seed=992)' out='zeros(float,5,4)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_loop_dynamic_vars(n: wp.array(dtype=int), x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    m = n[i] % 12
    s = float(0.0)
    c = int(0)
    v = wp.vec2(0.0, 0.0)
    for k in range(m):
        s += x[i] * float(k)
        c += k % 3
        v = v + wp.vec2(float(k), x[i])
    t = float(x[i])
    while t < 50.0:
        t = t * 2.0 + 1.0
        c += 1
    out[i, 0] = s
    out[i, 1] = float(c)
    out[i, 2] = v[0] * 10.0 + v[1]
    out[i, 3] = t
