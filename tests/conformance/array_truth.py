# The truth value of an array (Warp's null-array test): `if a:`, `not a`,
# and an array as an operand of `and` / `or`, short-circuiting before an
# element is read.  Arrays given to a launch have data, so every test here
# is true (array_truth_null.py has null ones).
# kern-test: array_truth --dim 4 a='arange(float32,4)' b='arange(int32,4)' out='zeros(int32,4)'
# kern-check: out
import warp as wp


@wp.func
def has_data(x: wp.array(dtype=float)):
    if x:
        return 1
    return 0


@wp.kernel
def array_truth(a: wp.array(dtype=float), b: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    r = int(0)
    if a:
        r += 1
    if not b:
        r += 10
    if a and i >= 1 and a[i] > 1.5:
        r += 100
    if not a or b[i] == 2:
        r += 1000
    while b and r < 3:
        r += 2
    out[i] = r + has_data(a) * 10000
