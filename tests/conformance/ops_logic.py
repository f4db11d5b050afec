# and / or / not on bool values and on int conditions; short-circuit must not matter for results.
# kern-test: ops_logic --dim 8 x='arange(int32,8)' out='zeros(int32,8,5)'
# kern-check: out
import warp as wp


@wp.kernel
def ops_logic(x: wp.array(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    k = x[i]
    a = k > 2
    b = k % 2 == 0
    if a and b:
        out[i, 0] = 1
    if a or b:
        out[i, 1] = 1
    if not a and not b:
        out[i, 2] = 1
    if (a or k == 0) and not (b and k > 5):
        out[i, 3] = 1
    if k % 3 and k:
        out[i, 4] = 1
