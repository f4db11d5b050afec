# Tiles (issue #24): wp.tile_map with values after the first tile (Warp's
# "*args: Any"): a vector constant with a float tile (wp.mul gives a tile
# of vec3), a run-time float, and a tile and a value mixed in a @wp.func.
# kern-test: tile_map_values --dim 2 --tiled --block-dim 16 a='rand(float32,2,8,seed=71)' s=0.25 ov='zeros(vec3,2,8)' out='zeros(float32,2,2,8)'
# kern-check: ov rtol=1e-6
# kern-check: out rtol=1e-6
import warp as wp


@wp.func
def lerp3(x: float, y: float, w: float):
    return x + (y - x) * w


@wp.kernel
def tile_map_values(a: wp.array2d(dtype=float), s: float, ov: wp.array2d(dtype=wp.vec3),
                    out: wp.array3d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=8)
    wp.tile_store(ov[i], wp.tile_map(wp.mul, t, wp.vec3(1.0, 2.0, 3.0)))
    wp.tile_store(out[i, 0], wp.tile_map(wp.add, t, s * float(i + 1)))
    u = wp.tile_load(a[1 - i], shape=8)
    wp.tile_store(out[i, 1], wp.tile_map(lerp3, t, u, s))
