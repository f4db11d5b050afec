#!/bin/bash
# One device call (under 10 minutes on the 16-core H100/H200 hosts): build
# kern, the tests that need a GPU, the stress check (tests/gpu/stress.sh:
# conformance on CUDA cold twice, pytest on CUDA three times, cold runs that
# exit during their builds), examples on CUDA, compute-sanitizer, NVIDIA
# OpenCL conformance (sharded), bench/gpu_bench and bench/gpu_ref.py.  The
# CPU suite is CI's (ctest on a machine without a GPU).  Run from the repo
# root.  Logs go to $OUT (or ./gpu-out).
# Prints a short table last.  The device tool returns at most 8 files from
# $OUT, so logs are collected in $L and packed into $OUT/logs.tgz at the end.
set -u
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
L=/tmp/kern-gpu-logs; rm -rf "$L"; mkdir -p "$L"
export PATH=/usr/local/cuda/bin:$PATH
B=build-gpu
J=$(nproc)
SUM="$OUT/summary.txt"; : > "$SUM"  # in $OUT as it grows: a call cut short still returns it
say() { echo "$*" | tee -a "$SUM"; }
T0=$(date +%s)
el() { echo "$(( $(date +%s) - T0 ))s"; }
# STEPS picks sections: ctest stress examples debug sanitizer nvocl
# autodiff vulkan bench adcost; default all.  Also, not in the default:
# tilelarge (tests/gpu/tile_large_gpu.sh; name ocldev too for NVIDIA OpenCL),
# gemm (bench/gemm_gpu.py: tile GEMM against cuBLAS),
# jvp (test_jvp.py on CUDA), ocldev (find NVIDIA's OpenCL device for the later steps without its
# conformance run) and vkbench (tests/gpu/vulkan_bench.sh: kern bench rows
# of Vulkan next to CUDA and NVIDIA OpenCL, cold and warm loads; it needs
# the vulkan step's loader set-up, so name both).  The build always runs (incremental
# when warm).
STEPS=${STEPS:-ctest stress examples debug sanitizer nvocl autodiff vulkan bench adcost}
want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

CARD=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
say "card: ${CARD:-none}  date: $(date -u +%Y-%m-%dT%H:%MZ)  driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)"

# ---- build
if ! { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j"$J"; } >"$L/build.log" 2>&1; then
  tail -n 40 "$L/build.log"; say "build: FAILED"; exit 1
fi
say "build: ok ($(el))"
K=$B/kern; NPYCMP=$B/tests/npycmp
$K devices > "$L/devices.txt" 2>&1; cat "$L/devices.txt"

# ---- ctest: the tests that need the GPU (the rest is CI's)
if want ctest; then
timeout 200 ctest --test-dir $B -j"$J" --timeout 150 --output-on-failure \
  -R '^(cuda_backend|cuda_tier|cuda_jobs|runtime_bgbuild|cuda_nvrtc_abi_sm_90|tile_threads_gpu|cuda_gemm_recognize)$' >"$L/ctest.log" 2>&1
say "ctest: $(grep -E 'tests passed|tests failed' "$L/ctest.log" | tail -n1) ($(el))"
grep -E '^\s+[0-9]+ - ' "$L/ctest.log" | head -n 20 | tee -a "$SUM"
fi

# ---- tile GEMM against cuBLAS (bench/gemm_gpu.py, issue #24): checks,
# the table, build times; the JSON comes back in $OUT
if want gemm; then
if [ -n "${WARP_TGZ:-}" ] && [ -f "$WARP_TGZ" ] && [ ! -d /tmp/kern-warp/warp ]; then
  mkdir -p /tmp/kern-warp && tar -xJf "$WARP_TGZ" -C /tmp/kern-warp
fi
GWP=""; [ -d /tmp/kern-warp/warp ] && GWP=/tmp/kern-warp:
GPY=python3; [ -x /opt/torch/.venv/bin/python ] && GPY=/opt/torch/.venv/bin/python
KERN_LIBRARY=$PWD/$B/libkern.so.1 PYTHONPATH=$GWP$PWD/python PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
  WARP_CACHE_PATH=/tmp/kern-warp-cache timeout 400 $GPY bench/gemm_gpu.py --json "$OUT/gemm.json" >"$L/gemm.txt" 2>&1
