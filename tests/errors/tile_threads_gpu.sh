#!/bin/sh
# wp.tile(x) and wp.tile_from_thread on CUDA and OpenCL (issue #24): the
# block's threads exchange their values through shared memory, in a module
# compiled per block_dim (Note [block exchange] in src/lower/check_tile.c,
# Note [block specialisation] in src/runtime/module.c).
#   - tile_threads_block.py compiles for CUDA (NVRTC accepts it where it is
#     loadable) and OpenCL, the OpenCL kernel with reqd_work_group_size and
#     its __local exchange buffer;
#   - on OpenCL (PoCL: real work-groups), a kernel whose results depend on
#     block_dim gives NumPy's answer at block_dim 32, 64 and 256, and the
#     CPU's at block_dim 1;
#   - tile_scatter_add/_masked and tile stacks, still a block of one
#     thread's, are refused on CUDA and OpenCL with an error at the call
#     naming the builtin, and compile for C (tile stacks for Vulkan too).
# usage: tile_threads_gpu.sh KERN SRCDIR [NVRTC_CHECK]
set -u
KERN=$1; SRC=$2; NVRTC=${3:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-tilegpu.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
B=$SRC/tests/conformance/tile_threads_block.py
"$KERN" compile "$B" --target opencl -o "$T/b.cl" || { echo "FAIL: opencl refused wp.tile(x)"; fail=1; }
grep -q 'reqd_work_group_size(256, 1, 1)' "$T/b.cl" && grep -q '__local unsigned char k_xbuf' "$T/b.cl" ||
  { echo "FAIL: the OpenCL kernel has no work-group size or exchange buffer"; fail=1; }
"$KERN" compile "$B" --target cuda -o "$T/b.cu" || { echo "FAIL: cuda refused wp.tile(x)"; fail=1; }
grep -q '__launch_bounds__(256)' "$T/b.cu" && grep -q '__shared__ __align__(16) unsigned char k_xbuf' "$T/b.cu" ||
  { echo "FAIL: the CUDA kernel has no launch bounds or exchange buffer"; fail=1; }
if [ -n "$NVRTC" ] && [ -x "$NVRTC" ]; then
  "$NVRTC" "$T/b.cu" >"$T/nvrtc" 2>&1; rc=$?
  [ $rc = 0 ] || [ $rc = 77 ] || { echo "FAIL: NVRTC rejects the CUDA:"; cat "$T/nvrtc"; fail=1; }
fi
# results that depend on block_dim, each thread its own a[i] = i
cat >"$T/blk.py" <<'PY'
import warp as wp


@wp.kernel
def blk(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile(a[i])
    out[i, 0] = wp.tile_sum(t)[0]
    f = wp.tile_from_thread(shape=(2,), value=a[i] * 2.0, thread_idx=wp.block_dim() - 1)
    out[i, 1] = f[1]
    out[i, 2] = wp.untile(t * 3.0)
    v = wp.vec2(a[i], 1.0)
    out[i, 3] = wp.tile_max(wp.tile(v))[0]
PY
run() { # BACKEND BLOCK OUT
  "$KERN" run "$T/blk.py" blk --dim 512 --block-dim "$2" --backend "$1" --quiet \
    a='arange(float32,512)' out='zeros(float32,512,4)' --save out="$3" >"$T/log" 2>&1 ||
    { echo "FAIL: $1 block_dim $2:"; cat "$T/log"; fail=1; }
}
if "$KERN" devices 2>/dev/null | grep -q '^opencl: available'; then
  for bd in 32 64 256; do
    run opencl $bd "$T/o$bd.npy"
    /usr/bin/python3 - "$T/o$bd.npy" $bd <<'PY' || fail=1
import sys
import numpy as np
o, b = np.load(sys.argv[1]), int(sys.argv[2])
i = np.arange(512, dtype=np.float32)
first = (i // b) * b
want = np.stack([first * b + b * (b - 1) / 2, 2 * (first + b - 1), 3 * i,
                 np.maximum(first + b - 1, 1.0)], axis=1)
if not np.array_equal(o, want.astype(np.float32)):
    bad = np.argwhere(o != want)[0]
    print("FAIL: opencl block_dim %d: out%s = %s, NumPy %s" % (b, list(bad), o[tuple(bad)], want[tuple(bad)]))
    sys.exit(1)
print("tile_threads_gpu: opencl block_dim %d agrees with NumPy" % b)
PY
  done
  run opencl 1 "$T/o1.npy"; run cpu 1 "$T/c1.npy"
  cmp -s "$T/o1.npy" "$T/c1.npy" && echo "tile_threads_gpu: opencl block_dim 1 agrees with the CPU" ||
    { echo "FAIL: opencl block_dim 1 differs from the CPU"; fail=1; }
else
  echo "tile_threads_gpu: no OpenCL device, runs skipped"
fi
# refused FILE WHAT MESSAGE: CUDA and OpenCL refuse FILE with MESSAGE
refused() {
  for target in cuda opencl; do
    if "$KERN" compile "$1" --target $target -o "$T/out" 2>"$T/err"; then
      echo "FAIL: $target compiled $2"; fail=1; continue
    fi
    grep -q "$3" "$T/err" ||
      { echo "FAIL: $target: wrong diagnostic for $2:"; cat "$T/err"; fail=1; }
  done
}
F=$SRC/tests/conformance/tile_threads.py
# tile_scatter_add alone
grep -v 'wp.tile(\|untile(\|um\[\|tile_reshape(tv\|tile_sum(tm)\|tile_from_thread\|out\[i, 0:1\]\|out\[i, 6\]' "$F" >"$T/sc.py"
refused "$T/sc.py" "wp.tile_scatter_add" "sc.py:[0-9]*:8: error: wp.tile_scatter_add collects the values of the threads of a block: not supported on CUDA and OpenCL yet"
"$KERN" compile "$F" --target c -o "$T/out.c" || { echo "FAIL: the C target refused it"; fail=1; }
S=$SRC/tests/conformance/tile_stack.py
line=$(grep -n 's = wp.tile_stack(' "$S" | cut -d: -f1)
refused "$S" "wp.tile_stack" "tile_stack.py:$line:12: error: wp.tile_stack collects the values of the threads of a block"
for target in c vulkan; do
  "$KERN" compile "$S" --target $target -o "$T/out" || { echo "FAIL: the $target target refused wp.tile_stack"; fail=1; }
done
[ $fail = 0 ] && echo "tile_threads_gpu: wp.tile(x) and tile_from_thread on CUDA and OpenCL; scatters and tile stacks refused there, compiled for C (and tile stacks for Vulkan)"
exit $fail
