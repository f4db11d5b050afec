#!/bin/sh
# nvcc_test.sh KERN SRCDIR [N] -- the CUDA kern emits compiles with nvcc -c,
# not only with NVRTC (issue #13: the prelude used to redeclare int64_t,
# which nvcc's host headers already declare).  Every example, one file
# each, and the recorded .cu files of N pairs of `kern synth --seed 2026`
# (default 10; CI checks its 2,000).  Skips (77) without nvcc ($NVCC, else
# nvcc on PATH, else /usr/local/cuda/bin/nvcc).
#
# The pairs are compiled in batches of 250, as NVRTC validation does: one
# translation unit holding each file, unchanged, inside its own namespace,
# after one #include <stdint.h> (each file's own include of it is then a
# no-op under the header's guard, and its types are the global ones).  The
# compiled text is each recorded file; a failing batch is retried file by
# file so the log names the culprit.  Two batches run at a time.
set -u
KERN=$1
SRC=$2
N=${3:-10}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "skip: nvcc not found"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
"$NVCC" --version | tail -n 1
fails=0
for f in "$SRC"/examples/*.py; do
  b=$T/$(basename "$f" .py)
  "$KERN" compile --target cuda "$f" -o "$b.cu" || { fails=$((fails + 1)); continue; }
  if "$NVCC" -c -arch=sm_90 -w "$b.cu" -o "$b.o" > "$b.log" 2>&1; then
    echo "ok   $(basename "$f")"
  else
    echo "FAIL $(basename "$f")"; cat "$b.log"; fails=$((fails + 1))
  fi
done

"$KERN" synth -n "$N" --seed 2026 -o "$T/s" --targets cuda --write-sources --quiet || exit 1
ls "$T"/s/sources/*.cu > "$T/files"
nfiles=$(wc -l < "$T/files")
split -l 250 "$T/files" "$T/batch."
# One batch: its translation unit, then nvcc; file by file when it fails.
compile_batch() {
  list=$1
  {
    echo '#include <stdint.h>'
    i=0
    while read -r f; do
      echo "namespace synth_$i {"
      cat "$f"
      echo "}"
      i=$((i + 1))
    done < "$list"
  } > "$list.cu"
  if "$NVCC" -c -arch=sm_90 -w "$list.cu" -o "$list.o" > "$list.log" 2>&1; then
    echo "ok   $(wc -l < "$list") pairs in one nvcc run"
    return 0
  fi
  bad=0
  while read -r f; do
    "$NVCC" -c -arch=sm_90 -w "$f" -o "$list.one.o" > "$list.one.log" 2>&1 ||
      { echo "FAIL $f"; cat "$list.one.log"; bad=1; }
  done < "$list"
  [ $bad -eq 1 ] || { echo "FAIL batch $list (every file alone compiles)"; cat "$list.log"; }
  return 1
}
set -- "$T"/batch.??
while [ $# -gt 0 ]; do
  compile_batch "$1" > "$1.out" 2>&1 &
  p1=$!
  p2=
  if [ $# -gt 1 ]; then compile_batch "$2" > "$2.out" 2>&1 & p2=$!; fi
  wait $p1 || fails=$((fails + 1))
  cat "$1.out"
  if [ -n "$p2" ]; then wait $p2 || fails=$((fails + 1)); cat "$2.out"; shift; fi
  shift
done
echo "nvcc: $nfiles pair files of $N pairs (duplicates share a file)"
[ $fails -eq 0 ] || { echo "FAIL: $fails"; exit 1; }
echo ok