say "gemm rc $? ($(el))"
tee -a "$SUM" < "$L/gemm.txt" | tail -n 30
fi

# ---- the stress check: conformance on CUDA cold twice, pytest three times,
# cold runs ending during their builds (issue #22)
if want stress; then
STRESS_LOGS=$L/stress KERN_STRESS_NOBUILD=1 timeout 400 bash tests/gpu/stress.sh $B >"$L/stress.log" 2>&1
say "stress rc $? ($(el))"
grep '^stress:\|^  round' "$L/stress.log" | tee -a "$SUM"
fi

# ---- examples on CUDA, checked arrays compared with the CPU backend
if want examples; then
EX="$L/examples"; mkdir -p "$EX"; ex_pass=0; ex_fail=""
for f in examples/*.py; do
  stem=$(basename "$f" .py)
  args=$(sed -n 's/^# kern-test: //p' "$f" | head -n1); [ -z "$args" ] && continue
  checks=$(sed -n 's/^# kern-check: //p' "$f" | awk '{print $1}')
  ok=1
  for be in cpu cuda; do
    saves=""; for c in $checks; do saves="$saves --save $c=$EX/$stem.$be.$c.npy"; done
    eval "set -- $args"  # quoted as a shell command line would be
    # shellcheck disable=SC2086
    timeout 60 $K run "$f" "$@" --backend $be --quiet $saves >"$EX/$stem.$be.log" 2>&1 || ok=0
  done
  if [ $ok = 1 ]; then
    for c in $checks; do
      $NPYCMP "$EX/$stem.cpu.$c.npy" "$EX/$stem.cuda.$c.npy" --rtol 1e-5 --atol 1e-6 >>"$EX/$stem.cmp" 2>&1 || ok=0
    done
  fi
  if [ $ok = 1 ]; then ex_pass=$((ex_pass + 1)); else ex_fail="$ex_fail $stem"; fi
done
say "examples (cuda vs cpu): $ex_pass passed, failed:${ex_fail:- none} ($(el))"
fi

# ---- debug mode on CUDA: out-of-bounds accesses reported, not performed
if want debug; then
timeout 120 sh tests/debug/run.sh $K $NPYCMP tests/debug cuda >"$L/debug-cuda.log" 2>&1
say "$(tail -n 1 "$L/debug-cuda.log") ($(el))"
fi

# ---- compute-sanitizer
if want sanitizer; then
SN=1000000
san() {  # tool name file kernel args...
  local tool=$1 name=$2; shift 2
  timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 "$K" run "$@" --backend cuda --quiet --no-cache --unchecked \
    >"$L/sanitizer-$tool-$name.log" 2>&1
  local rc=$?
  local s; s=$(grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (error|hazard)[a-z ]*' "$L/sanitizer-$tool-$name.log" | tail -n1)
  say "sanitizer $tool $name: ${s:-no summary} (rc $rc)"
}
SUMARGS="examples/sum_of_squares.py sum_of_squares --dim $SN x=rand(float64,$SN,seed=3) out=zeros(float64,1)"
SAXARGS="examples/saxpy.py saxpy --dim $SN a=2.5 x=rand(float32,$SN,seed=1) y=rand(float32,$SN,seed=2)"
for tool in memcheck racecheck; do
  san $tool sum_of_squares $SUMARGS
  san $tool saxpy $SAXARGS
done
# The stream tests (streams, events, graphs, pipelines; issue #11).
for tool in racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/runtime_stream cuda \
    >"$L/sanitizer-$tool-streams.log" 2>&1
  rc=$?
  s=$(grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (error|hazard)[a-z ]*' "$L/sanitizer-$tool-streams.log" | tail -n1)
  say "sanitizer $tool runtime_stream: ${s:-no summary} (rc $rc)"
done
say "sanitizer done ($(el))"
fi

# ---- NVIDIA OpenCL
if want nvocl || want ocldev; then
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/icd
(clinfo -l || true) >"$L/clinfo.txt" 2>&1
$K devices >"$L/devices-ocl.txt" 2>&1
NVOCL=$(grep -E '^\s+opencl:[0-9]+' "$L/devices-ocl.txt" | grep -i nvidia | head -n1 | awk '{print $1}')
if [ -n "$NVOCL" ]; then
  say "NVIDIA OpenCL: $NVOCL: $(grep -E "^\s+$NVOCL " "$L/devices-ocl.txt" | cut -c1-110 | sed 's/^ *//')"
  # run.sh passes --backend; this copy passes --device so opencl:N selects NVIDIA
  if want nvocl; then
  timeout 240 sh tests/gpu/conformance_sharded.sh $K $NPYCMP "$NVOCL" "$J" >"$L/conformance-nvocl.log" 2>&1
  say "$(grep '^total' "$L/conformance-nvocl.log" || echo 'conformance (nvidia opencl): did not finish') ($(el))"
  grep '^FAIL' "$L/conformance-nvocl.log" | head -n 20 | tee -a "$SUM"
  fi
