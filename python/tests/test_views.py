"""Views of kern arrays (issue #25: kern.Array[2:4] was not subscriptable):
a slice or one index of the first axis, over the same memory, on CPU and
CUDA; refused with the reason elsewhere."""
import numpy as np
import pytest

import kern

SRC = '''import warp as wp

@wp.kernel
def inc(a: wp.array(dtype=float)):
    a[wp.tid()] += 1.0
'''


def test_views(device):
    a = kern.array(np.arange(10, dtype=np.float32), device=device)
    if device.is_opencl:
        with pytest.raises(kern.UnsupportedError, match="views of opencl:0 memory"):
            a[2:5]
        return
    v = a[2:5]
    assert v.shape == (3,) and v.numpy().tolist() == [2, 3, 4]
    m = kern.load(SRC, device=device)
    m.inc(v, dim=3)
    assert a.numpy().tolist() == [0, 1, 3, 4, 5, 5, 6, 7, 8, 9]
    b = kern.array(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    assert b[1].numpy().tolist() == [4, 5, 6, 7]
    assert b[-2:].shape == (2, 4)
    w = a[8:]
    del a
    assert w.numpy().tolist() == [8, 9]   # the view keeps the memory
    with pytest.raises(kern.InvalidArgumentError, match="step of 1"):
        b[::2]
    with pytest.raises(kern.InvalidArgumentError, match="a.numpy"):
        w[0]
    with pytest.raises(kern.InvalidArgumentError, match="empty"):
        w[1:1]
    with pytest.raises(IndexError):
        b[3]
