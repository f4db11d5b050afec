#!/bin/sh
# The threads' own values on CUDA and OpenCL (issue #24): the
# block's threads exchange their values through shared memory, in a module
# compiled per block_dim (Note [block exchange] in src/lower/check_tile.c,
# Note [block specialisation] in src/runtime/module.c).
#   - tile_threads_block.py compiles for CUDA (NVRTC accepts it where it is
#     loadable) and OpenCL, the OpenCL kernel with reqd_work_group_size and
#     its __local exchange buffer, for 256 threads or kern compile
#     --block-dim's;
#   - on OpenCL (PoCL: real work-groups) and CUDA where they are (BACKENDS
#     picks; PYTHON is a python3 with NumPy), a kernel whose results depend
#     on block_dim gives NumPy's answer at block_dim 32, 64 and 256, and
#     the CPU's at block_dim 1;
#     the kernel covers wp.tile(x), tile_from_thread, tile_scatter_add and a
#     tile stack's push and pop (the block's operations in lane order);
#   - tile_stack.py compiles for every target (NVRTC accepts its CUDA);
#   - wp.tile(x) in a @wp.func is refused on CUDA and OpenCL, at the call.
# usage: tile_threads_gpu.sh KERN SRCDIR [NVRTC_CHECK]
set -u
KERN=$1; SRC=$2; NVRTC=${3:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-tilegpu.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
# A python3 with NumPy: $PYTHON, else Debian's (CI's PATH can put one
# without NumPy first), else the first on PATH (the GPU machine's).
if [ -z "${PYTHON:-}" ]; then
  for PYTHON in /usr/bin/python3 python3; do
    "$PYTHON" -c 'import numpy' 2>/dev/null && break
  done
fi
B=$SRC/tests/conformance/tile_threads_block.py
"$KERN" compile "$B" --target opencl -o "$T/b.cl" || { echo "FAIL: opencl refused wp.tile(x)"; fail=1; }
grep -q 'reqd_work_group_size(256, 1, 1)' "$T/b.cl" && grep -q '__local unsigned char k_xbuf' "$T/b.cl" ||
  { echo "FAIL: the OpenCL kernel has no work-group size or exchange buffer"; fail=1; }
"$KERN" compile "$B" --target cuda -o "$T/b.cu" || { echo "FAIL: cuda refused wp.tile(x)"; fail=1; }
grep -q '__launch_bounds__(256)' "$T/b.cu" && grep -q '__shared__ __align__(16) unsigned char k_xbuf' "$T/b.cu" ||
  { echo "FAIL: the CUDA kernel has no launch bounds or exchange buffer"; fail=1; }
# kern compile --block-dim N: the code for blocks of N
"$KERN" compile "$B" --target opencl --block-dim 64 -o "$T/b64.cl" &&
  grep -q 'reqd_work_group_size(64, 1, 1)' "$T/b64.cl" ||
  { echo "FAIL: kern compile --block-dim 64 did not compile for blocks of 64"; fail=1; }
"$KERN" compile "$B" --target c --block-dim 64 -o "$T/b.c" 2>"$T/err" &&
  { echo "FAIL: kern compile took --block-dim for the C target"; fail=1; }
grep -q "error: --block-dim is for --target cuda or opencl, not 'c'" "$T/err" ||
  { echo "FAIL: wrong diagnostic for --block-dim with the C target:"; cat "$T/err"; fail=1; }
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
    sc = wp.tile_zeros(shape=4, dtype=float)
    wp.tile_scatter_add(sc, i % 4, a[i], True)
    out[i, 4] = sc[i % 4]
    s = wp.tile_stack(capacity=16, dtype=float)
    slot = wp.tile_stack_push(s, a[i], i % 2 == 0)
    out[i, 5] = float(slot)
    pv, sl = wp.tile_stack_pop(s)
    out[i, 6] = float(sl)
    out[i, 7] = pv
PY
run() { # BACKEND BLOCK OUT
  "$KERN" run "$T/blk.py" blk --dim 512 --block-dim "$2" --backend "$1" --quiet \
    a='arange(float32,512)' out='zeros(float32,512,8)' --save out="$3" >"$T/log" 2>&1 ||
    { echo "FAIL: $1 block_dim $2:"; cat "$T/log"; fail=1; }
}
for be in ${BACKENDS:-opencl cuda}; do
  if ! "$KERN" devices 2>/dev/null | grep -q "^$be: available"; then
    echo "tile_threads_gpu: no $be device, its runs skipped"; continue
  fi
  for bd in 32 64 256; do
    run $be $bd "$T/o$bd.npy"
    "$PYTHON" - "$T/o$bd.npy" $bd $be <<'PY' || fail=1
import sys
import numpy as np
o, b, be = np.load(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
i = np.arange(512, dtype=np.float32)
first = (i // b) * b
lane = i - first
# scatter-add: the block's a[j] with j % 4 == i % 4
sc = np.array([sum(j for j in range(int(f), int(f) + b) if j % 4 == x % 4)
               for f, x in zip(first, i)])
# the even lanes push in lane order, the stack keeps 16; each lane pops one
c = min((b + 1) // 2, 16)
slot = np.where((lane % 2 == 0) & (lane // 2 < 16), lane // 2, -1)
got = np.where(lane < c, c - 1 - lane, -1)
pv = np.where(lane < c, first + 2 * (c - 1 - lane), 0)
want = np.stack([first * b + b * (b - 1) / 2, 2 * (first + b - 1), 3 * i,
                 np.maximum(first + b - 1, 1.0), sc, slot, got, pv], axis=1)
if not np.array_equal(o, want.astype(np.float32)):
    bad = np.argwhere(o != want)[0]
    print("FAIL: %s block_dim %d: out%s = %s, NumPy %s" % (be, b, list(bad), o[tuple(bad)], want[tuple(bad)]))
    sys.exit(1)
print("tile_threads_gpu: %s block_dim %d agrees with NumPy" % (be, b))
PY
  done
  run $be 1 "$T/o1.npy"; run cpu 1 "$T/c1.npy"
  cmp -s "$T/o1.npy" "$T/c1.npy" && echo "tile_threads_gpu: $be block_dim 1 agrees with the CPU" ||
    { echo "FAIL: $be block_dim 1 differs from the CPU"; fail=1; }
done
for target in c vulkan opencl cuda; do
  "$KERN" compile "$SRC/tests/conformance/tile_stack.py" --target $target -o "$T/stack.$target" ||
    { echo "FAIL: the $target target refused wp.tile_stack"; fail=1; }
done
if [ -n "$NVRTC" ] && [ -x "$NVRTC" ]; then
  cp "$T/stack.cuda" "$T/stack.cu"
  "$NVRTC" "$T/stack.cu" >"$T/nvrtc" 2>&1; rc=$?
  [ $rc = 0 ] || [ $rc = 77 ] || { echo "FAIL: NVRTC rejects tile_stack's CUDA:"; cat "$T/nvrtc"; fail=1; }
fi
# an exchange in a @wp.func: refused on CUDA and OpenCL, at the call
cat >"$T/fn.py" <<'PY'
import warp as wp


@wp.func
def gather(x: float):
    return wp.tile_sum(wp.tile(x))[0]


@wp.kernel
def fn(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = gather(a[i])
PY
for target in cuda opencl; do
  if "$KERN" compile "$T/fn.py" --target $target -o "$T/out" 2>"$T/err"; then
    echo "FAIL: $target compiled wp.tile(x) in a @wp.func"; fail=1
  else
    grep -q "fn.py:6:27: error: wp.tile in a @wp.func: on CUDA and OpenCL the threads of a block exchange values in a kernel's own body only" "$T/err" ||
      { echo "FAIL: $target: wrong diagnostic for wp.tile(x) in a @wp.func:"; cat "$T/err"; fail=1; }
  fi
done
"$KERN" compile "$T/fn.py" --target c -o "$T/out.c" || { echo "FAIL: the C target refused wp.tile(x) in a @wp.func"; fail=1; }
[ $fail = 0 ] && echo "tile_threads_gpu: wp.tile(x), tile_from_thread, the scatters and tile stacks on CUDA and OpenCL"
exit $fail
