"""kern arrays and foreign arrays: NumPy always; PyTorch, CuPy, JAX where
installed (those tests skip, with the reason, when the library is absent)."""
import gc

import numpy as np
import pytest

import kern

SRC = """import warp as wp

@wp.kernel
def axpb(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), a: wp.float32, b: wp.float32):
    i = wp.tid()
    y[i] = a * x[i] + b

@wp.kernel
def scale3(v: wp.array(dtype=wp.vec3), s: wp.float32):
    i = wp.tid()
    v[i] = v[i] * s

@wp.kernel
def add2d(a: wp.array2d(dtype=wp.float64), k: wp.float64):
    i, j = wp.tid()
    a[i, j] = a[i, j] + k * wp.float64(i) + wp.float64(j)

@wp.kernel
def sumsq(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])

@wp.kernel
def shift(x: wp.array(dtype=wp.int32), k: wp.int32):
    i = wp.tid()
    x[i] = x[i] + k
"""


@pytest.fixture(scope="module")
def mod(device):
    return kern.load(SRC, device=device, name="interop.py")


def test_array_round_trip(device):
    for dt, npdt in ((kern.float32, np.float32), (kern.float64, np.float64),
                     (kern.int32, np.int32), (kern.uint8, np.uint8),
                     (kern.int64, np.int64)):
        h = (np.arange(24) % 7).astype(npdt).reshape(2, 3, 4)
        a = kern.array(h, device=device)
        assert a.shape == (2, 3, 4) and a.dtype == dt and a.device == device
        np.testing.assert_array_equal(a.numpy(), h)
        np.testing.assert_array_equal(np.asarray(a), h)


def test_zeros_ones_full_and_vector_dtypes(device):
    z = kern.zeros((5, 2), dtype=kern.float64, device=device)
    assert z.numpy().shape == (5, 2) and not z.numpy().any()
    o = kern.ones(7, dtype=kern.int32, device=device)
    np.testing.assert_array_equal(o.numpy(), np.ones(7, np.int32))
    f = kern.full(4, [1, 2, 3], dtype=kern.vec3, device=device)
    assert f.shape == (4,) and f.numpy().shape == (4, 3)
    np.testing.assert_array_equal(f.numpy(), np.tile(np.float32([1, 2, 3]), (4, 1)))
    m = kern.array(np.eye(3, dtype=np.float32)[None].repeat(2, 0), dtype=kern.mat33, device=device)
    assert m.shape == (2,) and m.dtype == kern.mat33


def test_kernel_on_kern_arrays(mod, device):
    x = kern.array(np.arange(100, dtype=np.float32), device=device)
    y = kern.zeros(100, device=device)
    mod.axpb(x, y, 3.0, -1.0, dim=100)
    np.testing.assert_array_equal(y.numpy(), np.arange(100, dtype=np.float32) * 3 - 1)
    # Warp's spelling, and arguments by name.
    kern.launch(mod.axpb, dim=100, inputs=[x, y, 1.0, 0.0])
    np.testing.assert_array_equal(y.numpy(), np.arange(100, dtype=np.float32))
    mod.axpb(x=x, y=y, a=2.0, b=1.0, dim=100)
    np.testing.assert_array_equal(y.numpy(), np.arange(100, dtype=np.float32) * 2 + 1)


def test_vec3_and_2d_kernels(mod, device):
    h = np.arange(30, dtype=np.float32).reshape(10, 3)
    v = kern.array(h, dtype=kern.vec3, device=device)
    mod.scale3(v, 0.5, dim=10)
    np.testing.assert_array_equal(v.numpy(), h * 0.5)
    a = kern.zeros((3, 4), dtype=kern.float64, device=device)
    mod.add2d(a, 10.0, dim=(3, 4))
    i, j = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")
    np.testing.assert_array_equal(a.numpy(), 10.0 * i + j)


def test_numpy_in_place_without_copy(mod, device):
    if not device.is_cpu:
        pytest.skip("host arrays are used in place only by the CPU backend")
    x = np.linspace(0, 1, 1000, dtype=np.float32)
    y = np.zeros(1000, np.float32)
    before = y.__array_interface__["data"][0]
    mod.axpb(x, y, 2.0, 1.0, dim=1000)
    assert y.__array_interface__["data"][0] == before
    np.testing.assert_array_equal(y, x * np.float32(2) + np.float32(1))
    # A vec3 array of NumPy shape (n, 3), and the same array twice.
    v = np.ones((4, 3), np.float32)
    mod.scale3(v, 3.0, dim=4)
    mod.scale3(v, 3.0, dim=4)
    np.testing.assert_array_equal(v, np.full((4, 3), 9, np.float32))
    # The wrapper is reused; a new array at a new address gets a new one.
    for _ in range(3):
        z = np.zeros(8, np.int32)
        mod.shift(z, 5, dim=8)
        np.testing.assert_array_equal(z, np.full(8, 5, np.int32))
        del z
        gc.collect()


