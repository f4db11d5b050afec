# Python's float, int and bool as types everywhere a type goes: kernel scalar and
# array parameters, @wp.func parameters and return types, casts and array dtypes.
# kern-test: lang_annot_python_types --dim 5 x='rand(float,5,seed=61)' n='arange(int,5)' flag=true scale=2.5 shift=3 out='zeros(float,5)' oi='zeros(int,5)' ob='zeros(bool,5)'
# kern-check: out
# kern-check: oi
# kern-check: ob
import warp as wp


@wp.func
def pick(c: bool, a: float, b: float) -> float:
    if c:
        return a
    return b


@wp.func
def bump(k: int, by: int) -> int:
    return k * by + 1


@wp.func
def positive(x: float) -> bool:
    return x > 0.5


@wp.kernel
def lang_annot_python_types(x: wp.array(dtype=float), n: wp.array(dtype=int), flag: bool, scale: float,
                            shift: int, out: wp.array(dtype=float), oi: wp.array(dtype=int),
                            ob: wp.array(dtype=bool)):
    i = wp.tid()
    f = x[i] * scale
    out[i] = pick(flag and n[i] % 2 == 0, f, -f) + float(shift)
    oi[i] = bump(n[i], shift) + int(f)
    ob[i] = positive(x[i] * 2.0 - float(i) * 0.2) != flag
