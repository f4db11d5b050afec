#!/bin/bash
# Does an NVRTC fast-compile level cost kern's kernels run time, and how much
# does it save at a cold kern.load?  One device call (about 5 minutes):
# builds libkern three times -- as is, with --Ofast-compile=min and with
# --Ofast-compile=mid added to the backend's NVRTC options -- then, per build,
# `kern bench` on CUDA for the two memory-bound examples and the two
# compute-bound kernels of exp/compute.py, and the cold load of new
# files through the Python package.  Run from the repo root:
#   OUT=/some/dir bash exp/fastcompile_gpu.sh
set -u
OUT=${OUT:-$PWD/fc-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:/opt/torch/.venv/bin:$PATH
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
J=$(nproc)
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1) date: $(date -u +%Y-%m-%dT%H:%MZ) commit: ${KERN_GIT_COMMIT:-?}"
F=src/runtime/backend_cuda.c
cp $F /tmp/backend_cuda.c.orig
for v in base min mid; do
  cp /tmp/backend_cuda.c.orig $F
  [ $v != base ] && sed -i "s|    \"--fmad=false\",|    \"--fmad=false\",\n    \"--Ofast-compile=$v\",|" $F
  grep -c "Ofast-compile" $F
  cmake -S . -B build-$v -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null &&
    cmake --build build-$v -j$J --target kern kern_tool >/dev/null 2>&1 || { echo "build $v failed"; exit 1; }
done
cp /tmp/backend_cuda.c.orig $F
srcd=$(mktemp -d)
for r in 1 2; do
for v in base min mid; do
  echo "== $v (round $r)"
  for f in examples/sum_of_squares.py examples/saxpy.py exp/compute.py; do
    KERN_CACHE_DIR=/tmp/cache-$v build-$v/kern bench $f --backend cuda --no-refs --no-cold --no-peak -q 2>&1 |
      grep -E "^[a-z_]+  N=|^  cuda:0" | cut -c1-90
  done
  KERN_LIBRARY=$PWD/build-$v/libkern.so.1 PYTHONPATH=$PWD/python $PY - "$srcd" "$v$r" <<'PYEOF'
import os, sys, time, statistics, tempfile, kern
d, tag = sys.argv[1], sys.argv[2]
kern.init(cache_dir=tempfile.mkdtemp())
dev = kern.get_device("cuda:0")
kern.zeros(1, device=dev).numpy()
t = []
for i in range(7):
    p = os.path.join(d, "c_%s_%d.py" % (tag, i))
    open(p, "w").write("import warp as wp\n\n@wp.kernel\ndef s%d(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n    y[i] = x[i] * %d.5 + 1.0\n" % (i, i))
    t0 = time.perf_counter(); kern.load(p, device=dev); t.append(1e3 * (time.perf_counter() - t0))
print("  cold kern.load of a new file: median %.1f ms (%s)" % (statistics.median(t), " ".join("%.0f" % x for x in t)))
PYEOF
done
done
