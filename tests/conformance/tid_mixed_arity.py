# wp.tid() called alone and unpacked into two and three values in one
# kernel, as Warp allows: value k of any form is coordinate k of the grid
# (the lone call the first), here on a 3-d grid.
# kern-test: tid_mixed_arity --dim 2,3,4 out='zeros(int32,2,3,4)' first='zeros(int32,2)'
# kern-check: out
# kern-check: first
import warp as wp


@wp.kernel
def tid_mixed_arity(out: wp.array3d(dtype=int), first: wp.array(dtype=int)):
    i = wp.tid()
    a, b = wp.tid()
    x, y, z = wp.tid()
    out[x, y, z] = i * 1000 + a * 100 + b * 10 + z
    if y == 0 and z == 0:
        first[i] = a + x + 1
