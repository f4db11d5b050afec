# Bitwise atomics on arrays of unsigned vectors and matrices (one atomic
# per component, as Warp), through wp.atomic_and/or/xor and the augmented
# assignments, and the bit operators &, |, ^, <<, >>, ~ on unsigned
# matrices: 32 threads set, clear and flip bits of shared words, each bit
# set then cleared by its own threads or only flipped, so any order of
# the atomics gives the same words.
# kern-test: atomic_bitwise_vecmat --dim 64 a='zeros(vec3ui,2)' b='zeros(vec3ui,2)' m='zeros(mat22ui,2)' n='zeros(mat22ui,2)' s='zeros(mat22ui,64)'
# kern-check: a
# kern-check: b
# kern-check: m
# kern-check: n
# kern-check: s
import warp as wp

mat22ui = wp.types.matrix(shape=(2, 2), dtype=wp.uint32)


@wp.kernel
def atomic_bitwise_vecmat(a: wp.array(dtype=wp.vec3ui), b: wp.array(dtype=wp.vec3ui), m: wp.array(dtype=mat22ui),
                          n: wp.array(dtype=mat22ui), s: wp.array(dtype=mat22ui)):
    i = wp.tid()
    w = i // 32
    bit = wp.uint32(i % 32)
    vm = wp.vec3ui(wp.uint32(1)) << wp.vec3ui(bit, bit, wp.uint32(31) - bit)
    wp.atomic_or(a, w, vm)
    if i % 3 == 0:
        wp.atomic_xor(a, w, vm & wp.vec3ui(wp.uint32(0xFFFF0000)))
    b[w] |= vm
    b[w] &= ~(vm & wp.vec3ui(wp.uint32(0x0F0F0F0F)))
    mm = mat22ui(wp.uint32(1)) << mat22ui(bit, bit + wp.uint32(0), wp.uint32(31) - bit, bit // wp.uint32(2))
    wp.atomic_or(m, w, mm)
    wp.atomic_and(m, w, ~(mm & mat22ui(wp.uint32(0x00FF00FF))))
    n[w] ^= mm
    n[w] ^= mm >> mat22ui(wp.uint32(1))
    s[i] = (mm ^ mat22ui(wp.uint32(0xFFFF))) | (mm & ~mm)
