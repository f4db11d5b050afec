"""@wp.struct parameters from the plain package (issue #25): a dict, a
NumPy record, raw bytes or an object with the fields, packed in Warp's
layout as libkern describes it (Note [struct arguments], _module.py)."""
import numpy as np
import pytest

import kern

SRC = '''import warp as wp

@wp.struct
class Inner:
    v: wp.vec3
    k: wp.int8

@wp.struct
class S:
    a: wp.int8
    d: wp.float64
    m: wp.mat22d
    inner: Inner
    c: wp.uint16
    xs: wp.array(dtype=float)

@wp.kernel
def read(s: S, out: wp.array(dtype=wp.float64)):
    out[0] = wp.float64(s.a)
    out[1] = s.d
    out[2] = s.m[1, 0]
    out[3] = wp.float64(s.inner.v[2])
    out[4] = wp.float64(s.inner.k)
    out[5] = wp.float64(s.c)
    out[6] = wp.float64(s.xs.shape[0])
'''

SRC_NOARR = SRC.replace("    xs: wp.array(dtype=float)\n", "").replace(
    "    out[6] = wp.float64(s.xs.shape[0])\n", "")

WANT = [-3.0, 2.5, 7.0, 6.0, 4.0, 65000.0]


@pytest.fixture(scope="module")
def mod(device):
    return kern.load(SRC if device.backend != "opencl" else SRC_NOARR,
                     device=device)


def _value(with_array, device):
    v = {"a": -3, "d": 2.5, "m": [[1, 2], [7, 8]],
         "inner": {"v": (4, 5, 6), "k": 4}, "c": 65000}
    if with_array:
        v["xs"] = kern.zeros(9, device=device)
    return v


def test_param_describes_struct(mod):
    p = mod.read.params[0]
    assert p.struct_name == "S" and repr(p) == "s: S"
    names = [".".join(f.path) for f in p.fields]
    assert names[:6] == ["a", "d", "m", "inner", "inner.v", "inner.k"]
    # Warp 1.19's offsets (docs/ABI.md, "Structs").
    assert [f.offset for f in p.fields][:7] == [0, 8, 16, 48, 48, 60, 64]


def test_dict(mod, device):
    arr = device.backend != "opencl"
    out = kern.zeros(7, dtype=kern.float64, device=device)
    mod.read(_value(arr, device), out, dim=1)
    got = out.numpy().tolist()
    assert got[:6] == WANT
    if arr:
        assert got[6] == 9.0


class _Obj:
    pass


def test_object_record_and_bytes(mod, device):
    arr = device.backend != "opencl"
    d = _value(arr, device)
    o, inner = _Obj(), _Obj()
    for k, v in d.items():
        setattr(o, k, v)
    inner.v, inner.k = d["inner"]["v"], d["inner"]["k"]
    o.inner = inner
    out = kern.zeros(7, dtype=kern.float64, device=device)
    mod.read(o, out, dim=1)
    assert out.numpy().tolist()[:6] == WANT
    if arr:
        return  # a NumPy record cannot hold a kern array field
    dt = np.dtype([("a", "i1"), ("d", "f8"), ("m", "f8", (2, 2)),
                   ("inner", [("v", "f4", (3,)), ("k", "i1")]), ("c", "u2")],
                  align=True)
    r = np.zeros(1, dt)
    r["a"], r["d"], r["m"] = -3, 2.5, [[1, 2], [7, 8]]
    r["inner"]["v"], r["inner"]["k"], r["c"] = (4, 5, 6), 4, 65000
    out.zero_()
    mod.read(r[0], out, dim=1)
    assert out.numpy().tolist()[:6] == WANT
    assert mod.read.params[0].dtype.rows == dt.itemsize
    out.zero_()
    mod.read(r.tobytes(), out, dim=1)
    assert out.numpy().tolist()[:6] == WANT


def test_errors(mod, device):
    out = kern.zeros(7, dtype=kern.float64, device=device)
    with pytest.raises(kern.InvalidArgumentError,
                       match=r"read: parameter 's': the struct has no field 'inner.w'"):
        mod.read({"inner": {"w": 1}}, out, dim=1)
    with pytest.raises(kern.InvalidArgumentError, match=r"3 bytes given, the struct S is"):
        mod.read(b"abc", out, dim=1)
    with pytest.raises(kern.TypeMismatchError, match=r"struct S expects a dict"):
        mod.read(5, out, dim=1)
    with pytest.raises(kern.InvalidArgumentError, match=r"field 'inner.v': vec3 needs 3"):
        mod.read({"inner": {"v": (1, 2)}}, out, dim=1)


def test_type_constructors():
    # kern.vec3(1, 2, 3) failed with "'Type' object is not callable".
    v = kern.vec3(1, 2, 3)
    assert list(v) == [1.0, 2.0, 3.0]
    assert list(kern.mat22(1, 2, 3, 4)[1]) == [3.0, 4.0]
    assert kern.int32(7) == 7 and kern.float32(0.1) == np.float32(0.1)


QUAT_SRC = '''import warp as wp

@wp.kernel
def k(q: wp.quat, t: wp.transformd, qs: wp.array(dtype=wp.quat), v: wp.vec4,
      ts: wp.array2d(dtype=wp.transform)):
    qs[0] = q
'''


def test_quat_transform_param_names(device):
    # They printed as vec4 and vec7 (issue #25): kern_param_info.type_name.
    m = kern.load(QUAT_SRC, device=device)
    ps = m.k.params
    assert [repr(p) for p in ps] == [
        "q: quat", "t: transformd", "qs: array(dtype=quat, ndim=1)",
        "v: vec4", "ts: array(dtype=transform, ndim=2)"]
    assert ps[0].dtype == kern.vec4 and ps[0].type_name == "quat"
    assert ps[3].type_name == "vec4"
