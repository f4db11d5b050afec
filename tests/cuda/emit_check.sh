#!/bin/sh
# CI without a GPU: the CUDA that kern emits for every example, conformance
# kernel and golden test must compile with NVRTC for sm_80 and sm_90.
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
for arch in sm_80 sm_90; do
  "$CHECK" "$tmp"/*.cu --arch "$arch"
  st=$?
  [ $st -eq 77 ] && exit 77
  [ $st -ne 0 ] && { echo "FAIL: NVRTC rejected emitted CUDA for $arch"; exit 1; }
done
echo "emitted CUDA of $n files compiles with NVRTC for sm_80 and sm_90"
