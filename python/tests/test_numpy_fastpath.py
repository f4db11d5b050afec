"""The NumPy fast path of a launch (Note [NumPy fast path], _array.py):
the same array passed again skips describe(), so every property the full
path checks that can change on a live array must still be seen."""
import numpy as np
import pytest

import kern

SRC = '''import warp as wp

@wp.kernel
def ones(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0
'''


@pytest.fixture(scope="module")
def k():
    return kern.load(SRC, device="cpu").ones


def test_data_address_reader():
    from kern import _array
    for a in (np.arange(10.0), np.arange(10.0)[4:], np.zeros((3, 5), np.int16).T):
        assert _array._np_data(a) == a.__array_interface__["data"][0]


def test_same_array_again(k):
    x = np.zeros(16, np.float32)
    k(x, dim=16)
    x[:] = 0
    k(x, dim=16)
    assert x.tolist() == [1.0] * 16


def test_reshaped_array_is_seen(k):
    x = np.zeros(16, np.float32)
    k(x, dim=16)
    x.shape = (4, 4)
    with pytest.raises(kern.TypeMismatchError, match="got shape \\(4, 4\\)"):
        k(x, dim=16)


def test_read_only_array_is_seen(k):
    x = np.zeros(16, np.float32)
    k(x, dim=16)
    x.flags.writeable = False
    with pytest.raises(kern.InvalidArgumentError, match="read-only"):
        k(x, dim=16)


def test_dtype_view_is_seen(k):
    x = np.zeros(16, np.float32)
    k(x, dim=16)
    x.dtype = np.int32
    with pytest.raises(kern.TypeMismatchError, match="int32"):
        k(x, dim=16)
