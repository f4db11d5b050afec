#!/bin/bash
# One device call on a bare H100/H200 machine for the Python package
# (issue #14): build libkern and the tool, run the pytest suite on CUDA (and
# on the CPU and PoCL, where PyTorch's CPU tensors exercise the PyTorch
# path too), then bench/python_gpu.py: back-to-back empty-kernel calls from
# Python next to PyTorch x.add_(1) and a CuPy ElementwiseKernel, the first
# kern.load of a new file with a fresh cache, and the sum of squares of 1e8
# float64 on a PyTorch tensor from Python against the C API on the same
# kernel and tensor (bench/python_timer.c, loaded into the same process).
# Run from the repo root:  OUT=/some/dir bash bench/python_gpu.sh
# Results in $OUT (at most 7 files): summary.txt, python_gpu.txt,
# python_gpu.json, pytest-cuda.log, pytest-cpu.log, pytest-opencl.log,
# build.log.  About 4 minutes (build ~1.5, pytest ~1.5, bench ~1).
set -u
OUT=${OUT:-$PWD/python-gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:/opt/torch/.venv/bin:$PATH
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
B=build-python-gpu
J=$(nproc)
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
SUM="$OUT/summary.txt"; : >"$SUM"
say() { echo "$*" | tee -a "$SUM"; }

CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "card: ${CARD:-none}  driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: ${KERN_GIT_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}"
say "python: $($PY --version 2>&1)  $($PY -c 'import numpy, sys; print("numpy", numpy.__version__)' 2>&1)  $($PY -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -n1)  $($PY -c 'import cupy; print("cupy", cupy.__version__)' 2>&1 | tail -n1)"

# ---- build: the shared library, the tool (for the CLI comparisons) and
# the C timer against the same libkern.so.1
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
       cmake --build $B -j"$J" --target kern kern_tool &&
       cc -O2 -std=c11 -shared -fPIC -Iinclude bench/python_timer.c \
          -o $B/libpython_timer.so -L$B -lkern -Wl,-rpath,"$PWD/$B"; } >"$OUT/build.log" 2>&1; then
  tail -n 40 "$OUT/build.log"; say "build: FAILED"; exit 1
fi
say "build: ok ($(el))"
export KERN_LIBRARY=$PWD/$B/libkern.so.1 KERN_TOOL=$PWD/$B/kern
export PYTHONPATH=$PWD/python PYTHONDONTWRITEBYTECODE=1
# JAX (its DLPack test) must not take 75% of the GPU when it starts.
export XLA_PYTHON_CLIENT_PREALLOCATE=false
$B/kern devices | tee -a "$SUM"

# ---- the pytest suite, per device; exit code 5 (nothing ran) is a failure
for d in cuda cpu opencl; do
  KERN_TEST_DEVICE=$d KERN_CACHE_DIR=/tmp/kern-pytest-$d timeout 600 \
    $PY -m pytest -q -rs -p no:cacheprovider python/tests >"$OUT/pytest-$d.log" 2>&1
  rc=$?
  verdict=ok; [ $rc = 0 ] || verdict="FAILED (rc $rc)"; [ $rc = 77 ] && verdict="skipped (device absent)"
  say "pytest $d: $verdict: $(grep -E '[0-9]+ (passed|failed)' "$OUT/pytest-$d.log" | tail -n1) ($(el))"
  grep -E '^(FAILED|ERROR|SKIPPED)' "$OUT/pytest-$d.log" | head -n 20 | tee -a "$SUM"
done

# ---- the measurements, one process
timeout 600 $PY bench/python_gpu.py --json "$OUT/python_gpu.json" \
  --timer $B/libpython_timer.so ${N:+--n $N} >"$OUT/python_gpu.txt" 2>&1
say "python_gpu.py rc $? ($(el))"
cat "$OUT/python_gpu.txt" | tee -a "$SUM"
