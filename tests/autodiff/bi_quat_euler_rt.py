# Autodiff of quat_from_euler with axes computed at run time (Note [runtime
# euler axes]): the 12 sequences and three with a negative index (Python's,
# e[-1] the last), each picking its angles and axes by selects.
# kern-test: bi_quat_euler_rt --adjoint --dim 15 a='arange(float32,15)' v='rand(vec3,15)' out='zeros(float32,15)' adj_a='zeros(float32,15)' adj_v='zeros(vec3,15)' adj_out='ones(float32,15)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, in 67 s on a shared 2-core machine: over the 60 s bound for a vulkan autodiff file; bi_quat_euler.py, its constant-axes twin, is skipped there for its float32 sin/cos, docs/vulkan.md "Left")
# kern-check: adj_a rtol=1e-5 atol=1e-5
# kern-check: adj_v rtol=1e-5 atol=1e-5
import warp as wp


@wp.kernel
def bi_quat_euler_rt(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    t = wp.tid()
    s = t % 12
    i = s % 3
    j = (i + 1 + (s // 3) % 2) % 3
    k = 3 - i - j
    if s >= 6:
        k = i
    if t >= 12:
        i = i - 3
        k = -1
    x = a[t] * 0.1 - 0.6
    e = v[t] * 2.0 - wp.vec3(1.0, x, 0.5)
    q = wp.quat_from_euler(e, i, j, k)
    out[t] = q[0] + q[1] * 2.0 - q[2] * 0.5 + q[3] * 1.5