def test_numpy_view_shares_memory_on_cpu(device):
    if not device.is_cpu:
        pytest.skip("CPU arrays only")
    a = kern.zeros(6, dtype=kern.int32, device=device)
    view = a.numpy()
    a.fill_(7)
    np.testing.assert_array_equal(view, np.full(6, 7, np.int32))
    a.free()
    # The view keeps the memory alive after the Array is freed.
    assert view.sum() == 42
    with pytest.raises(kern.InvalidHandleError):
        a.numpy()


def test_copy_false_wraps_numpy(mod, device):
    h = np.arange(16, dtype=np.float32)
    if device.is_cpu:
        w = kern.array(h, device=device, copy=False)
        assert w.ptr == h.__array_interface__["data"][0]
        mod.axpb(w, w, 2.0, 0.0, dim=16)
        np.testing.assert_array_equal(h, np.arange(16, dtype=np.float32) * 2)
    else:
        with pytest.raises(kern.InvalidArgumentError, match="host memory"):
            kern.array(h, device=device, copy=False)


def test_host_array_on_gpu_needs_copy(mod, device):
    if device.is_cpu:
        pytest.skip("needs a device that cannot read host memory")
    x = np.arange(32, dtype=np.float32)
    y = np.zeros(32, np.float32)
    with pytest.raises(kern.InvalidArgumentError, match=r"parameter 'x'.*copy=True"):
        mod.axpb(x, y, 1.0, 1.0, dim=32)
    mod.axpb(x, y, 1.0, 1.0, dim=32, copy=True)
    np.testing.assert_array_equal(y, x + 1)


def test_dlpack_kern_to_numpy(device):
    a = kern.array(np.arange(12, dtype=np.float64).reshape(3, 4), device=device)
    if not device.is_cpu:
        if device.is_opencl:
            with pytest.raises(kern.UnsupportedError):
                a.__dlpack_device__()
        pytest.skip("NumPy reads DLPack from the CPU only")
    v = np.from_dlpack(a)
    assert v.shape == (3, 4) and v.dtype == np.float64
    a.fill_(2.5)
    assert (v == 2.5).all(), "np.from_dlpack copied instead of aliasing"
    del a
    gc.collect()
    assert (v == 2.5).all()  # the capsule keeps the memory alive


def test_dlpack_numpy_to_kern(mod, device):
    h = np.arange(10, dtype=np.int32)
    if not device.is_cpu:
        pytest.skip("NumPy's DLPack memory is host memory")
    a = kern.from_dlpack(h)
    assert a.shape == (10,) and a.dtype == kern.int32 and a.ptr == h.ctypes.data
    mod.shift(a, 3, dim=10)
    np.testing.assert_array_equal(h, np.arange(10, dtype=np.int32) + 3)
    a.free()
    gc.collect()
    np.testing.assert_array_equal(h, np.arange(10, dtype=np.int32) + 3)


def test_dlpack_capsule_not_consumed_is_freed(device):
    if not device.is_cpu:
        pytest.skip("CPU export")
    a = kern.zeros(4, device=device)
    for _ in range(100):
        cap = a.__dlpack__()
        del cap
    from kern import _array
    gc.collect()
    assert not _array._exports, "unconsumed capsules leaked their tensors"


def test_sum_of_squares_float64(mod, device):
    rng = np.random.default_rng(5)
    h = rng.random(100000)
    x = kern.array(h, device=device)
    out = kern.zeros(1, dtype=kern.float64, device=device)
    mod.sumsq(x, out, dim=h.size)
    np.testing.assert_allclose(out.numpy()[0], np.dot(h, h), rtol=1e-9)


# ---------------------------------------------------------------- PyTorch


def test_torch_in_place(mod, device):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if device.is_opencl:
        pytest.skip("PyTorch has no OpenCL tensors")
    tdev = "cpu" if device.is_cpu else "cuda:%d" % device.ordinal
    x = torch.arange(64, dtype=torch.float32, device=tdev)
    y = torch.zeros(64, dtype=torch.float32, device=tdev)
    mod.axpb(x, y, 2.0, 1.0, dim=64)
    kern.synchronize()
    assert torch.equal(y, x * 2 + 1)
    # kern -> torch through DLPack, no copy
    a = kern.array(np.arange(5, dtype=np.float32), device=device)
    t = torch.from_dlpack(a)
    a.fill_(4.0)
    kern.synchronize()
    assert t.device.type == ("cpu" if device.is_cpu else "cuda")
    assert torch.equal(t.cpu(), torch.full((5,), 4.0))
    # wrong dtype names the parameter
    with pytest.raises(kern.TypeMismatchError, match="parameter 'x'"):
        mod.axpb(x.double(), y, 1.0, 0.0, dim=64)
    # non-contiguous refused
    with pytest.raises(kern.InvalidArgumentError, match="contiguous"):
        mod.axpb(torch.zeros(128, device=tdev)[::2], y, 1.0, 0.0, dim=64)


def test_torch_cuda_array_interface(device):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not device.is_cuda:
        pytest.skip("CUDA only")
    a = kern.array(np.arange(6, dtype=np.float64), device=device)
    cai = a.__cuda_array_interface__
    assert cai["shape"] == (6,) and cai["typestr"] == "<f8"
    t = torch.as_tensor(a, device="cuda:%d" % device.ordinal)
    assert t.data_ptr() == a.ptr


