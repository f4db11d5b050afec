#!/bin/sh
# nvcc_test.sh KERN SRCDIR -- the CUDA kern emits compiles with nvcc -c, not
# only with NVRTC (issue #13: the prelude used to redeclare int64_t, which
# nvcc's host headers already declare).  Every example and a sample of
# kern synth's pairs (one file per category).  Skips (77) without nvcc.
set -u
KERN=$1
SRC=$2
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "skip: nvcc not found"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache"
"$KERN" synth -n 10 --seed 5 -o "$T/s" --write-sources --quiet || exit 1
fails=0
for f in "$SRC"/examples/*.py "$T"/s/sources/*.py; do
  b=$T/$(basename "$f" .py)
  "$KERN" compile --target cuda "$f" -o "$b.cu" || { fails=$((fails + 1)); continue; }
  if "$NVCC" -c -arch=sm_90 -w "$b.cu" -o "$b.o" > "$b.log" 2>&1; then
    echo "ok   $(basename "$f")"
  else
    echo "FAIL $(basename "$f")"; cat "$b.log"; fails=$((fails + 1))
  fi
done
# The recorded .cu files themselves, not only recompiled ones.
for f in "$T"/s/sources/*.cu; do
  "$NVCC" -c -arch=sm_90 -w "$f" -o "$T/x.o" > "$T/x.log" 2>&1 ||
    { echo "FAIL $f"; cat "$T/x.log"; fails=$((fails + 1)); }
done
[ $fails -eq 0 ] || exit 1
echo ok
