# A Warp-style script (run by test_warp_optim.py through `python3 -m kern.warp`):
# Tape.backward and an Adam step captured with wp.ScopedCapture, replayed
# with wp.capture_launch, against the same steps run directly.
import numpy as np

import warp as wp
import warp.optim


@wp.kernel
def sq(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(y, 0, x[i] * x[i])


def run(capture):
    x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), requires_grad=True)
    y = wp.zeros(1, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch(sq, 3, inputs=[x], outputs=[y])
    p = wp.array(np.array([0.5, -1.0, 2.0], dtype=np.float32))
    opt = warp.optim.Adam([p], lr=0.1)

    def backward():
        tape.backward(loss=y)
        opt.step([x.grad])

    if capture:
        with wp.ScopedCapture() as cap:
            backward()
        grads = x.grad.numpy().copy()
        assert not grads.any(), "a capture only records"
        wp.capture_launch(cap.graph)
    else:
        backward()
    wp.synchronize()
    return x.grad.numpy().copy(), p.numpy().copy()


g0, p0 = run(False)
g1, p1 = run(True)
print("direct:", " ".join(str(v) for v in g0))
print("replay:", " ".join(str(v) for v in g1))
print("params_direct:", " ".join(repr(float(v)) for v in p0))
print("params:", " ".join(repr(float(v)) for v in p1))

# A forward pass with zero_, fill_ and wp.copy captured and replayed three
# times: each replay starts from zero (14 = 1 + 4 + 9 each time).
x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32))
y = wp.zeros(1)
c = wp.zeros(1)
b = wp.zeros(4)
with wp.ScopedCapture() as cap:
    y.zero_()
    b.fill_(2.0)
    wp.launch(sq, 3, inputs=[x], outputs=[y])
    wp.copy(c, y)
y.fill_(100.0)
for _ in range(3):
    wp.capture_launch(cap.graph)
wp.synchronize()
print("replays:", float(y.numpy()[0]), float(c.numpy()[0]), float(b.numpy()[3]))


@wp.kernel
def dist(x: wp.array(dtype=float), t: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(y, 0, (x[i] - t[i]) * (x[i] - t[i]))


# An adjoint launch captured with None for the target's gradient.
x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), requires_grad=True)
t = wp.zeros(3)
y = wp.zeros(1, requires_grad=True)
with wp.ScopedCapture() as cap:
    y.grad.fill_(1.0)
    wp.launch(dist, 3, inputs=[x, t], outputs=[y], adj_inputs=[x.grad, None],
              adj_outputs=[y.grad], adjoint=True)
wp.capture_launch(cap.graph)
wp.synchronize()
print("skipped_adj:", " ".join(str(float(v)) for v in x.grad.numpy()))
