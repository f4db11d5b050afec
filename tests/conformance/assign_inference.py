# Assignment with type inference: types follow the right-hand side; re-assignment keeps the type.
# kern-test: assign_inference --dim 4 x='arange(float64,4)' oi='zeros(int32,4)' of='zeros(float32,4)' od='zeros(float64,4)' ov='zeros(vec3,4)' ou='zeros(uint16,4)'
# kern-check: oi
# kern-check: of
# kern-check: od
# kern-check: ov
# kern-check: ou
import warp as wp


@wp.kernel
def assign_inference(x: wp.array(dtype=wp.float64), oi: wp.array(dtype=wp.int32), of: wp.array(dtype=wp.float32),
                     od: wp.array(dtype=wp.float64), ov: wp.array(dtype=wp.vec3), ou: wp.array(dtype=wp.uint16)):
    i = wp.tid()
    a = i + 1          # int32
    b = 0.5            # float32
    c = x[i]           # float64
    v = wp.vec3(b)     # vec3
    u = wp.uint16(65535)
    a = a * 3
    b = b * float(a)
    c = c * c
    v = v * b
    u = u + wp.uint16(i + 1)
    oi[i] = a
    of[i] = b
    od[i] = c
    ov[i] = v
    ou[i] = u
