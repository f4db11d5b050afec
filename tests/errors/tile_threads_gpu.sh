#!/bin/sh
# wp.tile(x) and wp.tile_from_thread collect the values of the threads of a
# block (issue #24): kern has them where a block is one thread (the C
# target, tests/conformance/tile_threads.py) and refuses them on CUDA and
# OpenCL with an error at the call naming the builtin, never code that
# would give each thread a tile of its own value only.
# usage: tile_threads_gpu.sh KERN SRCDIR
set -u
KERN=$1; SRC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-tilegpu.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
F=$SRC/tests/conformance/tile_threads.py
for target in cuda opencl; do
  if "$KERN" compile "$F" --target $target -o "$T/out" 2>"$T/err"; then
    echo "FAIL: $target compiled wp.tile(x)"; fail=1; continue
  fi
  grep -q "tile_threads.py:21:12: error: wp.tile collects the values of the threads of a block: not supported on CUDA and OpenCL yet" "$T/err" ||
    { echo "FAIL: $target: wrong diagnostic:"; cat "$T/err"; fail=1; }
done
# tile_from_thread alone
sed '/wp.tile(/d; /wp.untile(tv)/d; /wp.untile(tp)/d; /tile_reshape(tv/d; /tile_sum(tm)/d; /wp.untile(wp.tile_sum(t)/d; /tile_store(out\[i, 0:1\]/d' "$F" >"$T/ft.py"
if "$KERN" compile "$T/ft.py" --target cuda -o "$T/out" 2>"$T/err"; then
  echo "FAIL: cuda compiled wp.tile_from_thread"; fail=1
else
  grep -q "ft.py:[0-9]*:12: error: wp.tile_from_thread collects the values" "$T/err" ||
    { echo "FAIL: tile_from_thread: wrong diagnostic:"; cat "$T/err"; fail=1; }
fi
"$KERN" compile "$F" --target c -o "$T/out.c" || { echo "FAIL: the C target refused it"; fail=1; }
[ $fail = 0 ] && echo "tile_threads_gpu: refused on CUDA and OpenCL, compiled for C"
exit $fail
