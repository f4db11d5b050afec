#!/bin/sh
# CI without a GPU: the CUDA that kern emits for every example, conformance
# kernel and golden test must compile with NVRTC for sm_90 (to a cubin) and
# compute_80 (to PTX).
# usage: emit_check.sh KERN NVRTC_CHECK SRCDIR
#
# With KERN_TEST_SHARD=I/N only one fixed slice of the files: those whose
# position (from 0) in the list below is I-1 modulo N, so ctest -j runs the
# slices side by side (cuda_emitted_nvrtc_I, tests/CMakeLists.txt);
# KERN_TEST_SHARD_LIST=1 prints the slice and exits (for
# tests/conformance/shards_test.sh).
set -u
KERN=$1; CHECK=$2; SRC=$3
# Every example, conformance kernel and golden test, then debug mode's
# checked accesses (arrays, vectors, matrices: tests/debug has every kind).
all=$( { for f in "$SRC"/examples/*.py "$SRC"/tests/conformance/*.py "$SRC"/tests/golden/*.py; do
           case "$f" in */gen_expected.py|*/make_expected.py) continue ;; esac
           # a file only the C target takes (tests/conformance/README.md)
           grep -q '^# kern-targets: ' "$f" && ! grep -Eq '^# kern-targets: (.* )?cuda( |$)' "$f" && continue
           echo "plain $f"
         done
         for f in "$SRC"/tests/debug/*.py; do [ -f "$f" ] && echo "debug $f"; done; } )
case ${KERN_TEST_SHARD:-} in
  "") ;;
  [0-9]*/[0-9]*)
    si=${KERN_TEST_SHARD%/*}; sn=${KERN_TEST_SHARD#*/}
    [ "$sn" -ge 1 ] && [ "$si" -ge 1 ] && [ "$si" -le "$sn" ] ||
      { echo "emit_check.sh: bad KERN_TEST_SHARD '$KERN_TEST_SHARD'"; exit 2; }
    all=$(echo "$all" | awk -v i="$si" -v n="$sn" '(NR - 1) % n == i - 1') ;;
  *) echo "emit_check.sh: bad KERN_TEST_SHARD '$KERN_TEST_SHARD' (want I/N)"; exit 2 ;;
esac
if [ -n "${KERN_TEST_SHARD_LIST:-}" ]; then
  echo "$all" | sed 's/^[a-z]* //'
  exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-cu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
while read -r mode f; do
  [ -n "$f" ] || continue
  n=$((n + 1))
  if [ "$mode" = debug ]; then
    out="$tmp/debug_$(basename "$f" .py).cu"
    set -- --debug
  else
    out="$tmp/$(basename "$(dirname "$f")")_$(basename "$f" .py).cu"
    set --
  fi
  if ! "$KERN" compile "$f" --target cuda "$@" -o "$out"; then
    echo "FAIL: kern compile --target cuda $* $f"; exit 1
  fi
done <<EOF
$all
EOF
[ "$n" -gt 0 ] || { echo "FAIL: no file to check"; exit 1; }
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
echo "emitted CUDA of $n files${KERN_TEST_SHARD:+ (slice $KERN_TEST_SHARD)} compiles with NVRTC for sm_90 and compute_80"
