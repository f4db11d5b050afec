# Autodiff of quat_from_euler with constant axes (Tait-Bryan and proper
# sequences, a negative index as Python's): math.py's body.
# kern-test: bi_quat_euler --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,3)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,3)'
# why: Warp differentiates math.py's quat_from_euler: sin and cos of the half angles, two quaternion products
# kern-skip: vulkan-llvmpipe (not a hang: lavapipe's LLVM build of the adjoint runs past 3 minutes, its forward 1 s; the cause is float32 sin/cos's large-argument reduction k64_red_big inlined at 74 calls (2.8 s of a CPU without it, 1.3 s with GLSL's sin), 2026-11-29, docs/vulkan.md "Left")
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_quat_euler(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.2 - 0.7
    e = (v[i] - wp.vec3(0.5)) * 3.0 + wp.vec3(x, 0.0, x * x)
    q = wp.quat_from_euler(e, 0, 1, 2)
    out[i, 0] = q[0] + q[1] * 2.0 - q[2] * 0.5 + q[3] * 3.0
    r = wp.quat_from_euler(e, 2, 0, 2)
    out[i, 1] = r[0] * 1.5 + r[1] - r[2] * 2.0 + r[3]
    s = wp.quat_from_euler(e * x, 1, -1, 0)
    out[i, 2] = s[0] - s[1] + s[2] * 2.0 + s[3] * 0.5
