# Functions as compile-time values: a @wp.func bound to a local name and called through
# it, a second local name for it, a local passed to a wp.Function parameter, a
# module-level alias chosen among overloads by its wp.Function parameter, a Warp builtin
# bound to a name, and wp.static() of a module-level dict of functions and of numbers
# (bound to a local named like a Warp builtin, which the local hides), and an overload
# with a defaulted wp.Function parameter chosen over an int one for a float literal.
# kern-test: lang_func_values --dim 3 x='arange(float32,3)' out='zeros(float32,3,10)'
# kern-check: out
import warp as wp


@wp.func
def twice(x: float):
    return x * 2.0


@wp.func
def square(x: float):
    return x * x


@wp.func
def apply(g: wp.Function, x: float):
    return g(x) + 1.0


@wp.func
def apply_bound(g: wp.Function, x: float):
    h = g
    return h(x) - 1.0


@wp.func
def pick(x: int):
    return float(x)


@wp.func
def pick(g: wp.Function, x: float):
    return g(x) * 10.0


@wp.func
def pick_default(x: int):
    return float(x) - 100.0


@wp.func
def pick_default(x: float, g: wp.Function = square):
    return g(x) + 100.0


@wp.func
def bump(a: wp.array2d(dtype=float), i: int, v: float):
    a[i, 7] = v


TWICE = twice
HANDLERS = {"twice": twice, "square": square}
WEIGHTS = {"a": 0.5, "b": 2 + 1}


@wp.kernel
def lang_func_values(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = x[i]
    f = twice
    out[i, 0] = f(v)
    g = f
    out[i, 1] = apply(g, v)
    out[i, 2] = apply_bound(square, v + 1.0)
    out[i, 3] = pick(TWICE, v) + pick(i)
    s = wp.sin
    out[i, 4] = s(v)
    sq = wp.static(HANDLERS["square"])
    out[i, 5] = sq(v) + apply(wp.static(HANDLERS["twice"]), v)
    out[i, 6] = wp.static(WEIGHTS["a"]) * float(wp.static(WEIGHTS["b"]))
    w = bump
    w(out, i, v + 0.25)
    add = wp.static(HANDLERS["twice"])  # a local named like the builtin wp.add
    out[i, 8] = add(v + 0.5)
    out[i, 9] = pick_default(1.5) + pick_default(i)
