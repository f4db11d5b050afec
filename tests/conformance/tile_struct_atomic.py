# Tiles of structs (issue #24): wp.tile_atomic_add and
# wp.tile_atomic_add_indexed into arrays of structs add field by field
# (Note [struct tile atomics]): float, int32, uint32, int64, float64,
# vector and matrix fields, a nested struct's too, each by its own atomic;
# bool, int8 and int16 fields keep the destination's value.  Two blocks add
# into acc and, through a permutation, into ix (two terms an element, so
# the float sums do not depend on the order); each block adds into its own
# row of own, and the returned tile of old values goes to old.
# kern-test: tile_struct_atomic --dim 2 --tiled --block-dim 16 a='rand(Item,2,8,seed=81)' acc='rand(Item,8,seed=82)' own='rand(Item,2,8,seed=83)' old='zeros(Item,2,8)' ix='rand(Item,8,seed=84)'
# why: acc and ix start nonzero, so the two blocks' adds may round in either order (one ulp)
# kern-check: acc rtol=1e-6
# kern-check: own
# kern-check: old
# why: as acc
# kern-check: ix rtol=1e-6
import warp as wp


@wp.struct
class Leaf:
    w: wp.float64
    k: wp.int64
    h: wp.int16


@wp.struct
class Item:
    x: float
    v: wp.vec3
    m: wp.mat22
    n: wp.int32
    u: wp.uint32
    flag: bool
    small: wp.int8
    leaf: Leaf


@wp.func
def scatter(x: int) -> int:
    return (x * 3) % 8


@wp.kernel
def tile_struct_atomic(a: wp.array2d(dtype=Item), acc: wp.array(dtype=Item), own: wp.array2d(dtype=Item),
                       old: wp.array2d(dtype=Item), ix: wp.array(dtype=Item)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(1, 8), offset=(i, 0))
    row = wp.tile_load(a[i], shape=8)
    wp.tile_atomic_add(acc, row)
    o = wp.tile_atomic_add(own, t, offset=(i, 0))
    wp.tile_store(old, o, offset=(i, 0))
    idx = wp.tile_map(scatter, wp.tile_arange(8, dtype=int))
    wp.tile_atomic_add_indexed(ix, indices=idx, t=row, axis=0)
