#!/bin/sh
# Issue #27 on a GPU machine: kern bench rows of Vulkan next to CUDA and
# OpenCL (sum of squares float64 and float32, saxpy, N=1e8 by default),
# then cold and warm module load times per backend (a new cache
# directory each cold run; the process's whole wall time of `kern run` of
# saxpy, and of the float64 sum of squares).  Run from the repo root after
# building kern into $B.  Tested on lavapipe with BACKENDS=cpu,vulkan N=100000.
# Usage: B=build-gpu N=100000000 BACKENDS=cuda,opencl,vulkan sh tests/gpu/vulkan_bench.sh
set -u
B=${B:-build-gpu}
N=${N:-100000000}
BACKENDS=${BACKENDS:-cuda,opencl,vulkan}
K=$B/kern
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$K devices | grep -E '^(cuda|opencl|vulkan)|^  (cuda|opencl|vulkan):' | cut -c1-160
# float32 sum of squares: the same kernel and spec in float32 (the float32
# sum of 1e8 terms in another order differs from the CPU's in the 4th
# digit, hence the looser check)
sed -e 's/float64/float32/g' -e 's/rtol=1e-9/rtol=1e-2/' \
    examples/sum_of_squares.py >"$T/sum_of_squares_f32.py"
for f in examples/sum_of_squares.py "$T/sum_of_squares_f32.py" examples/saxpy.py; do
  echo "== kern bench $f N=$N"
  KERN_CACHE_DIR="$T/bench-cache" $K bench "$f" --backend "$BACKENDS" \
    --size N="$N" --no-refs -q --json "$T/$(basename "$f" .py).json"
  python3 - "$T/$(basename "$f" .py).json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    h = r.get("hot") or {}
    print("  %-10s %-8s timer=%-6s hot median %s  %s GB/s  %s" % (
        r["name"], r["status"], r["timer"],
        "%.4f ms" % (h["median_s"] * 1e3) if h else "-",
        "%.1f" % h["gbps"] if h and h.get("gbps") else "-", r["message"][:120]))
PY
done
case ",$BACKENDS," in *,vulkan,*)
  # the comparison point of Note [vulkan memory]: arrays in host-visible
  # memory (resizable BAR or system memory), copies by memcpy
  echo "== kern bench examples/saxpy.py N=$N, vulkan with KERN_VULKAN_STAGING=0"
  KERN_VULKAN_STAGING=0 KERN_CACHE_DIR="$T/bench-cache" $K bench examples/saxpy.py \
    --backend vulkan --size N="$N" --no-refs -q --json "$T/mapped.json"
  python3 - "$T/mapped.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    h = r.get("hot") or {}
    print("  %-10s %-8s mapped: hot median %s  %s" % (
        r["name"], r["status"], "%.4f ms" % (h["median_s"] * 1e3) if h else "-",
        r["message"][:120]))
PY
esac
case ",$BACKENDS," in *,vulkan,*)
  # Note [vulkan unroll]: the loop unrolled 2, 4 and 8 times against the
  # default (1, the loop as it was) above, in the same run
  for u in 2 4 8; do
    for f in "$T/sum_of_squares_f32.py" examples/saxpy.py; do
      echo "== kern bench $f N=$N, vulkan with KERN_VULKAN_UNROLL=$u"
      KERN_VULKAN_UNROLL=$u KERN_CACHE_DIR="$T/bench-cache" $K bench "$f" \
        --backend vulkan --size N="$N" --no-refs -q --json "$T/unroll.json"
      python3 - "$T/unroll.json" "$u" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    h = r.get("hot") or {}
    print("  %-10s %-8s unroll %s: hot median %s  %s" % (
        r["name"], r["status"], sys.argv[2],
        "%.4f ms" % (h["median_s"] * 1e3) if h else "-", r["message"][:120]))
PY
    done
  done
esac
# VKB_LOAD=0 leaves out the load times (a short device call)
[ "${VKB_LOAD:-1}" = 0 ] && exit 0
echo "== module load (kern run, whole process): cold = empty cache, warm = second run"
for dev in $(echo "$BACKENDS" | tr ',' ' '); do
  d=$dev:0
  [ "$dev" = cpu ] && d=cpu:0
  for spec in "examples/saxpy.py saxpy x=rand(float32,1000,seed=1) y=rand(float32,1000,seed=2) a=2.5" \
              "examples/sum_of_squares.py sum_of_squares x=rand(float64,1000,seed=3) out=zeros(float64,1)"; do
    for i in 1 2 3; do
      C="$T/load-$dev-$i"
      rm -rf "$C"
      set -- $spec
      f=$1; k=$2; shift 2
      t0=$(date +%s%N)
      KERN_CACHE_DIR=$C $K run "$f" "$k" --dim 1000 "$@" --device "$d" --unchecked -q >"$T/run.txt" 2>&1
      rc=$?
      t1=$(date +%s%N)
      KERN_CACHE_DIR=$C $K run "$f" "$k" --dim 1000 "$@" --device "$d" --unchecked -q >>"$T/run.txt" 2>&1
      t2=$(date +%s%N)
      echo "  $d $k: cold $(( (t1 - t0) / 1000000 )) ms, warm $(( (t2 - t1) / 1000000 )) ms (rc $rc)"
      [ $rc -eq 0 ] || head -n 3 "$T/run.txt"
    done
  done
done