else
  say "NVIDIA OpenCL: not visible to kern (see devices-ocl.txt, clinfo.txt)"
fi
# OCL_ICD_VENDORS stays set: gpu_bench times the same kernel on $NVOCL too
fi

# ---- large tiles (issue #24): 192 KiB of tiles a thread at block sizes
# 1 to 1024 on CUDA and NVIDIA OpenCL: Warp's answer or kern's error,
# never a hang (tests/gpu/tile_large_gpu.sh)
if want tilelarge; then
for be in cuda ${NVOCL:-}; do
  timeout 300 sh tests/gpu/tile_large_gpu.sh $K $NPYCMP "$be" >"$L/tile_large-${be%%:*}.log" 2>&1
  say "tile_large $be rc $? ($(el))"; tee -a "$SUM" < "$L/tile_large-${be%%:*}.log"
done
fi

# ---- autodiff (issue #26): the adjoint suite (tests/autodiff, Warp's
# gradients as goldens) on CUDA and on NVIDIA's OpenCL
if want autodiff; then
# AD_BACKENDS narrows it (cuda, opencl: NVIDIA's); the shards' logs stay
# in $L/autodiff-*-shards, so a step cut short shows each shard's last file
for be in cuda ${NVOCL:-}; do
  case " ${AD_BACKENDS:-cuda opencl} " in *" ${be%%:*} "*) ;; *) continue ;; esac
  CONF_LOGS=$L/autodiff-${be%%:*}-shards CONF_DIR=tests/autodiff timeout ${AD_TIMEOUT:-200} \
    sh tests/gpu/conformance_sharded.sh $K $NPYCMP "$be" "$J" >"$L/autodiff-${be%%:*}.log" 2>&1
  say "autodiff: $(grep '^total' "$L/autodiff-${be%%:*}.log" || echo "$be did not finish") ($(el))"
  grep '^total' -q "$L/autodiff-${be%%:*}.log" ||
    for f in "$L/autodiff-${be%%:*}-shards"/*.log; do echo "  ${f##*/}: $(grep "^start" "$f" | tail -n1)"; done | tee -a "$SUM"
  grep '^FAIL' "$L/autodiff-${be%%:*}.log" | head -n 10 | tee -a "$SUM"
done
fi

# ---- jvp: the tangent of every autodiff file on CUDA (python/tests/
# test_jvp.py), cold, its cases split over 8 pytest processes, each case's
# time kept (-v, --durations)
if want jvp; then
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
JV=$L/jvp; mkdir -p "$JV"
export KERN_LIBRARY=$PWD/$B/libkern.so.1 KERN_TOOL=$K PYTHONPATH=$PWD/python \
  PYTHONDONTWRITEBYTECODE=1 KERN_TEST_DEVICE=cuda
$PY -m pytest --collect-only -q -p no:cacheprovider python/tests/test_jvp.py 2>/dev/null |
  grep '::' | sed 's,^tests/,python/tests/,' | awk -v d="$JV" '{ print > (d "/ids." (NR % 8)) }'
for f in "$JV"/ids.*; do
  # shellcheck disable=SC2046
  KERN_CACHE_DIR=$(mktemp -d) timeout ${JVP_TIMEOUT:-400} $PY -m pytest -v -rs -p no:cacheprovider \
    --durations=5 $(cat "$f") >"$f.log" 2>&1 &
