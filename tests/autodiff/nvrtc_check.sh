#!/bin/sh
# The CUDA of every autodiff test file's adjoint kernel compiles with NVRTC
# for sm_90 (to a cubin) and compute_80 (to PTX), no GPU needed; skipped
# (77) where NVRTC cannot be loaded.
# usage: nvrtc_check.sh EMIT_ADJOINT NVRTC_CHECK DIR
set -u
EMIT=$1; CHECK=$2; DIR=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-adj-cu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
files=$(ls "$DIR"/*.py | grep -v gen_expected.py)
# shellcheck disable=SC2086
"$EMIT" cuda "$tmp" $files || { echo "FAIL: emitting the adjoints' CUDA"; exit 1; }
n=$(ls "$tmp"/*.cu | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: no adjoint emitted"; exit 1; }
for arch in sm_90 compute_80; do
  "$CHECK" "$tmp"/*.cu --arch "$arch"
  st=$?
  [ $st -eq 77 ] && exit 77
  [ $st -ne 0 ] && { echo "FAIL: NVRTC rejected an adjoint for $arch"; exit 1; }
done
echo "the adjoints and tangents ($n files) of the autodiff tests compile with NVRTC for sm_90 and compute_80"
