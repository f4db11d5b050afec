# Tiles of @wp.struct elements (issue #24), continued from tile_struct.py:
# a nested struct and one with bool, int8 and int32 fields.  As Warp 1.19,
# + - tile_sum and t[i] += v work field by field on the fields of int32,
# int64, uint32, uint64 and float types (nested structs recursively); a
# bool or 8-bit field keeps the left operand's value (a sum the first
# element's).  Also tile_map on nested structs, tile_sort with struct
# values, tile_transpose / tile_reshape / tile_view of struct tiles,
# tile_load_indexed and tile_store_indexed.
# kern-test: tile_struct_fields --dim 2 --tiled --block-dim 1 a='rand(Inner,16,seed=71)' n='rand(Outer,8,seed=72)' f='rand(Flags,8,seed=73)' ix='zeros(int32,8)' out='zeros(Inner,2,16)' nout='zeros(Outer,2,24)' fout='zeros(Flags,2,24)'
# kern-check: out rtol=2e-6
# kern-check: nout rtol=2e-6
# kern-check: fout
import warp as wp


@wp.struct
class Inner:
    x: wp.float32
    y: wp.vec3


@wp.struct
class Outer:
    p: Inner
    w: wp.float32
    k: wp.int32


@wp.struct
class Flags:
    on: wp.bool
    small: wp.int8
    n: wp.int32
    v: wp.float32


@wp.func
def nested(s: Outer) -> Outer:
    r = Outer()
    r.p.x = s.p.x * 3.0
    r.p.y = s.p.y * 2.0
    r.w = s.w - 1.0
    r.k = s.k * 2
    return r


@wp.kernel
def tile_struct_fields(a: wp.array(dtype=Inner), n: wp.array(dtype=Outer), f: wp.array(dtype=Flags),
                       ix: wp.array(dtype=int), out: wp.array2d(dtype=Inner),
                       nout: wp.array2d(dtype=Outer), fout: wp.array2d(dtype=Flags)):
    i = wp.tid()
    t = wp.tile_load(a, shape=8, offset=i * 8)
    r = wp.tile_reshape(t, shape=(2, 4))
    tr = wp.tile_transpose(r)
    out[i, 0] = wp.tile_extract(tr, 3, 0)
    out[i, 1] = wp.tile_extract(tr, 1, 1)
    wp.tile_store(out[i], tr[2], offset=2)
    wp.tile_store(out[i], wp.tile_sum(r, axis=1), offset=4)
    k = wp.tile_arange(8, 0, -1, dtype=int)
    v = t + t
    wp.tile_sort(k, v)
    wp.tile_store(out[i], v, offset=6)
    ind = wp.tile_load(ix, shape=8)
    ind = ind + wp.tile_arange(7, -1, -1, dtype=int)
    gathered = wp.tile_load_indexed(a, indices=ind, shape=(8,), offset=(i * 8,), axis=0)
    wp.tile_store(out[i], wp.tile_view(gathered, offset=(0,), shape=(2,)), offset=14)
    tn = wp.tile_load(n, shape=8)
    wp.tile_store(nout[i], wp.tile_map(nested, tn))
    wp.tile_store(nout[i], tn + tn, offset=8)
    wp.tile_store(nout[i], wp.tile_sum(tn), offset=16)
    wp.tile_store_indexed(nout[i], indices=ind, t=tn - wp.tile_map(nested, tn), offset=(17,), axis=0)
    tf = wp.tile_load(f, shape=8)
    wp.tile_store(fout[i], tf + tf)
    wp.tile_store(fout[i], tf - tf, offset=8)
    wp.tile_store(fout[i], wp.tile_sum(tf), offset=16)
    c = wp.tile_zeros(shape=2, dtype=Flags)
    c[0] += f[3]
    c[1] -= f[4]
    wp.tile_store(fout[i], c, offset=17)
    wp.tile_store(fout[i], wp.tile_view(tf, offset=(2,), shape=(5,)), offset=19)
