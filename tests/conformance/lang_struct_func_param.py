# Structs passed to @wp.func by value (changes stay inside), from array elements and
# from a kernel parameter, and a function taking two structs of different types.
# kern-test: lang_struct_func_param --dim 4 items='rand(Item,4,seed=361)' cfg='{scale=2.0,shift=(1,0,-1)}' out='zeros(float,4,4)' ov='zeros(vec3,4)'
# kern-check: out
# kern-check: ov
import warp as wp


@wp.struct
class Item:
    p: wp.vec3
    w: float


@wp.struct
class Config:
    scale: float
    shift: wp.vec3


@wp.func
def place(it: Item, c: Config) -> wp.vec3:
    return it.p * c.scale + c.shift * it.w


@wp.func
def heavier(it: Item) -> float:
    it.w = it.w + 100.0
    return it.w


@wp.kernel
def lang_struct_func_param(items: wp.array(dtype=Item), cfg: Config, out: wp.array2d(dtype=float),
                           ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    it = items[i]
    out[i, 0] = heavier(it)
    out[i, 1] = it.w
    out[i, 2] = heavier(items[(i + 1) % 4])
    out[i, 3] = items[(i + 1) % 4].w
    ov[i] = place(it, cfg) + place(items[0], cfg)
