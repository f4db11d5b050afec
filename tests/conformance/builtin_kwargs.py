# Warp's value builtins with their arguments given by name (Warp binds a
# builtin's arguments to its signature's parameter names): wp.pow(x=, y=)
# in any order and mixed with positional ones, and a few others of each
# kind (two and three parameters, vectors, quaternions, transforms).
# kern-test: builtin_kwargs --dim 4 a='arange(float32,4)' out='zeros(float32,4)' ov='zeros(vec3,4)'
# kern-check: out
# kern-check: ov
import warp as wp


@wp.kernel
def builtin_kwargs(a: wp.array(dtype=float), out: wp.array(dtype=float), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i] + 1.0
    r = wp.pow(x=x, y=2.0) + wp.pow(2.0, y=x) + wp.pow(y=0.5, x=x)
    r += wp.atan2(y=x, x=2.0) + wp.clamp(x, high=2.5, low=1.5) + wp.lerp(1.0, 3.0, t=0.25 * x)
    r += wp.max(b=x, a=2.0) + wp.min(a=x, b=2.0) + wp.smoothstep(a=0.0, b=4.0, x=x)
    v = wp.vec3(x, 1.0, 2.0)
    q = wp.quat_from_axis_angle(axis=wp.vec3(0.0, 0.0, 1.0), angle=0.5 * x)
    out[i] = r + wp.dot(b=v, a=v) + wp.length(a=v)
    m = wp.transform_compose(rotation=q, position=v, scale=wp.vec3(2.0, 3.0, 4.0))
    ov[i] = wp.quat_rotate(vec=v, quat=q) + wp.cross(a=v, b=wp.vec3(0.0, 1.0, 0.0)) + wp.vec3(m[0, 3], m[1, 1], m[2, 2])
