# expect: 12:7: error: cannot assign to the array field 'arr' in a kernel (array fields are set on the host)
import warp as wp


@wp.struct
class State:
    arr: wp.array(dtype=float)


@wp.kernel
def k(s: State, a: wp.array(dtype=float)):
    s.arr = a
