# Value parameters at unaligned places of the argument block: a bool first, then a
# struct whose float64 field aligns it to 8, another bool, an int8 vector and a struct
# holding bools; bool arrays, and a bool field of an array's struct element set in
# place (bool is one byte in memory, as in C: on Vulkan it is a uint8_t there).
# kern-test: vk_bool_struct_args --dim 4 f=true p='{k=3,d=2.5,on=true}' g=false bv=1,0,1 q='{a=1,hit=true,w=0.5,seen=false,n=-2}' flags='rand(bool,4,seed=5)' items='zeros(Item,4)' out='zeros(float64,4,6)' ob='zeros(bool,4,2)'
# kern-check: out
# kern-check: ob
# kern-check: items
import warp as wp


@wp.struct
class Params:
    k: wp.int8
    d: wp.float64
    on: bool


@wp.struct
class Item:
    a: wp.int16
    hit: bool
    w: wp.float32
    seen: bool
    n: wp.int32


@wp.kernel
def vk_bool_struct_args(f: bool, p: Params, g: bool, bv: wp.vec3b, q: Item, flags: wp.array(dtype=bool),
                        items: wp.array(dtype=Item), out: wp.array2d(dtype=wp.float64),
                        ob: wp.array2d(dtype=bool)):
    i = wp.tid()
    out[i, 0] = p.d * wp.float64(p.k) + wp.float64(i)
    out[i, 1] = wp.float64(1.0) if f else wp.float64(-1.0)
    out[i, 2] = wp.float64(1.0) if g else wp.float64(-1.0)
    out[i, 3] = wp.float64(1.0) if p.on else wp.float64(-1.0)
    out[i, 4] = wp.float64(q.n) if q.hit and not q.seen else wp.float64(0.0)
    out[i, 5] = wp.float64(1.0) if bv[i % 3] != wp.int8(0) else wp.float64(-1.0)
    ob[i, 0] = flags[i] and f
    ob[i, 1] = not flags[i]
    items[i].a = wp.int16(i * 10 - 7)
    items[i].hit = flags[i]
    items[i].w = float(i) * 0.5
    items[i].seen = not flags[i]
