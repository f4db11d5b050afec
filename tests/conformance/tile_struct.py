# Tiles of @wp.struct elements (issue #24): tile_load / tile_store of an
# array of structs, field and element access (tile_extract, t[i].y[1]),
# tile_map with functions taking and returning structs and a struct value
# as an argument, tile_full / tile_zeros of a struct, + and - between
# struct tiles, tile_sum, t += u, t[i] += v and t[i] -= v, all field by
# field as Warp 1.19 (tile_struct_fields.py: nested structs, fields that
# are not added, sort, views, indexed loads and stores).
# kern-test: tile_struct --dim 2 --tiled --block-dim 1 a='rand(Inner,16,seed=71)' out='zeros(Inner,2,32)' sums='zeros(float32,2,12)'
# kern-check: out rtol=2e-6
# kern-check: sums rtol=2e-6
import warp as wp


@wp.struct
class Inner:
    x: wp.float32
    y: wp.vec3


@wp.func
def scale(s: Inner) -> Inner:
    r = Inner()
    r.x = s.x + 1.0
    r.y = s.y * 2.0
    return r


@wp.func
def add_inner(a: Inner, b: Inner) -> Inner:
    r = Inner()
    r.x = a.x + b.x
    r.y = a.y + b.y
    return r


@wp.func
def total(s: Inner) -> float:
    return s.x + s.y[0] + s.y[1] + s.y[2]


@wp.kernel
def tile_struct(a: wp.array(dtype=Inner), out: wp.array2d(dtype=Inner), sums: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=8, offset=i * 8)
    wp.tile_store(out[i], t)
    bias = Inner()
    bias.x = 10.0
    bias.y = wp.vec3(1.0, 2.0, 3.0)
    m = wp.tile_map(add_inner, wp.tile_map(scale, t), bias)
    wp.tile_store(out[i], m, offset=8)
    wp.tile_store(out[i], (t + m) - t, offset=16)
    wp.tile_store(out[i], wp.tile_sum(m), offset=24)
    e = wp.tile_extract(m, 3)
    sums[i, 0] = e.x + e.y[2]
    sums[i, 1] = m[5].y[1]
    wp.tile_store(sums[i], wp.tile_map(total, m), offset=2)
    g = wp.tile_full(4, value=bias, dtype=Inner)
    z = wp.tile_zeros(shape=4, dtype=Inner)
    z += g
    z[1] += e
    z[2] -= e
    wp.tile_store(out[i], z, offset=25)
    sums[i, 10] = wp.tile_extract(z, 2).x
