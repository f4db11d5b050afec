import warp as wp


@wp.kernel
def broken(x: wp.array(dtype=wp.float32)):
    i = wp.tid()
    x[i] = undefined_name
