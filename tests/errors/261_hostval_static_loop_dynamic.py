# expect: 7:5: error: wp.static() uses the loop variable 'j', so the loop is unrolled, which needs range() bounds that are int constants
import warp as wp


@wp.kernel
def k(o: wp.array(dtype=int), n: int):
    for j in range(n):
        o[j] = wp.static(j)
