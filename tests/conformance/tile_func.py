# Tiles (issue #24) as @wp.func parameters and results, where a block is
# one thread (Warp's CPU resolves block_dim to 1).  Covered: parameters
# annotated wp.tile[dtype, Literal[M], Literal[N]], wp.tile[dtype, M, N]
# with module constants, wp.tile[dtype, (M, N)], wp.tile(dtype=, shape=),
# wp.tile[dtype] and wp.tile[dtype,] (any shape; called with two shapes)
# and typing.Any;
# results annotated with a tile type and unannotated ones (a new tile, the
# parameter itself, a reduction's one-element tile); a function updating
# its tile parameter in place (t += u, seen by the caller, as Warp passes
# tiles by reference) and one binding the parameter's name to a new tile
# (the caller's tile unchanged); tiles of int32 and vec3; a function
# passing its tile parameter on to another; wp.static(len(t)) of a tile
# (its first dimension, known when the kernel is compiled).
# kern-test: tile_func --dim 2 --tiled --block-dim 8 a='rand(float32,6,4,seed=3)' n='arange(int32,12)' v='rand(vec3,2,3,seed=4)' out='zeros(float32,6,4)' upd='zeros(float32,6,4)' keep='zeros(float32,6,4)' sums='zeros(float32,2,4)' ints='zeros(int32,2,6)' vecs='zeros(vec3,2,3)'
# kern-check: out
# kern-check: upd
# kern-check: keep
# kern-check: sums
# kern-check: ints
# kern-check: vecs
from typing import Any, Literal

import warp as wp

M = wp.constant(3)
N = wp.constant(4)


@wp.func
def scaled(t: wp.tile[float, Literal[3], Literal[4]], s: float) -> wp.tile[float, Literal[3], Literal[4]]:
    return t * s


@wp.func
def shifted(t: wp.tile[float, M, N]) -> wp.tile[float, M, N]:
    return t + wp.tile_ones(shape=(M, N), dtype=float)


@wp.func
def same(t: wp.tile[float, (3, 4)]):
    return t


@wp.func
def dup(t: wp.tile(dtype=float, shape=(M, N))):
    return t + t


@wp.func
def tripled(t: wp.tile[float,]):
    return t * 3.0


@wp.func
def total(t: wp.tile[float]):
    return wp.tile_sum(t) * 0.5


@wp.func
def bump(t: Any, s: float):
    t += wp.tile_full(shape=(M, N), value=s, dtype=float)


@wp.func
def bump_twice(t: wp.tile[float, M, N]):
    bump(t, 1.0)
    bump(t, 2.0)


@wp.func
def rebound(t: wp.tile[float]):
    t = wp.tile_zeros(shape=(M, N), dtype=float)
    return t


@wp.func
def made(x: int) -> wp.tile[int, 6]:
    return wp.tile_arange(6, dtype=int) * x


@wp.func
def doubled(t: wp.tile[int, 6]):
    return t + t


@wp.func
def vnorm(t: wp.tile[wp.vec3, 3]):
    return wp.tile_map(wp.normalize, t)


@wp.kernel
def tile_func(a: wp.array2d(dtype=float), n: wp.array(dtype=int), v: wp.array2d(dtype=wp.vec3),
              out: wp.array2d(dtype=float), upd: wp.array2d(dtype=float), keep: wp.array2d(dtype=float),
              sums: wp.array2d(dtype=float), ints: wp.array2d(dtype=int), vecs: wp.array2d(dtype=wp.vec3)):
    i, lane = wp.tid()
    t = wp.tile_load(a, shape=(M, N), offset=(i * M, 0))
    wp.tile_store(out, dup(same(shifted(scaled(t, 2.0)))), offset=(i * M, 0))
    u = wp.tile_load(a, shape=(M, N), offset=(i * M, 0))
    bump_twice(u)
    wp.tile_store(upd, u, offset=(i * M, 0))
    w = rebound(u)
    wp.tile_store(keep, u + w, offset=(i * M, 0))
    r = wp.tile_load(a[i * M], shape=N)
    sums[i, 0] = total(t)[0]
    sums[i, 1] = total(tripled(r))[0]
    s = total(u)
    wp.tile_store(sums[i], s, offset=2)
    sums[i, 3] = float(wp.static(len(t)) * 10 + wp.static(len(r)))
    k = wp.tile_load(n, shape=6, offset=i * 6)
    wp.tile_store(ints[i], doubled(k) + made(i + 1))
    vt = wp.tile_load(v[i], shape=3)
    wp.tile_store(vecs[i], vnorm(vt))
