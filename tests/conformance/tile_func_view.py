# Tiles (issue #24): a view of a tile (wp.tile_view, a row t[i],
# wp.tile_transpose) passed to a @wp.func that updates its parameter in
# place.  Warp passes the view, which aliases its tile, so the tile sees
# the update; kern copies views and keeps them in step after the call
# (Note [tile views in place], Note [tile parameters]).
# kern-test: tile_func_view --dim 1 --tiled --block-dim 4 a='rand(float32,4,3,seed=7)' out='zeros(float32,4,3)' rows='zeros(float32,4,3)' tr='zeros(float32,3,4)'
# kern-check: out
# kern-check: rows
# kern-check: tr
import warp as wp


@wp.func
def bump(t: wp.tile[float, 2, 3]):
    t += wp.tile_ones(shape=(2, 3), dtype=float)


@wp.func
def scale_row(r: wp.tile[float, 3], s: float):
    for j in range(3):
        r[j] = r[j] * s


@wp.func
def set_corner(t: wp.tile[float, 3, 4], x: float):
    t[0, 3] = x


@wp.kernel
def tile_func_view(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float),
                   rows: wp.array2d(dtype=float), tr: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=(4, 3))
    v = wp.tile_view(t, offset=(1, 0), shape=(2, 3))
    bump(v)
    wp.tile_store(out, t)

    u = wp.tile_load(a, shape=(4, 3))
    r = u[2]
    scale_row(r, 10.0)
    wp.tile_store(rows, u)

    w = wp.tile_load(a, shape=(4, 3))
    x = wp.tile_transpose(w)
    set_corner(x, -5.0)
    wp.tile_store(tr, wp.tile_transpose(w))
