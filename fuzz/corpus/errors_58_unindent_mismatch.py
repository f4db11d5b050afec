# expect: 10:7: error: unindent does not match any outer indentation level
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if i > 0:
        a[i] = 1.0
      a[i] = 2.0
