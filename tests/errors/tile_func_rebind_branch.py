# expect: 6:9: error: assigning a new tile to the tile parameter 't' inside an if or a loop is not supported: kern binds the name to a new tile there; assign it at the function's top level or use another name
import warp as wp
@wp.func
def f(t: wp.tile[float, 2, 3], c: int):
    if c > 0:
        t = wp.tile_zeros(shape=(2, 3), dtype=float)
    return wp.tile_sum(t)
@wp.kernel
def k(a: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=(2, 3))
    out[0] = f(t, 0)[0]
    out[1] = f(t, 1)[0]
