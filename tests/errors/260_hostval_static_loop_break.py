# expect: 9:13: error: 'break' in a loop unrolled for wp.static() of its variable 'j' is not supported
import warp as wp


@wp.kernel
def k(o: wp.array(dtype=int), n: int):
    for j in range(4):
        if j == n:
            break
        o[j] = wp.static(j * 10)
