# A file that imports warp under several names (`import warp`, `import
# warp as wp`, `import warp as w2`): each name reaches Warp's decorators,
# types, constants and builtins, as in Python.  (kern once kept only the
# last name, and a file decorating with another compiled to no kernels.)
# kern-test: lang_warp_aliases --dim 4 a='zeros(float32,4)' b='zeros(float32,4)'
# kern-check: a
# kern-check: b
import warp
import warp as wp
import warp as w2

N = w2.constant(3)


@w2.func
def twice(x: float):
    return 2.0 * x


@warp.kernel
def lang_warp_aliases(a: wp.array(dtype=float), b: warp.array(dtype=w2.float32)):
    i = w2.tid()
    a[i] = twice(w2.sin(float(i))) + float(N)
    b[i] = warp.cos(wp.float32(i))
