# expect: 5:1: error: the Warp decorator @wp.func_grad is not supported yet (custom gradients; kern differentiates kernels with kern_kernel_adjoint, issue #26)
import warp as wp


@wp.func_grad(k)
def k(a: wp.array(dtype=float)):
    pass
