#!/bin/bash
# One device call on a bare H100/H200 machine: build kern, register NVIDIA's
# OpenCL driver next to PoCL, run the README's main job
#   kern bench examples/sum_of_squares.py
# at 1e8 float64 with the PyTorch, CuPy, JAX (and NumPy, Warp if present)
# references, --transfers, the JSON, the table and the plot; then the
# hand-written CUDA reference (bench/ref_sumsq.cu through bench/gpu_bench.c)
# in the same call, and print kern's CUDA row against it (target: within
# 5%), kern's NVIDIA OpenCL row against its CUDA row (target: 1.2x), and
# the CUDA row against every reference library; with a Vulkan device, the
# Vulkan rows (sum of squares float64, float32, saxpy) next to NVIDIA's
# OpenCL rows.
# Run from the repo root:  OUT=/some/dir bash bench/bench_gpu.sh
# (N=... changes the size, default 1e8; SAXPY=1 also benches saxpy.)
# Everything lands in $OUT (default ./bench-gpu-out): bench.json,
# table.txt, bench.svg, bench.csv, gpu_bench.txt/.json, summary.txt, logs.
set -u
OUT=${OUT:-$PWD/bench-gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:/opt/torch/.venv/bin:$PATH
B=build-bench-gpu
J=$(nproc)
N=${N:-100000000}
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
SUM="$OUT/summary.txt"; : >"$SUM"
say() { echo "$*" | tee -a "$SUM"; }

CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "card: ${CARD:-none}  driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)  date: $(date -u +%Y-%m-%dT%H:%MZ)  commit: ${KERN_GIT_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null)}"

# ---- build (Release), kern and the hand-written reference
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
       cmake --build $B -j"$J" --target kern_tool kern_static; } >"$OUT/build.log" 2>&1; then
  tail -n 40 "$OUT/build.log"; say "build: FAILED"; exit 1
fi
say "build: ok ($(el))"
K=$B/kern

# ---- NVIDIA's OpenCL next to PoCL (GPU-MACHINE.md)
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd
if ! $K devices 2>/dev/null | grep -q 'opencl:[0-9].*NVIDIA'; then
  # Only ocl-icd honours OCL_ICD_VENDORS; the Khronos loader some driver
  # images ship reads OCL_ICD_FILENAMES instead.
  POCL_LIB=$(head -n1 /etc/OpenCL/vendors/pocl.icd 2>/dev/null)
  export OCL_ICD_FILENAMES="libnvidia-opencl.so.1${POCL_LIB:+:$POCL_LIB}"
fi
$K devices | tee "$OUT/devices.txt"

# ---- kern bench: the README's command, at 1e8 float64
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
export KERN_CACHE_DIR=/tmp/kern-bench-cache
timeout 360 $K bench examples/sum_of_squares.py --size N=$N --python $PY --transfers \
  --json "$OUT/bench.json" --plot "$OUT/bench.svg" >"$OUT/table.txt" 2>"$OUT/bench.err"
say "kern bench rc $? ($(el))"
cat "$OUT/table.txt"; tail -n 5 "$OUT/bench.err"
$K bench --compare "$OUT/bench.json" "$OUT/bench.json" >/dev/null 2>&1 || say "compare of the run with itself failed"

# ---- optionally saxpy too (SAXPY=1): adds about a minute
if [ "${SAXPY:-0}" = 1 ]; then
  timeout 240 $K bench examples/saxpy.py --size N=$N --python $PY \
    --json "$OUT/saxpy.json" >"$OUT/saxpy.txt" 2>>"$OUT/bench.err"
  say "kern bench saxpy rc $? ($(el))"; cat "$OUT/saxpy.txt"
fi

# ---- the hand-written CUDA reference, same call, same card
if cc -std=c11 -O2 -Iinclude -c bench/gpu_bench.c -o $B/gpu_bench.o &&
   nvcc -O3 -arch=sm_90 -c bench/ref_sumsq.cu -o $B/ref_sumsq.o &&
   nvcc -o $B/gpu_bench $B/gpu_bench.o $B/ref_sumsq.o $B/libkern.a -lcuda -ldl -lpthread -lm \
   >"$OUT/gpu_bench-build.log" 2>&1; then
  timeout 200 $B/gpu_bench --n $N --json "$OUT/gpu_bench.json" >"$OUT/gpu_bench.txt" 2>&1
  say "gpu_bench rc $? ($(el))"
else
  say "gpu_bench: build failed (see gpu_bench-build.log)"
fi

# ---- which part of the OpenCL kernel costs NVIDIA OpenCL its time
# (exp/ocl_sumsq.c: kern's kernel with one thing changed per variant)
if cc -O2 -std=c11 -I/usr/local/cuda/include exp/ocl_sumsq.c -o $B/ocl_sumsq \
     -L/usr/local/cuda/lib64 -l:libOpenCL.so.1 -lm >"$OUT/ocl_sumsq-build.log" 2>&1; then
  timeout 120 $B/ocl_sumsq --n $N --device NVIDIA >"$OUT/ocl_sumsq.txt" 2>&1
  say "ocl_sumsq rc $? ($(el))"; cat "$OUT/ocl_sumsq.txt" | tee -a "$SUM"
else
  say "ocl_sumsq: build failed (see ocl_sumsq-build.log)"
fi

