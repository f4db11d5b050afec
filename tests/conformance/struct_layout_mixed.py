# Host layout of structs with every alignment (Warp's numpy_dtype(): padding after
# bool, int8 and int16 fields, float64 vectors, uint64, int32 vectors, a 3x3 matrix,
# a nested struct ending in a bool, a quaternion, a float64 transform): records drawn by rand() are read field by field
# and written back through the elements, so a layout that differed on any backend
# would move the numbers.
# kern-test: struct_layout_mixed --dim 5 src='rand(Mixed,5,seed=11)' dst='zeros(Mixed,5)' sums='zeros(float64,5)'
# kern-check: dst
# kern-check: sums
import warp as wp


@wp.struct
class Tail:
    q: wp.int16
    flag: bool


@wp.struct
class Mixed:
    on: bool
    pos: wp.vec3d
    small: wp.int8
    rot: wp.mat33
    count: wp.uint64
    idx: wp.vec2i
    s16: wp.int16
    tail: Tail
    q: wp.quat
    last: wp.uint8
    xf: wp.transformd


@wp.kernel
def struct_layout_mixed(src: wp.array(dtype=Mixed), dst: wp.array(dtype=Mixed), sums: wp.array(dtype=wp.float64)):
    i = wp.tid()
    m = src[i]
    dst[i] = m
    dst[i].pos[1] = m.pos[0] + m.pos[2]
    dst[i].rot[2, 0] = m.rot[0, 2] * 2.0
    dst[i].count = m.count + wp.uint64(1000)
    dst[i].idx.y = m.idx[0] - m.idx[1]
    dst[i].tail.flag = not m.tail.flag
    dst[i].last = m.last + wp.uint8(1)
    dst[i].q = wp.quat_inverse(m.q)
    dst[i].xf[6] = m.xf[0]
    s = m.pos[0] + m.pos[1] + m.pos[2] + wp.float64(m.small) + wp.float64(m.rot[1, 1])
    s = s + wp.float64(m.count) + wp.float64(m.idx[1]) + wp.float64(m.s16) + wp.float64(m.tail.q)
    if m.on:
        s = s + wp.float64(0.5)
    sums[i] = s
