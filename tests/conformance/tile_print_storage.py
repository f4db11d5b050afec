# Tiles (issue #24): print(t) says storage=shared for the tiles Warp 1.19
# keeps in shared memory (Note [tile storage] in src/lower/check_tile.c):
# storage="shared" given to the builtins that make a tile; the results of
# the view builtins (tile_view, tile_transpose, tile_reshape,
# tile_squeeze, tile_broadcast, subscripts) and tile_matmul's; and every
# tile such a builtin, tile_matmul or an element read takes, for the
# whole kernel, so a print before that use says shared too.  The rest
# (arithmetic, tile_map, tile_sum, tile_astype, copies, +=) is in
# registers.  Compared with Warp's output byte for byte.
# kern-test: tile_print_storage --dim 1 --tiled --block-dim 32 x='rand(float32,4,4,seed=7)' out='zeros(float32,4,4)'
# kern-stdout
# kern-check: out
import warp as wp


@wp.kernel
def tile_print_storage(x: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    a = wp.tile_load(x, shape=(2, 2))
    print(a)
    b = wp.tile_load(x, shape=(2, 2), storage="shared")
    print(b)
    print(wp.tile_zeros(shape=(2, 2), dtype=float, storage="shared"))
    print(wp.tile_ones(shape=2, dtype=float))
    print(wp.tile_full(shape=2, value=1.5, dtype=float, storage="shared"))
    print(wp.tile_arange(3, dtype=float))
    c = wp.tile_load(x, shape=(2, 2), offset=(1, 1))
    print(c)
    ct = wp.tile_transpose(c)
    print(ct)
    print(ct * 2.0)
    m = wp.tile_matmul(a, b)
    print(m)
    print(a + b)
    print(wp.tile_view(b, offset=(1,)))
    e = wp.tile_load(x, shape=(2, 2), offset=(2, 0))
    print(e * 2.0)
    print(e)
    print(wp.tile_map(wp.sin, b))
    print(wp.tile_sum(b))
    h = wp.tile_load(x, shape=(2, 2), offset=(2, 2))
    print(h)
    print(wp.tile_reshape(h, shape=(4,)))
    print(wp.tile_broadcast(wp.tile_load(x[0], shape=2), shape=(2, 2)))
    print(wp.tile_squeeze(wp.tile_load(x, shape=(1, 2))))
    r = wp.tile_load(x, shape=(2, 2), offset=(0, 2))
    print(r)
    print(r[1])
    g = wp.tile_load(x, shape=(2, 2), offset=(1, 0))
    print(g)
    print(g[0:1, :])
    k = wp.tile_load(x, shape=(2, 2), offset=(0, 1))
    print(k)
    print(wp.tile_astype(k, dtype=wp.float64))
    u = k
    print(u)
    d = wp.tile_load(x, shape=(2, 2), offset=(1, 2))
    print(d)
    d += k
    print(d)
    wp.tile_store(out, m)
    out[3, 3] = b[0, 1] + e[1, 0] * 0.0
