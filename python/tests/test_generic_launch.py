"""Generic kernels (typing.Any parameters) called from Python: the call
instantiates the kernel for the arguments' types, as wp.launch does
(runtime/generic.c), once per signature."""
import pytest

import kern

SRC = '''
from typing import Any
import warp as wp

@wp.kernel
def axpy(x: wp.array(dtype=Any), y: wp.array(dtype=Any), a: Any, n: wp.int64):
    i = wp.tid()
    y[i] = a * x[i] + y[i] + type(a)(n)

@wp.kernel
def rows(m: wp.array2d(dtype=Any), out: wp.array(dtype=Any)):
    i = wp.tid()
    s = out.dtype(0)
    for j in range(m.shape[1]):
        s = s + m[i, j]
    out[i] = s

wp.overload(rows, [wp.array2d(dtype=int), wp.array(dtype=int)])
'''


@pytest.fixture
def mod(device):
    m = kern.load(SRC, device=device, name="generic_launch.py")
    yield m
    m.close()


def test_instantiated_per_signature(mod):
    np = pytest.importorskip("numpy")
    assert "axpy" not in mod.kernels  # no wp.overload in the source
    k = mod.axpy
    assert isinstance(k, kern.GenericKernel)
    x = kern.array(np.arange(4, dtype=np.float32), device=mod.device)
    y = kern.ones(4, dtype=kern.float32, device=mod.device)
    k(x, y, 2.0, 1, dim=4)  # float32 from the Python float; n keeps int64
    assert y.numpy().tolist() == [2.0, 4.0, 6.0, 8.0]
    inst = k.instance(x, y, 2.0, 1)
    assert inst.name == "axpy[array(dtype=float32),array(dtype=float32),float32,int64]"
    assert k.instance(x, y, 3.0, 5) is inst  # the same signature: no new build

    xd = kern.array(np.arange(4, dtype=np.float64), device=mod.device)
    yd = kern.zeros(4, dtype=kern.float64, device=mod.device)
    # a float64 array with a float32 scalar does not compile, as in Warp
    with pytest.raises(kern.CompileError, match="instantiating the generic kernel 'axpy'"):
        k(xd, yd, 2.0, 0, dim=4)
    # integers: int32 arrays and an int
    xi = kern.array(np.arange(4, dtype=np.int32), device=mod.device)
    yi = kern.zeros(4, dtype=kern.int32, device=mod.device)
    kern.launch(k, dim=4, inputs=[xi, yi, 3, 10])
    assert yi.numpy().tolist() == [10, 13, 16, 19]
    assert k.instance(xi, yi, 3, 10).name.startswith("axpy[array(dtype=int32)")


def test_numpy_arguments_and_keywords(mod):
    np = pytest.importorskip("numpy")
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    out = np.zeros(3, dtype=np.float64)
    mod.rows(m, out=out, dim=3, copy=True)
    assert out.tolist() == [6.0, 22.0, 38.0]
    # the source's own int overload is the instantiation an int32 call gets
    mi = kern.array(np.ones((2, 5), dtype=np.int32), device=mod.device)
    oi = kern.zeros(2, dtype=kern.int32, device=mod.device)
    own = mod.kernel("rows[array(dtype=int32,ndim=2),array(dtype=int32)]")
    assert mod.rows.instance(mi, oi) is own
    mod.rows(mi, oi, dim=2)
    assert oi.numpy().tolist() == [5, 5]


def test_misfits_name_the_parameter(mod):
    np = pytest.importorskip("numpy")
    x = kern.zeros(4, dtype=kern.float32, device=mod.device)
    with pytest.raises(kern.TypeMismatchError, match="argument 3 'a'"):
        mod.axpy(x, x, (1.0, 2.0), 1, dim=4)
    m1 = kern.zeros(4, dtype=kern.float32, device=mod.device)
    with pytest.raises(kern.TypeMismatchError, match="parameter 1 'm' of 'rows'"):
        mod.rows(m1, m1, dim=4)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        mod.axpy(x, x, 1.0, dim=4)
