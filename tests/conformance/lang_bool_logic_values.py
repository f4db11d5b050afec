# and, or, not on bools, ints and floats (truthiness), with short-circuit visible
# through a function that would index out of range, nested boolean expressions, and
# bool locals updated in a loop.
# kern-test: lang_bool_logic_values --dim 8 a='rand(int32,8,seed=981)' x='rand(float,8,seed=982)' out='zeros(int32,8,6)'
# kern-check: out
import warp as wp


@wp.func
def safe_get(a: wp.array(dtype=int), j: int) -> int:
    return a[j]


@wp.kernel
def lang_bool_logic_values(a: wp.array(dtype=int), x: wp.array(dtype=float), out: wp.array2d(dtype=int)):
    i = wp.tid()
    n = a[i] % 4
    f = x[i] - 0.5
    out[i, 0] = int(n and f > 0.0)
    out[i, 1] = int(not n or f)
    j = i + 100
    out[i, 2] = int(j < 8 and safe_get(a, j) > 10)
    out[i, 3] = int((n == 1 or n == 2) and not (f < -0.25 or f > 0.25))
    any_big = bool(False)
    all_pos = bool(True)
    for k in range(8):
        any_big = any_big or a[k] > 90
        all_pos = all_pos and x[k] > 0.05
    out[i, 4] = int(any_big)
    out[i, 5] = int(all_pos) + 2 * int(not all_pos and n != 0)
