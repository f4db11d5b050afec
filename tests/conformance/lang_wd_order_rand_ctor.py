# Warp evaluates constructor arguments left to right: random draws inside vec3, vec4,
# mat22 and quat-free vec2i constructors come out in draw order (kern's C backend once
# reversed them), also when mixed with a plain value.
# kern-test: lang_wd_order_rand_ctor --dim 4 seed='arange(int32,4)' ov='zeros(vec3,4)' o4='zeros(vec4,4)' om='zeros(mat22,4)' oi='zeros(vec2i,4)'
# kern-check: ov
# kern-check: o4
# kern-check: om
# kern-check: oi
import warp as wp


@wp.kernel
def lang_wd_order_rand_ctor(seed: wp.array(dtype=int), ov: wp.array(dtype=wp.vec3), o4: wp.array(dtype=wp.vec4),
                            om: wp.array(dtype=wp.mat22), oi: wp.array(dtype=wp.vec2i)):
    i = wp.tid()
    st = wp.rand_init(seed[i] * 17 + 5)
    ov[i] = wp.vec3(wp.randf(st), wp.randf(st), wp.randf(st))
    o4[i] = wp.vec4(wp.randf(st), 0.5, wp.randf(st, 1.0, 2.0), wp.randn(st))
    om[i] = wp.mat22(wp.randf(st), wp.randf(st), wp.randf(st), wp.randf(st))
    oi[i] = wp.vec2i(wp.randi(st, 0, 1000), wp.randi(st, 0, 1000))
