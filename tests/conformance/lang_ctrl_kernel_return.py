# return inside a kernel: threads leave early from an if, from inside a loop and from a
# nested loop; what they stored before returning stays, what comes after does not.
# kern-test: lang_ctrl_kernel_return --dim 8 a='rand(int32,8,seed=941)' out='zeros(int32,8,3)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_kernel_return(a: wp.array(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    out[i, 0] = a[i]
    if a[i] < 20:
        return
    for k in range(10):
        if (a[i] + k) % 7 == 0:
            out[i, 1] = k
            return
        for j in range(3):
            if a[i] + k * j > 120:
                out[i, 1] = -k
                return
    out[i, 2] = 1
