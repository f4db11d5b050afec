"""Streams, events, timing and graph capture/replay from Python."""
import numpy as np
import pytest

import kern

SRC = """import warp as wp

@wp.kernel
def inc(x: wp.array(dtype=wp.float32), k: wp.float32):
    i = wp.tid()
    x[i] = x[i] + k

@wp.kernel
def copy(src: wp.array(dtype=wp.float32), dst: wp.array(dtype=wp.float32)):
    i = wp.tid()
    dst[i] = src[i]

@wp.kernel
def spin(x: wp.array(dtype=wp.float32), n: wp.int32):
    i = wp.tid()
    acc = float(0.0)
    for j in range(n):
        acc = acc + wp.sin(float(j))
    x[i] = x[i] + acc * 0.0 + 1.0
"""

N = 4096


@pytest.fixture(scope="module")
def mod(device):
    return kern.load(SRC, device=device, name="streams.py")


def test_stream_orders_its_work(mod, device):
    s = kern.Stream(device)
    a = kern.zeros(N, device=device)
    for _ in range(20):
        mod.inc(a, 1.0, dim=N, stream=s)
    s.synchronize()
    assert s.query() and s.is_complete
    np.testing.assert_array_equal(a.numpy(), np.full(N, 20, np.float32))
    s.close()


def test_with_stream_makes_it_current(mod, device):
    a = kern.zeros(N, device=device)
    with kern.Stream(device) as s:
        assert kern._runtime.current_stream(device) is s
        for _ in range(5):
            mod.inc(a, 2.0, dim=N)  # goes to s
        e = s.record_event()
    assert kern._runtime.current_stream(device) is None
    e.synchronize()
    assert e.query()
    np.testing.assert_array_equal(a.numpy(), np.full(N, 10, np.float32))


def test_events_across_streams(mod, device):
    s1, s2 = kern.Stream(device), kern.Stream(device)
    a = kern.zeros(N, device=device)
    b = kern.zeros(N, device=device)
    mod.spin(a, 2000, dim=N, stream=s1)   # slow producer
    ev = kern.Event().record(s1)
    s2.wait_event(ev)
    mod.copy(a, b, dim=N, stream=s2)      # must see the producer's result
    s2.synchronize()
    np.testing.assert_array_equal(b.numpy(), np.ones(N, np.float32))
    s3 = kern.Stream(device)
    s3.wait_stream(s2)
    mod.inc(b, 1.0, dim=N, stream=s3)
    s3.synchronize()
    np.testing.assert_array_equal(b.numpy(), np.full(N, 2, np.float32))


def test_elapsed_time(mod, device):
    s = kern.Stream(device)
    a = kern.zeros(N, device=device)
    with kern.Event() as e0, kern.Event() as e1:
        e0.record(s)
        mod.spin(a, 500, dim=N, stream=s)
        e1.record(s)
        ms = e0.elapsed(e1)
        assert ms >= 0 and ms == kern.elapsed(e0, e1)
    with kern.Timer(s) as t:
        mod.spin(a, 500, dim=N, stream=s)
    assert t.elapsed is not None and t.elapsed >= 0
    with pytest.raises(TypeError):
        e0.elapsed("later")


def test_default_stream_and_wrap(device):
    d = kern.Stream.default(device)
    d.synchronize()
    d.close()  # not ours to free: a no-op
    d.synchronize()
    if device.is_cpu:
        with pytest.raises(kern.UnsupportedError):
            kern.Stream(device, native=1234)
    else:
        w = kern.Stream(device, native=d.native)
        w.synchronize()
        w.close()
        d.synchronize()  # the wrapped queue lives on


def test_graph_capture_and_replay(mod, device):
    a = kern.zeros(N, device=device)
    b = kern.zeros(N, device=device)
    s = kern.Stream(device)
    with kern.capture(s) as g:
        mod.inc(a, 1.0, dim=N)        # current stream is the capture stream
        mod.copy(a, b, dim=N)
    s.synchronize()
    # Capture records, it does not run.
    assert not a.numpy().any()
    assert g.launch_count == 2
    for _ in range(3):
        g.replay()
    s.synchronize()
    np.testing.assert_array_equal(a.numpy(), np.full(N, 3, np.float32))
    np.testing.assert_array_equal(b.numpy(), np.full(N, 3, np.float32))
    # Replacing an argument for later replays: inc by 10.
    g.set_arg(0, 1, 10.0)
    g.replay(s)
    s.synchronize()
    np.testing.assert_array_equal(b.numpy(), np.full(N, 13, np.float32))
    c = kern.zeros(N, device=device)
    g.set_arg(1, 1, c)
    g.replay(s)
    s.synchronize()
    np.testing.assert_array_equal(c.numpy(), np.full(N, 23, np.float32))
    g.close()
    with pytest.raises(kern.InvalidHandleError):
        g.replay()


def test_capture_error_inside_block_discards_graph(mod, device):
    s = kern.Stream(device)
    a = kern.zeros(N, device=device)
    with pytest.raises(kern.TypeMismatchError):
        with kern.capture(s) as g:
            mod.inc(a, "x", dim=N)
    with pytest.raises(kern.InvalidHandleError):
        g.replay()
    # The stream works normally afterwards.
    mod.inc(a, 1.0, dim=N, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(a.numpy(), np.ones(N, np.float32))


def test_device_scope(device):
    with device:
        a = kern.zeros(3)
        assert a.device == device
        assert kern.get_device() is device
    d = kern.devices()
    assert device in d and all(isinstance(x, kern.Device) for x in d)
    assert kern.Device(device.name) is device
    assert device.model and device.compute_units >= 1


def test_graph_keeps_its_arrays_alive(mod, device):
    import gc
    s = kern.Stream(device)
    out = kern.zeros(N, device=device)
    with kern.capture(s) as g:
        tmp = kern.full(N, 2.0, device=device)
        mod.copy(tmp, out, dim=N)
    del tmp
    gc.collect()
    g.replay()
    s.synchronize()
    np.testing.assert_array_equal(out.numpy(), np.full(N, 2, np.float32))


def test_bound_launch(mod, device):
    a = kern.zeros(N, device=device)
    b = kern.zeros(N, device=device)
    up = mod.inc.bind(a, 2.0, dim=N)
    mod.inc(b, 100.0, dim=N)          # the kernel's own next call changes nothing bound
    for _ in range(3):
        up.launch()
    kern.synchronize()
    np.testing.assert_array_equal(a.numpy(), np.full(N, 6, np.float32))
    np.testing.assert_array_equal(b.numpy(), np.full(N, 100, np.float32))
    up.set_dim(N // 2)
    s = kern.Stream(device)
    up(s)
    s.synchronize()
    want = np.full(N, 6, np.float32)
    want[:N // 2] += 2
    np.testing.assert_array_equal(a.numpy(), want)
    with pytest.raises(kern.TypeMismatchError, match="parameter 'k'"):
        mod.inc.bind(a, "two", dim=N)
    if device.is_cpu:
        h = np.zeros(N, np.float32)
        mod.inc.bind(h, 1.5, dim=N).launch()
        np.testing.assert_array_equal(h, np.full(N, 1.5, np.float32))
