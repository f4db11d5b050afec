#!/bin/sh
# CI without a GPU: the CUDA that kern emits for every example, conformance
# kernel and golden test must compile with NVRTC for sm_90 (to a cubin) and
# compute_80 (to PTX).
# usage: emit_check.sh KERN NVRTC_CHECK SRCDIR
set -u
KERN=$1; CHECK=$2; SRC=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-cu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$SRC"/examples/*.py "$SRC"/tests/conformance/*.py "$SRC"/tests/golden/*.py; do
  case "$f" in */gen_expected.py|*/make_expected.py) continue ;; esac
  n=$((n + 1))
  out="$tmp/$(basename "$(dirname "$f")")_$(basename "$f" .py).cu"
  if ! "$KERN" compile "$f" --target cuda -o "$out"; then
    echo "FAIL: kern compile --target cuda $f"; exit 1
  fi
done
# Debug mode's checked accesses (arrays, vectors, matrices: tests/debug
# has every kind) as well.
for f in "$SRC"/tests/debug/*.py; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  out="$tmp/debug_$(basename "$f" .py).cu"
  if ! "$KERN" compile "$f" --target cuda --debug -o "$out"; then
    echo "FAIL: kern compile --target cuda --debug $f"; exit 1
  fi
done
# sm_90 all the way to a cubin (NVRTC's front end, NVVM and ptxas);
# compute_80, PTX only: the front end and NVVM for the older architecture,
# where the emitted code differs (half-precision atomics), at half the cost
# of another cubin -- the suite is ~250 files and CI has two cores.
for arch in sm_90 compute_80; do
  "$CHECK" "$tmp"/*.cu --arch "$arch"
  st=$?
  [ $st -eq 77 ] && exit 77
  [ $st -ne 0 ] && { echo "FAIL: NVRTC rejected emitted CUDA for $arch"; exit 1; }
done
echo "emitted CUDA of $n files compiles with NVRTC for sm_90 and compute_80"
