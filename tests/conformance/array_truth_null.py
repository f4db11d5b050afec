# The truth value of null arrays: an array field of a struct parameter that
# the launch leaves unset, and one of a struct made in the kernel, are
# null (false), as in Warp; a field given an array is true.
# kern-skip: opencl (structs with array fields: runtime_structs pins the refusal)
# kern-test: array_truth_null --dim 3 h='{k=3}' g='{xs=arange(float32,3),k=1}' out='zeros(int32,3)'
# kern-check: out
import warp as wp


@wp.struct
class Holder:
    xs: wp.array(dtype=float)
    k: int


@wp.kernel
def array_truth_null(h: Holder, g: Holder, out: wp.array(dtype=int)):
    i = wp.tid()
    r = h.k
    if h.xs:
        r += 10
    if not h.xs:
        r += 100
    if g.xs and g.xs[i] >= 1.0:
        r += 1000
    local = Holder()
    if local.xs or i == 2:
        r += 10000
    out[i] = r
