# Array-element augmented assignment: `&=`, `|=`, `^=` lower to atomic_and/or/xor in Warp
# (shared slots, order-independent); `*=`, `//=` etc. are plain load-op-store (owned slots);
# int8/uint8/int16/uint16 elements are never atomic (owned slots); component targets
# `a[i].x += v`, `a[i][k] -= v` on vector elements.
# kern-test: augassign_array_bitwise --dim 32 m='full(int32,1,-1)' o='zeros(uint64,1)' x='zeros(int32,1)' own='arange(int32,32)' small='arange(int8,32)' vs='ones(vec3,32)'
# kern-check: m
# kern-check: o
# kern-check: x
# kern-check: own
# kern-check: small
# kern-check: vs
import warp as wp


@wp.kernel(enable_backward=False)
def augassign_array_bitwise(m: wp.array(dtype=wp.int32), o: wp.array(dtype=wp.uint64), x: wp.array(dtype=wp.int32),
                            own: wp.array(dtype=wp.int32), small: wp.array(dtype=wp.int8), vs: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    m[0] &= ~(1 << i) | 1
    o[0] |= wp.uint64(1) << wp.uint64(i * 2)
    x[0] ^= i * 7
    own[i] *= 3
    own[i] //= 2
    own[i] <<= 1
    small[i] += wp.int8(100)
    small[i] *= wp.int8(3)
    vs[i].x += float(i)
    vs[i][2] -= 0.5
    vs[i][1] *= 4.0
