# Augmented assignment on locals: += -= *= /= //= %= &= |= ^= <<= >>= (int) and float, vector.
# kern-test: augassign_local --dim 8 x='arange(int32,8)' oi='zeros(int32,8,2)' of='zeros(float32,8)' ov='zeros(vec3,8)'
# kern-check: oi
# kern-check: of
# kern-check: ov
import warp as wp


@wp.kernel
def augassign_local(x: wp.array(dtype=wp.int32), oi: wp.array2d(dtype=wp.int32), of: wp.array(dtype=wp.float32),
                    ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a = x[i] + 5
    a += 3
    a *= 7
    a -= 20
    a //= 3
    a %= 11
    oi[i, 0] = a
    b = x[i] * 37 + 1
    b <<= 2
    b |= 1
    b ^= 0x55
    b &= 0xFF
    b >>= 1
    oi[i, 1] = b
    f = float(x[i])
    f += 0.5
    f *= 3.0
    f -= 1.0
    f /= 4.0
    of[i] = f
    v = wp.vec3(1.0, 2.0, 3.0)
    v += wp.vec3(f, f, f)
    v *= 2.0
    v -= wp.vec3(0.5, 0.5, 0.5)
    ov[i] = v
