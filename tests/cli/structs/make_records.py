# Makes the .npy files of structs_test.sh with real Warp (warp-lang) and
# NumPy: an input array of Body records saved from Warp's numpy_dtype(), and
# what kern run must leave in it.  Committed, so the test needs no Python;
# run this (from tests/cli/structs) only after changing a case.
import numpy as np
import warp as wp

wp.config.quiet = True
import kernels  # noqa: E402

dt = kernels.Body.numpy_dtype()
a = np.zeros(3, dtype=dt)
for i in range(3):
    a[i]["a"] = i - 1
    a[i]["d"] = 0.25 * i
    a[i]["inner"]["v"] = [i, i + 1, i + 2]
    a[i]["inner"]["k"] = 10 * i
    a[i]["on"] = i % 2 == 1
np.save("records.npy", a)

b = kernels.Body()
b.a = 5
b.d = 1.5
b.inner.v = wp.vec3(7.0, 8.0, 9.0)
items = wp.array(a, dtype=kernels.Body, device="cpu")
out = wp.zeros(3, dtype=float, device="cpu")
wp.launch(kernels.shift, dim=3, inputs=[b, items, out], device="cpu")
np.save("expected_items.npy", items.numpy())
np.save("expected_out.npy", out.numpy())
# the same records with 'd' stored as float32: offsets and types disagree
bad = np.zeros(3, dtype=[("a", "i1"), ("d", "<f4"), ("inner", [("v", "<f4", (3,)), ("k", "i1")]), ("on", "?")])
np.save("wrong_type.npy", bad)
