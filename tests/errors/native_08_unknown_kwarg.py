# expect: 5:30: error: @wp.func_native has no argument 'grad_snippet' (kern takes snippet, adj_snippet and replay_snippet)
import warp as wp


@wp.func_native("return x;", grad_snippet="")
def same(x: int) -> int: ...


@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = same(a[0])
