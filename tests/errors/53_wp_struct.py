# expect: 12:7: error: the array field 'arr' takes an array, not a view of one
import warp as wp


@wp.struct
class State:
    arr: wp.array(dtype=float)


@wp.kernel
def k(s: State, a: wp.array(dtype=float)):
    s.arr = a[1:3]