done
wait
unset KERN_LIBRARY KERN_TOOL PYTHONPATH PYTHONDONTWRITEBYTECODE KERN_TEST_DEVICE
say "jvp (cuda): $(cat "$JV"/ids.*.log | grep -c ' PASSED') passed, $(cat "$JV"/ids.*.log | grep -c ' FAILED') failed, $(cat "$JV"/ids.*.log | grep -c ' SKIPPED') skipped, of $(cat "$JV"/ids.? | wc -l) ($(el))"
grep -h -E '^(FAILED|ERROR)' "$JV"/ids.*.log | head -n 10 | tee -a "$SUM"
grep -h -E '^[0-9.]+s call' "$JV"/ids.*.log | sort -rn | head -n 8 | tee -a "$SUM"
fi

# ---- Vulkan (issue #27) on NVIDIA's driver: the loader is carried as
# .gl/*.deb (the device README); the conformance suite on vulkan:0 and
# the native-stream test (vkbench needs the loader set-up only)
if want vulkan || want vkbench; then
for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done; ldconfig 2>/dev/null
# NVIDIA's ICD file: where the device README says, else wherever it is
# (run 6 found none at the first place and Vulkan had no driver)
ICD=$(ls /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json \
        /usr/share/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -n1)
[ -n "$ICD" ] || ICD=$(find / -xdev -name 'nvidia_icd*.json' 2>/dev/null | head -n1)
say "Vulkan ICD: ${ICD:-none found}; libGLX_nvidia: $(ldconfig -p | grep -c libGLX_nvidia)"
[ -n "$ICD" ] && export VK_DRIVER_FILES=$ICD
EGLV=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$EGLV" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$EGLV
(ls -la /usr/local/nvidia/share/vulkan/icd.d /usr/local/nvidia/lib64 2>&1 | grep -iE 'icd|GLX|vulkan|glvnd|GLdispatch' ) >"$L/vk-files.txt" 2>&1
VK_LOADER_DEBUG=error,warn $K devices >"$L/devices-vk-debug.txt" 2>&1
$K devices >"$L/devices-vk.txt" 2>&1
VK=$(grep -E '^\s+vulkan:[0-9]+' "$L/devices-vk.txt" | grep -i nvidia | head -n1 | awk '{print $1}')
if [ -n "$VK" ]; then
  say "Vulkan: $VK: $(grep -E "^\s+$VK " "$L/devices-vk.txt" | cut -c1-110 | sed 's/^ *//')"
  if want vulkan; then
  RUN_TIMEOUT=${VK_FILE_TIMEOUT:-60} CONF_LOGS=$L/vk-shards timeout ${VK_CONF_TIMEOUT:-300} \
    sh tests/gpu/conformance_sharded.sh $K $NPYCMP "$VK" "$J" >"$L/conformance-vk.log" 2>&1
  say "$(grep '^total' "$L/conformance-vk.log" || echo 'conformance (vulkan): did not finish') ($(el))"
  grep '^FAIL' "$L/conformance-vk.log" | head -n 20 | tee -a "$SUM"
  # native streams, pinned memory, graphs (Note [vulkan streams]), then
  # the same on generic streams without host import
  if cmake --build $B -j"$J" --target test_vulkan_streams >/dev/null 2>&1; then
    KERN_TEST_VULKAN_DEVICE=$VK timeout 60 $B/tests/test_vulkan_streams >"$L/vulkan-streams.log" 2>&1
    say "vulkan_streams rc $?: $(grep -E 'streams:|pinned:|async launch returned' "$L/vulkan-streams.log" | tr '\n' ' ' | cut -c1-200)"
    KERN_TEST_VULKAN_DEVICE=$VK KERN_VULKAN_GENERIC_STREAMS=1 KERN_VULKAN_NO_HOST_IMPORT=1 \
      timeout 60 $B/tests/test_vulkan_streams >"$L/vulkan-streams-generic.log" 2>&1
    say "vulkan_streams (generic, no import) rc $?"
  fi
  # the Vulkan tests CI runs on lavapipe, here on NVIDIA's driver: several
  # queues (a spin on one stream sees a flag set by a later one), chunked
  # async copies, contended atomics natively and as CAS loops, the float32
  # and float64 math against glibc, the float-control modes
  PYV=python3; [ -x /opt/torch/.venv/bin/python ] && PYV=/opt/torch/.venv/bin/python
  cmake --build $B -j"$J" --target test_vulkan_queues test_vulkan_chunks >/dev/null 2>&1
  for t in "queues $B/tests/test_vulkan_queues" \
           "chunks env KERN_VULKAN_STAGING_BYTES=4096 $B/tests/test_vulkan_chunks" \
           "atomic_cas sh tests/vulkan/atomic_cas_test.sh $K" \
           "indexed sh tests/vulkan/indexed_test.sh $K $NPYCMP $PWD" \
           "f32math $PYV tests/vulkan/f32math_test.py $K" \
           "f64math $PYV tests/vulkan/f64math_test.py $K" \
           "float_controls $PYV tests/vulkan/float_controls_test.py $K"; do
    n=${t%% *}; c=${t#* }
    KERN_TEST_VULKAN_DEVICE=$VK KERN_DEVICE=$VK timeout 120 $c >"$L/vk-$n.log" 2>&1
    say "vulkan $n rc $?: $(grep -iE 'queues|FAIL|max .* ulp' "$L/vk-$n.log" | head -n 3 | tr '\n' ' ' | cut -c1-220)"
  done
  fi
else
  say "Vulkan: no NVIDIA device visible to kern (see devices-vk.txt)"
  grep -i vulkan "$L/devices-vk.txt" | head -n 3 | tee -a "$SUM"
fi
fi

# ---- Vulkan's kern bench rows next to CUDA's and NVIDIA OpenCL's (issue #27)
if want vkbench; then
B=$B N=100000000 BACKENDS=cuda,opencl,vulkan timeout 300 sh tests/gpu/vulkan_bench.sh \
  >"$L/vulkan_bench.txt" 2>&1
say "vulkan_bench rc $? ($(el))"
grep -E '^==|hot median|cold|warm' "$L/vulkan_bench.txt" | head -n 40 | tee -a "$SUM"
fi

# ---- benchmarks
if want bench; then
if cc -std=c11 -O2 -Iinclude -c bench/gpu_bench.c -o $B/gpu_bench.o \
   && nvcc -O3 -arch=sm_90 -c bench/ref_sumsq.cu -o $B/ref_sumsq.o \
   && nvcc -o $B/gpu_bench $B/gpu_bench.o $B/ref_sumsq.o $B/libkern.a -lcuda -ldl -lpthread -lm \
   >"$L/gpu_bench-build.log" 2>&1; then
  timeout 240 $B/gpu_bench ${NVOCL:+--opencl $NVOCL} --json "$L/gpu_bench.json" >"$L/gpu_bench.txt" 2>&1
  echo "gpu_bench rc $?" >>"$L/gpu_bench.txt"
else
  echo "gpu_bench: build failed" >"$L/gpu_bench.txt"; cat "$L/gpu_bench-build.log" >>"$L/gpu_bench.txt"
fi
say "gpu_bench done ($(el))"
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
PYTHONUNBUFFERED=1 timeout 150 $PY bench/gpu_ref.py 100000000 --json "$L/gpu_ref.json" >"$L/gpu_ref.txt" 2>&1
echo "gpu_ref rc $?" >>"$L/gpu_ref.txt"
say "gpu_ref done ($(el))"
# The other leads in the same run: async launch and graph replay
# (exp/async_bench, 2 GiB pipeline) and the cold Python kern.load
# (bench/python_gpu.py, a smaller sum of squares than its own script's).
if cc -O2 -std=gnu11 -Iinclude -Isrc/runtime -Isrc/base -Isrc/compile exp/async_bench.c \
     $B/libkern.a -ldl -lpthread -lm -o $B/async_bench >"$L/async_bench-build.log" 2>&1; then
  ( unset OCL_ICD_VENDORS; timeout 120 $B/async_bench --gb 2 >"$L/async_bench.txt" 2>&1 )
  say "async_bench rc $? ($(el))"
  grep -E 'target' "$L/async_bench.txt" | tee -a "$SUM"
else
  say "async_bench: build FAILED"
fi
if cc -O2 -std=c11 -shared -fPIC -Iinclude bench/python_timer.c -o $B/libpython_timer.so \
     -L$B -lkern -Wl,-rpath,"$PWD/$B" >"$L/python_timer-build.log" 2>&1; then
  KERN_LIBRARY=$PWD/$B/libkern.so.1 KERN_TOOL=$PWD/$B/kern PYTHONPATH=$PWD/python PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 timeout 150 $PY bench/python_gpu.py --json "$L/python_gpu.json" \
    --timer $B/libpython_timer.so --n 20000000 --calls 1000 --batches 5 >"$L/python_gpu.txt" 2>&1
  say "python_gpu rc $? ($(el))"
  grep -E 'kern.load|empty kernel from Python  ' "$L/python_gpu.txt" | tee -a "$SUM"
else
  say "python_gpu: build FAILED"
fi
# kern.warp's wp.launch against the plain package and real Warp in one
# process (issue #25; bench/warp_launch.py).  Warp is not on the machine:
# $WARP_TGZ (carried, an ignored path) holds a warp-lang 1.19 package for
# CUDA (its python sources, native headers and warp.so; no warp-clang.so,
# tests or examples).  CPU first, then cuda:0.
if [ -n "${WARP_TGZ:-}" ] && [ -f "$WARP_TGZ" ]; then
  rm -rf /tmp/kern-warp && mkdir -p /tmp/kern-warp && tar -xJf "$WARP_TGZ" -C /tmp/kern-warp
fi
for dev in cpu cuda:0; do
  WP=""; [ -d /tmp/kern-warp/warp ] && [ "$dev" != cpu ] && WP=/tmp/kern-warp:
  KERN_LIBRARY=$PWD/$B/libkern.so.1 PYTHONPATH=$WP$PWD/python PYTHONDONTWRITEBYTECODE=1 \
    WARP_CACHE_PATH=/tmp/kern-warp-cache timeout 120 $PY bench/warp_launch.py $dev \
    >"$L/warp_launch_${dev%%:*}.txt" 2>&1
  say "warp_launch $dev rc $? ($(el))"
  grep -E 'per launch' "$L/warp_launch_${dev%%:*}.txt" | tee -a "$SUM"
done
fi

# ---- autodiff cost (issue #26): adjoint launch / forward launch for sum of
# squares, saxpy, an n-body step and a cloth-spring step, kern.warp and real
# Warp 1.19 (from $WARP_TGZ, as above) in one process (bench/autodiff_cost.py)
if want adcost; then
if [ -n "${WARP_TGZ:-}" ] && [ -f "$WARP_TGZ" ] && [ ! -d /tmp/kern-warp/warp ]; then
  mkdir -p /tmp/kern-warp && tar -xJf "$WARP_TGZ" -C /tmp/kern-warp
fi
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
WP=""; [ -d /tmp/kern-warp/warp ] && WP=/tmp/kern-warp:
KERN_LIBRARY=$PWD/$B/libkern.so.1 PYTHONPATH=$WP$PWD/python PYTHONDONTWRITEBYTECODE=1 \
  WARP_CACHE_PATH=/tmp/kern-warp-cache timeout 300 $PY bench/autodiff_cost.py cuda:0 \
  --json "$L/autodiff_cost.json" >"$L/autodiff_cost.txt" 2>&1
say "autodiff_cost rc $? ($(el))"
grep -E '^(gradient|kernel|sumsq|saxpy|nbody|spring)|not available' "$L/autodiff_cost.txt" | tee -a "$SUM"
fi

cp "$SUM" "$L/gpu_bench.txt" "$L/gpu_ref.txt" "$OUT/" 2>/dev/null
cp "$L/gpu_bench.json" "$L/gpu_ref.json" "$OUT/" 2>/dev/null
tar -czf "$OUT/logs.tgz" --exclude='*.npy' --exclude='cache*' -C /tmp kern-gpu-logs
echo; echo "================ summary"; cat "$SUM"; echo; cat "$L/gpu_bench.txt"; echo; tail -n 12 "$L/gpu_ref.txt"