# ---------------------------------------------------------------- CuPy, JAX


def test_cupy_in_place(mod, device):
    cp = pytest.importorskip("cupy", reason="CuPy is not installed")
    if not device.is_cuda:
        pytest.skip("CuPy arrays live on CUDA devices")
    x = cp.arange(50, dtype=cp.float32)
    y = cp.zeros(50, dtype=cp.float32)
    mod.axpb(x, y, 3.0, 0.5, dim=50)
    kern.synchronize()
    assert bool((y == x * 3 + 0.5).all())
    a = kern.array(np.ones(3, np.float32), device=device)
    c = cp.asarray(a)  # __cuda_array_interface__
    assert c.data.ptr == a.ptr
    d = cp.from_dlpack(a)
    assert d.data.ptr == a.ptr


def test_jax_dlpack(mod, device):
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    jnp = jax.numpy
    if device.is_opencl:
        pytest.skip("JAX has no OpenCL arrays")
    try:
        jdev = jax.devices("cpu" if device.is_cpu else "gpu")[0]
    except RuntimeError as e:
        pytest.skip("JAX has no such device: %s" % e)
    x = jax.device_put(jnp.arange(16, dtype=jnp.float32), jdev)
    a = kern.from_dlpack(x)
    out = kern.zeros(16, device=device)
    mod.axpb(a, out, 2.0, 0.0, dim=16)
    np.testing.assert_array_equal(out.numpy(), np.arange(16, dtype=np.float32) * 2)


class FakeCudaArray:
    """Announces CUDA memory it does not have: must be refused before any
    launch on a device that is not that GPU."""

    def __init__(self, n, typestr="<f4", ordinal=0):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": typestr,
                                         "data": (0x1000, False), "strides": None,
                                         "version": 3, "stream": None}

        class D:
            id = ordinal
        self.device = D()


def test_foreign_device_mismatch_names_the_parameter(mod, device):
    if device.is_cuda:
        pytest.skip("needs a device that is not CUDA")
    y = kern.zeros(4, device=device)
    with pytest.raises(kern.InvalidArgumentError, match=r"parameter 'x' is on cuda:0"):
        mod.axpb(FakeCudaArray(4), y, 1.0, 0.0, dim=4)
    with pytest.raises(kern.TypeMismatchError, match=r"parameter 'x'.*float64"):
        mod.axpb(FakeCudaArray(4, "<f8"), y, 1.0, 0.0, dim=4)

    class OpenCLTensor:
        def __dlpack_device__(self):
            return (4, 0)

        def __dlpack__(self, stream=None):
            raise AssertionError("must not be consumed")
    with pytest.raises(kern.InvalidArgumentError, match=r"parameter 'x'"):
        mod.axpb(OpenCLTensor(), y, 1.0, 0.0, dim=4)


def test_repeated_calls_reuse_one_wrapper(mod, device):
    if not device.is_cpu:
        pytest.skip("NumPy in place: CPU")
    from kern import _array
    x = np.ones(64, np.float32)
    y = np.zeros(64, np.float32)
    mod.axpb(x, y, 1.0, 0.0, dim=64)
    n = len(_array._wraps)
    h = _array._wraps[id(x)][5].handle
    for _ in range(10):
        mod.axpb(x, y, 1.0, 0.0, dim=64)
    assert len(_array._wraps) == n and _array._wraps[id(x)][5].handle == h
    del x
    gc.collect()
    assert len(_array._wraps) == n - 1
    # A host wrapper is freed at once: its memory is about to go.
    assert not _array._dead


def test_new_array_per_step_keeps_results(mod, device):
    """A fresh array per call: wrappers come and go (Note [deferred wrapper
    frees]) and every result is right, also on a stream."""
    from kern import _array
    if device.is_cpu:
        def fresh(step):
            return np.full(16, step, np.int32)
        read = np.asarray
    elif device.is_cuda:
        torch = pytest.importorskip("torch", reason="PyTorch is not installed")

        def fresh(step):
            return torch.full((16,), step, dtype=torch.int32, device="cuda:%d" % device.ordinal)

        def read(z):
            kern.synchronize()
            return z.cpu().numpy()
    else:
        pytest.skip("no foreign arrays on OpenCL")
    total = np.zeros(16, np.int32)
    for step in range(200):
        z = fresh(step)
        mod.shift(z, 1, dim=16)
        total += read(z)
        del z
    assert len(_array._dead) < _array._DEAD_BATCH
    np.testing.assert_array_equal(total, np.full(16, sum(range(1, 201)), np.int32))
    kern.synchronize()
    assert not _array._dead


def test_array_interface_consumer_keeps_memory(device):
    if not device.is_cpu:
        pytest.skip("__array_interface__ is for CPU arrays")
    a = kern.full(5, 3, dtype=kern.int64, device=device)
    v = np.asarray(a)
    assert v.__array_interface__["data"][0] == a.ptr
    a.free()
    gc.collect()
    # The memory stays until the consumer lets go of the Array.
    assert v.tolist() == [3] * 5
