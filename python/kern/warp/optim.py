"""kern.warp.optim: Warp's ``warp.optim`` optimizers, Adam and SGD, over kern.

The constructors and ``step(grad)`` follow Warp 1.19's documented API: an
optimizer holds a list of one-dimensional parameter arrays (float32 or
vec3, Warp's ``array.flatten()`` views serve), and ``step`` takes one
gradient array per parameter and updates every parameter in place with one
kern kernel launch each, on the parameter's device.

Adam (Kingma and Ba, 2015) with step count t starting at 0::

    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    mhat = m / (1 - beta1 ** (t + 1))
    vhat = v / (1 - beta2 ** (t + 1))
    p = p - lr * mhat / (sqrt(vhat) + eps)

SGD with momentum, dampening, weight decay and Nesterov momentum as
PyTorch documents it (the form Warp's SGD takes)::

    g = g + weight_decay * p
    b = g at t == 0, else momentum * b + (1 - dampening) * g  (momentum > 0)
    g = g + momentum * b if nesterov else b                   (momentum > 0)
    p = p - lr * g
"""
from typing import Any

from .. import _array
from .._errors import InvalidArgumentError, TypeMismatchError
from .. import warp as wp

__all__ = ["Adam", "SGD"]


@wp.kernel
def _adam_f32(g: wp.array(dtype=float), m: wp.array(dtype=float),
              v: wp.array(dtype=float), lr: float, beta1: float,
              beta2: float, t: float, eps: float,
              p: wp.array(dtype=float)):
    i = wp.tid()
    gi = g[i]
    mi = beta1 * m[i] + (1.0 - beta1) * gi
    vi = beta2 * v[i] + (1.0 - beta2) * gi * gi
    m[i] = mi
    v[i] = vi
    mhat = mi / (1.0 - wp.pow(beta1, t + 1.0))
    vhat = vi / (1.0 - wp.pow(beta2, t + 1.0))
    p[i] = p[i] - lr * mhat / (wp.sqrt(vhat) + eps)


@wp.kernel
def _adam_vec3(g: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.vec3),
               v: wp.array(dtype=wp.vec3), lr: float, beta1: float,
               beta2: float, t: float, eps: float,
               p: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    gi = g[i]
    mi = beta1 * m[i] + (1.0 - beta1) * gi
    vi = beta2 * v[i] + (1.0 - beta2) * wp.cw_mul(gi, gi)
    m[i] = mi
    v[i] = vi
    mhat = mi / (1.0 - wp.pow(beta1, t + 1.0))
    vhat = vi / (1.0 - wp.pow(beta2, t + 1.0))
    den = wp.vec3(wp.sqrt(vhat[0]) + eps, wp.sqrt(vhat[1]) + eps,
                  wp.sqrt(vhat[2]) + eps)
    p[i] = p[i] - lr * wp.cw_div(mhat, den)


# One generic kernel for both element types: Warp instantiates it per
# dtype at launch, and so does kern (typing.Any parameters).
@wp.kernel
def _sgd(g: wp.array(dtype=Any), b: wp.array(dtype=Any), lr: float,
         momentum: float, dampening: float, weight_decay: float,
         nesterov: int, t: int, p: wp.array(dtype=Any)):
    i = wp.tid()
    gt = g[i]
    if weight_decay != 0.0:
        gt = gt + weight_decay * p[i]
    if momentum != 0.0:
        bt = gt
        if t > 0:
            bt = momentum * b[i] + (1.0 - dampening) * gt
        b[i] = bt
        if nesterov != 0:
            gt = gt + momentum * bt
        else:
            gt = bt
    p[i] = p[i] - lr * gt


def _kernel_for(p, f32, v3, who):
    if not isinstance(p, _array.Array):
        raise InvalidArgumentError("%s: a parameter is a kern.warp array, got "
                                   "%r" % (who, p))
    if p.ndim != 1:
        raise InvalidArgumentError(
            "%s: parameters are one-dimensional arrays (use a.flatten()), got "
            "shape %r" % (who, p.shape))
    name = p.dtype.name
    if name == "float32":
        return f32
    if name in ("vec3", "vec3f"):
        return v3
    raise TypeMismatchError("%s: parameters are float32 or vec3 arrays, got %s"
                            % (who, name))


def _check_grads(grad, params, who):
    grad = list(grad)
    if len(grad) != len(params):
        raise InvalidArgumentError("%s.step: %d gradients for %d parameters"
                                   % (who, len(grad), len(params)))
    for i, (g, p) in enumerate(zip(grad, params)):
        if (not isinstance(g, _array.Array) or tuple(g.shape) != tuple(p.shape)
                or g.dtype != p.dtype or g.device != p.device):
            raise TypeMismatchError(
                "%s.step: gradient %d is %r; parameter %d is %r" % (who, i, g, i, p))
    return grad


class Adam:
    """Adam(params=None, lr=0.001, betas=(0.9, 0.999), eps=1e-08); the
    update of the module docstring, one launch per parameter array."""

    def __init__(self, params=None, lr=0.001, betas=(0.9, 0.999), eps=1e-08):
        self.m = []
        self.v = []
        self.kernels = []
        self.set_params(params)
        self.lr = lr
        self.beta1, self.beta2 = betas
        self.eps = eps
        self.t = 0

    def set_params(self, params):
        self.params = list(params) if params is not None else []
        self.kernels = [_kernel_for(p, _adam_f32, _adam_vec3, "warp.optim.Adam")
                        for p in self.params]
        self.m = [wp.zeros_like(p) for p in self.params]
        self.v = [wp.zeros_like(p) for p in self.params]

    def reset_internal_state(self):
        for a in self.m + self.v:
            a.zero_()
        self.t = 0

    def step(self, grad):
        grad = _check_grads(grad, self.params, "warp.optim.Adam")
        for k, g, m, v, p in zip(self.kernels, grad, self.m, self.v, self.params):
            wp.launch(k, dim=p.shape[0],
                      inputs=[g, m, v, float(self.lr), float(self.beta1),
                              float(self.beta2), float(self.t),
                              float(self.eps)],
                      outputs=[p], device=p.device, record_tape=False)
        self.t += 1


class SGD:
    """SGD(params=None, lr=0.001, momentum=0.0, dampening=0.0,
    weight_decay=0.0, nesterov=False); the update of the module docstring."""

    def __init__(self, params=None, lr=0.001, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False):
        self.set_params(params)
        self.lr = lr
        self.momentum = momentum
        self.dampening = dampening
        self.weight_decay = weight_decay
        self.nesterov = nesterov
        self.t = 0

    def set_params(self, params):
        self.params = list(params) if params is not None else []
        self.kernels = [_kernel_for(p, _sgd, _sgd, "warp.optim.SGD")
                        for p in self.params]
        self.b = [wp.zeros_like(p) for p in self.params]

    def reset_internal_state(self):
        for a in self.b:
            a.zero_()
        self.t = 0

    def step(self, grad):
        grad = _check_grads(grad, self.params, "warp.optim.SGD")
        for k, g, b, p in zip(self.kernels, grad, self.b, self.params):
            wp.launch(k, dim=p.shape[0],
                      inputs=[g, b, float(self.lr), float(self.momentum),
                              float(self.dampening), float(self.weight_decay),
                              int(bool(self.nesterov)), int(self.t)],
                      outputs=[p], device=p.device, record_tape=False)
        self.t += 1