# ---- Vulkan rows next to the NVIDIA OpenCL rows (issue #27), when kern
# sees a Vulkan device (the loader libvulkan.so.1 and NVIDIA's ICD; the
# ICD's file is named when the loader finds none by itself): sum of squares
# float64 and float32 and saxpy, as tests/gpu/vulkan_bench.sh runs them.
if ! $K devices 2>/dev/null | grep -q '^  vulkan:[0-9]' &&
   [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
if $K devices 2>/dev/null | grep -q '^  vulkan:[0-9]'; then
  VT=$(mktemp -d)
  sed -e 's/float64/float32/g' -e 's/rtol=1e-9/rtol=1e-2/' \
      examples/sum_of_squares.py >"$VT/sum_of_squares_f32.py"
  say "vulkan rows (hot median ms), next to NVIDIA's OpenCL row of the same kernel:"
  for f in examples/sum_of_squares.py "$VT/sum_of_squares_f32.py" examples/saxpy.py; do
    j="$OUT/vulkan-$(basename "$f" .py).json"
    # NVIDIA's OpenCL row: from the main run (float64 sum of squares) or
    # SAXPY=1's, else measured here next to Vulkan (with PoCL's, as the
    # main run does: --backend takes backend names)
    case "$f" in
      examples/sum_of_squares.py) REF="$OUT/bench.json" ;;
      examples/saxpy.py) REF="$OUT/saxpy.json" ;;
      *) REF="" ;;
    esac
    BK=vulkan
    [ -n "$REF" ] && [ -f "$REF" ] || { REF=""; BK=vulkan,opencl; }
    timeout 300 $K bench "$f" --backend "$BK" --size N=$N --no-refs -q \
      --json "$j" >>"$OUT/vulkan.txt" 2>&1
    rc=$?
    $PY - "$j" "$(basename "$f" .py)" "$rc" "$REF" <<'PYEOF' | tee -a "$SUM"
import json, sys
try:
    rows = json.load(open(sys.argv[1]))["rows"]
except Exception as e:
    print("  %s: no rows (kern bench rc %s: %s)" % (sys.argv[2], sys.argv[3], e))
    sys.exit(0)
if sys.argv[4]:
    try:
        rows += json.load(open(sys.argv[4]))["rows"]
    except Exception:
        pass
def med(r):
    h = r.get("hot")
    return h["median_s"] * 1e3 if r.get("status") == "ok" and h else None
vk = [r for r in rows if r["name"].startswith("vulkan:")]
nv = [r for r in rows if r["name"].startswith("opencl:") and "NVIDIA" in r.get("device", "")]
for r in vk + nv:
    m = med(r)
    print("  %-22s %-10s %10s  %s %s" % (sys.argv[2], r["name"], "%.4f" % m if m else "-",
          r["status"], r["message"][:80] if r["message"] else ""))
if vk and nv and med(vk[0]) and med(nv[0]):
    print("  %-22s vulkan/NVIDIA OpenCL = %.2fx" % (sys.argv[2], med(vk[0]) / med(nv[0])))
PYEOF
  done
  rm -rf "$VT"
  say "vulkan rows done ($(el))"
else
  say "vulkan rows: no Vulkan device ($($K devices 2>/dev/null | grep '^vulkan' | head -n1))"
fi

# ---- the verdicts, from the two JSON files
$PY - "$OUT/bench.json" "$OUT/gpu_bench.json" <<'PYEOF' | tee -a "$SUM"
import json, sys
b = json.load(open(sys.argv[1]))
try:
    g = json.load(open(sys.argv[2]))
except Exception:
    g = None
rows = {r["name"]: r for r in b["rows"]}
def med(r):
    return r["hot"]["median_s"] * 1e3 if r and r.get("status") == "ok" and r.get("hot") else None
cuda = med(rows.get("cuda:0"))
print("kern bench rows (hot median ms, status):")
for r in b["rows"]:
    m = med(r)
    print("  %-50s %10s  %s" % (r["name"][:50], "%.4f" % m if m else "-", r["status"] + (": " + r["message"][:80] if r["message"] else "")))
if cuda and g:
    hw, he = g["sumsq_ms"]["hand_wall"], g["sumsq_ms"]["hand_event"]
    print("kern cuda:0 %.4f ms vs hand CUDA wall %.4f (ratio %.3f), events %.4f (ratio %.3f): %s"
          % (cuda, hw, cuda / hw, he, cuda / he, "within 5%" if cuda / hw <= 1.05 else "NOT within 5%"))
nv = [r for r in b["rows"] if r["name"].startswith("opencl:") and "NVIDIA" in r["device"]]
if cuda and nv and med(nv[0]):
    o = med(nv[0])
    print("kern %s (NVIDIA OpenCL) %.4f ms = %.2fx the CUDA row (target 1.2x)" % (nv[0]["name"], o, o / cuda))
refs = [r for r in b["rows"] if r["kind"] == "reference" and med(r) and not r["device"].startswith("cpu")]
if cuda and refs:
    worst = min(refs, key=med)
    print("fastest GPU reference: %s %.4f ms; kern cuda:0 is %s" % (worst["name"], med(worst), "ahead of every reference" if cuda < med(worst) else "NOT ahead of every reference"))
PYEOF
say "done ($(el))"
# The device tool returns at most 8 files: the logs travel packed.
( cd "$OUT" && tar -czf /tmp/kern-bench-logs.tgz --exclude=logs.tgz --exclude=bench.json --exclude=bench.svg \
    --exclude=table.txt --exclude=summary.txt --exclude=gpu_bench.json . &&
  mv /tmp/kern-bench-logs.tgz logs.tgz &&
  find . -maxdepth 1 -type f ! -name logs.tgz ! -name bench.json ! -name bench.svg \
    ! -name table.txt ! -name summary.txt ! -name gpu_bench.json -delete )
