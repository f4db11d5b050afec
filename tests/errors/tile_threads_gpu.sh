#!/bin/sh
# wp.tile(x), wp.tile_from_thread and tile_scatter_add/_masked collect the values of the threads of a
# block (issue #24): kern has them where a block is one thread (the C
# target, tests/conformance/tile_threads.py) and refuses them on CUDA and
# OpenCL with an error at the call naming the builtin, never code that
# would give each thread a tile of its own value only.  wp.tile_stack too.
# usage: tile_threads_gpu.sh KERN SRCDIR
set -u
KERN=$1; SRC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/kern-tilegpu.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fail=0
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
line=$(grep -n '    t = wp.tile(x)' "$F" | cut -d: -f1)
refused "$F" "wp.tile(x)" "tile_threads.py:$line:12: error: wp.tile collects the values of the threads of a block: not supported on CUDA and OpenCL yet"
# tile_from_thread alone
sed '/wp.tile(/d; /wp.untile(tv)/d; /wp.untile(tp)/d; /wp.untile(tm)/d; /um\[/d; /tile_reshape(tv/d; /tile_sum(tm)/d; /wp.untile(wp.tile_sum(t)/d; /tile_store(out\[i, 0:1\]/d' "$F" >"$T/ft.py"
if "$KERN" compile "$T/ft.py" --target cuda -o "$T/out" 2>"$T/err"; then
  echo "FAIL: cuda compiled wp.tile_from_thread"; fail=1
else
  grep -q "ft.py:[0-9]*:12: error: wp.tile_from_thread collects the values" "$T/err" ||
    { echo "FAIL: tile_from_thread: wrong diagnostic:"; cat "$T/err"; fail=1; }
fi
# tile_scatter_add alone
grep -v 'wp.tile(\|untile(\|um\[\|tile_reshape(tv\|tile_sum(tm)\|tile_from_thread\|out\[i, 0:1\]\|out\[i, 6\]' "$F" >"$T/sc.py"
if "$KERN" compile "$T/sc.py" --target opencl -o "$T/out" 2>"$T/err"; then
  echo "FAIL: opencl compiled wp.tile_scatter_add"; fail=1
else
  grep -q "sc.py:[0-9]*:8: error: wp.tile_scatter_add collects the values" "$T/err" ||
    { echo "FAIL: tile_scatter_add: wrong diagnostic:"; cat "$T/err"; fail=1; }
fi
"$KERN" compile "$F" --target c -o "$T/out.c" || { echo "FAIL: the C target refused it"; fail=1; }
# wp.tile_stack: one stack shared by a block's threads (check_tstack.c),
# refused on CUDA and OpenCL the same way, compiled for C and Vulkan
S=$SRC/tests/conformance/tile_stack.py
line=$(grep -n 's = wp.tile_stack(' "$S" | cut -d: -f1)
refused "$S" "wp.tile_stack" "tile_stack.py:$line:12: error: wp.tile_stack collects the values of the threads of a block"
for target in c vulkan; do
  "$KERN" compile "$S" --target $target -o "$T/out" || { echo "FAIL: the $target target refused wp.tile_stack"; fail=1; }
done
[ $fail = 0 ] && echo "tile_threads_gpu: refused on CUDA and OpenCL, compiled for C (and tile stacks for Vulkan)"
exit $fail
