# A @wp.struct with fields of every integer width and bool (int8, uint8, int16, uint16,
# uint32, int64, uint64, bool) in an array: read, converted, changed and written back,
# so the layout of small fields and padding matches Warp's.
# kern-test: lang_struct_bool_int_widths --dim 4 arr='rand(Packed,4,seed=1161)' out='zeros(int64,4,3)'
# kern-check: arr
# kern-check: out
import warp as wp


@wp.struct
class Packed:
    a: wp.int8
    flag: bool
    b: wp.uint16
    c: wp.int16
    d: wp.uint8
    e: wp.uint32
    f: wp.int64
    g: wp.uint64


@wp.kernel
def lang_struct_bool_int_widths(arr: wp.array(dtype=Packed), out: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    p = arr[i]
    out[i, 0] = wp.int64(p.a) + wp.int64(p.b) * wp.int64(10) + wp.int64(p.c) * wp.int64(1000)
    out[i, 1] = wp.int64(p.d) + wp.int64(p.e) + p.f + wp.int64(p.g)
    out[i, 2] = wp.int64(int(p.flag))
    p.a = wp.int8(-100 - i)
    p.flag = not p.flag
    p.b = p.b + wp.uint16(60000)
    p.e = p.e - wp.uint32(1000)
    p.g = p.g << wp.uint64(40)
    arr[i] = p
