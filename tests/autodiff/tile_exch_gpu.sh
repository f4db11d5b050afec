#!/bin/sh
# The adjoints and tangents of the block exchanges where a block's threads
# exchange their values for real (Note [exchange adjoints] in
# src/ir/adjoint.c): tile_exch.py (wp.tile(x), wp.untile) and
# tile_exch_scatter.py (tile_scatter_add, tile_scatter_masked) on OpenCL
# (PoCL's work-groups) at block_dim 4 and 1 against finite differences
# (kern gradcheck), each thread its own elements (k = i * block_dim + j):
# the adjoints at both; the tangents are refused on OpenCL and CUDA (the
# module is built for a block of more than one thread; they were wrong on
# CUDA at 256, bench/NOTES.md run 15), which the end checks at 4; the
# CPU's tangents (test_jvp) are checked against finite differences.  The
# Warp goldens (the autodiff suites) only cover a block of one thread.
# Exit 77 without an OpenCL device.
# usage: tile_exch_gpu.sh KERN_TOOL DIR   (DIR: tests/autodiff)
kern=$1
dir=$2
out=${TMPDIR:-/tmp}/kern_tile_exch.$$
trap 'rm -f "$out"' EXIT
"$kern" devices 2>/dev/null | grep -q '^opencl: available' || { echo "no OpenCL device: skipped"; exit 77; }
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
for b in 4 1; do
  n=$((2 * b))
  nt=--no-tangent
  "$kern" gradcheck "$dir/tile_exch.py" tile_exch --tiled --dim 2 --block-dim $b $nt \
    --device opencl a="rand(float64,$n,seed=1)" v="rand(vec3d,$n,seed=2)" \
    m="rand(mat22d,$n,seed=3)" out="zeros(float64,$n)" \
    out2="zeros(vec3d,$n)" out3="zeros(mat22d,$n)" >"$out" 2>&1 ||
    fail "block_dim $b: exit $?"
  grep -q "^a  *adjoint  *$n .* ok$" "$out" || fail "block_dim $b: no passing row for a"
  grep -q "^v  *adjoint  *$((3 * n)) .* ok$" "$out" || fail "block_dim $b: no passing row for v"
  grep -q "^m  *adjoint  *$((4 * n)) .* ok$" "$out" || fail "block_dim $b: no passing row for m"
  [ -n "$nt" ] || grep -q '^(random v)  *tangent .* ok$' "$out" || fail "block_dim $b: no tangent row"
  "$kern" gradcheck "$dir/tile_exch_scatter.py" tile_exch_scatter --tiled \
    --dim 2 --block-dim $b $nt --device opencl a="rand(float64,$n,seed=1)" \
    out="zeros(float64,16)" >"$out" 2>&1 || fail "scatter, block_dim $b: exit $?"
  grep -q "^a  *adjoint  *$n .* ok$" "$out" || fail "scatter, block_dim $b: no passing row for a"
  [ -n "$nt" ] || grep -q '^(random v)  *tangent .* ok$' "$out" || fail "scatter, block_dim $b: no tangent row"
done
# The tangent across 4 threads: refused, with its reason.
"$kern" gradcheck "$dir/tile_exch.py" tile_exch --tiled --dim 2 --block-dim 4 \
  --device opencl a="rand(float64,8,seed=1)" v="rand(vec3d,8,seed=2)" \
  m="rand(mat22d,8,seed=3)" out="zeros(float64,8)" out2="zeros(vec3d,8)" \
  out3="zeros(mat22d,8)" >"$out" 2>&1
grep -q "^tangent: not checked: .*forward-mode autodiff of a block exchange" "$out" ||
  fail "the tangent at block_dim 4 was not refused"
echo "ok: the exchanges' adjoints at block_dim 4 and 1 on OpenCL, their tangents refused"
