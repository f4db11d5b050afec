"""Where a cold kern.load's time goes from Python, per tier (a throwaway
probe for Note [PTX tier]; bench/NOTES.md): times the raw
kern_module_load_file call through ctypes and the Module wrapper apart.
Usage: python3 exp/py_tier_probe.py auto|ptx|nvrtc"""
import ctypes as C, os, sys, tempfile, time
import kern
from kern import _ffi, _runtime, _module
tier = sys.argv[1]
kern.init(cache_dir=tempfile.mkdtemp(), cuda_tier=tier)
dev = kern.get_device("cuda:0")
kern.zeros(1, device=dev).numpy()
d = tempfile.mkdtemp()
salt = int.from_bytes(os.urandom(3), "little")
for i in range(6):
    path = os.path.join(d, "c%d.py" % i)
    with open(path, "w") as f:
        f.write("import warp as wp\n\n@wp.kernel\ndef s%d(x: wp.array(dtype=wp.float32), "
                "y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n    y[i] = x[i] * %d.5 + %d.0\n"
                % (i, i, salt))
    out = C.c_void_p()
    t0 = time.perf_counter()
    st = _ffi.lib.kern_module_load_file(_runtime.ctx(), dev.index, path.encode(), C.byref(out))
    t1 = time.perf_counter()
    m = _module.Module(out.value, dev, path)
    t2 = time.perf_counter()
    print("%s load %d: raw %.1f ms, wrapper %.1f ms, st %d" % (tier, i, 1e3 * (t1 - t0), 1e3 * (t2 - t1), st))
