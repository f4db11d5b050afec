# @wp.struct locals: a zero-initialised struct filled in a loop, copies made by
# assignment that then diverge, a struct chosen in an if/else, and a struct of
# bool and matrix fields.
# kern-test: lang_struct_local_copy --dim 4 x='rand(float,4,3,seed=341)' out='zeros(float,4,6)' om='zeros(mat22,4)'
# kern-check: out
# kern-check: om
import warp as wp


@wp.struct
class Acc:
    total: float
    count: int
    seen: bool
    m: wp.mat22


@wp.kernel
def lang_struct_local_copy(x: wp.array2d(dtype=float), out: wp.array2d(dtype=float), om: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    a = Acc()
    for j in range(3):
        a.total = a.total + x[i, j]
        a.count = a.count + 1
        if x[i, j] > 0.5:
            a.seen = True
    b = a
    b.total = b.total * 10.0
    b.m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    c = Acc()
    if a.seen:
        c = b
    else:
        c = a
    out[i, 0] = a.total
    out[i, 1] = b.total
    out[i, 2] = c.total
    out[i, 3] = float(a.count + b.count)
    out[i, 4] = wp.where(a.seen, 1.0, 0.0)
    out[i, 5] = a.m[0, 0]
    om[i] = c.m * x[i, 0]
