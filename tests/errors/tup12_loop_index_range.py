# expect: 10:22: error: tuple index 15 is out of range for a tuple of 3 items (Warp unrolls this loop and checks the index of every trip)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2, 3)
    for i in range(16):
        if i < 3:
            a[i] = t[i]
