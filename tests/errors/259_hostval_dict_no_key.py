# expect: 9:24: error: the dict 'W' (line 4) has no key "c"
import warp as wp

W = {"a": 1.0, "b": 2.0}


@wp.kernel
def k(o: wp.array(dtype=float)):
    o[0] = wp.static(W["c"])
