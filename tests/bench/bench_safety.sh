#!/bin/sh
# What a kernel file (or a path) given to `kern bench` can make it do
# (issue 23): the first, checked launch of each row runs in debug mode, so a
# spec whose arrays are shorter than the grid fails with the index instead
# of writing past kern's allocations.
# Usage: bench_safety.sh KERN SOURCE_DIR
set -u
K=$1; SRC=$2
T=$(mktemp -d /tmp/kern-bench-safety.XXXXXX)
trap 'rm -rf "$T"' EXIT
export KERN_CACHE_DIR="$T/cache" KERN_BENCH_NO_GNUPLOT=1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() { grep -q -- "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/  | /' "$1"; }; }
FAST="--budget 0.05 --min-samples 3 --max-samples 20 --no-cold --no-peak"
OCL=0; "$K" devices | grep -q '^opencl: available' && OCL=1
BACKENDS=cpu; [ $OCL = 1 ] && BACKENDS=cpu,opencl

# ---- 1. a grid larger than the arrays: every row fails with the index,
# as `kern run` reports it (unchecked, the CPU row hung: its writes past the
# 4-element arrays overwrote the thread pool's mutex).
cat >"$T/oob.py" <<'PY'
import warp as wp
# kern-bench: add1 --dim 1000 x=arange(float32,4) y=zeros(float32,4)
# kern-bench-check: y
@wp.kernel
def add1(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = x[i] + 1.0
PY
timeout 60 "$K" bench "$T/oob.py" --backend $BACKENDS $FAST --no-refs >"$T/oob.txt" 2>"$T/oob.err"
rc=$?
[ $rc = 124 ] && fail "kern bench hung on an out-of-bounds spec"
[ $rc = 0 ] || { fail "kern bench exited $rc on an out-of-bounds spec"; cat "$T/oob.err"; }
"$K" run "$T/oob.py" add1 --dim 1000 'x=arange(float32,4)' 'y=zeros(float32,4)' \
  >/dev/null 2>"$T/run.err" && fail "kern run accepted the out-of-bounds launch"
msg=$(sed -n 's/^kern: error: //p' "$T/run.err")
[ -n "$msg" ] || fail "kern run gave no error message"
has "$T/oob.txt" "^  cpu:0 *failed: $msg\$"
has "$T/oob.txt" "index 4 is out of bounds for axis 0 of array 'y' (length 4, shape (4,))"
[ $OCL = 1 ] && has "$T/oob.txt" "^  opencl:0 *failed: $msg\$"

if [ $fails = 0 ]; then echo "bench_safety: all passed"; else echo "bench_safety: $fails failed"; exit 1; fi
